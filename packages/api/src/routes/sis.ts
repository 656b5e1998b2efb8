import {
  type District,
  type ImportJob,
  type ImportStarted,
  type SisDistrict,
  type SisDistrictAssignment,
  type SisSchool,
  type SisStudentPreview,
  sisAssignDistrictSchema,
  sisImportDistrictSchema,
  sisImportSchoolSchema,
  sisImportStudentsSchema,
  sisPreviewQuerySchema,
  sisSchoolsQuerySchema,
} from '@curbside/domain';
import { areaRoutes, returns, route } from '../route';
import { idParams, importJobParams } from './shared';

/** The student-information-system (Clever) import: district admins and up. */
export const sisRoutes = areaRoutes('sis', {
  // The student-information-system (Clever) import: district admins and up.
  // An import answers at once with a job; the job does the work and reports progress.
  sisDistricts: route({
    method: 'GET',
    path: '/api/clever/districts',
    request: {},
    access: { minRole: 'district_admin' },
    response: returns<SisDistrict[]>(),
  }),
  // Which Clever district a Curbside district imports from is the super admin's to say:
  // a district admin sees none until theirs is assigned.
  sisAssignments: route({
    method: 'GET',
    path: '/api/clever/assignments',
    request: {},
    access: { minRole: 'super_admin' },
    response: returns<SisDistrictAssignment[]>(),
  }),
  sisAssignDistrict: route({
    method: 'PUT',
    path: '/api/districts/{id}/clever',
    request: { params: idParams, body: sisAssignDistrictSchema },
    access: { minRole: 'super_admin', data: 'update' },
    response: returns<District>(),
  }),
  sisSchools: route({
    method: 'GET',
    path: '/api/clever/schools',
    request: { query: sisSchoolsQuerySchema },
    access: { minRole: 'district_admin' },
    response: returns<SisSchool[]>(),
  }),
  sisPreviewStudents: route({
    method: 'GET',
    path: '/api/clever/preview/students',
    request: { query: sisPreviewQuerySchema },
    access: { minRole: 'district_admin' },
    response: returns<SisStudentPreview>(),
  }),
  sisImportDistrict: route({
    method: 'POST',
    path: '/api/clever/import/district',
    request: { body: sisImportDistrictSchema },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
  sisImportSchool: route({
    method: 'POST',
    path: '/api/clever/import/school',
    request: { body: sisImportSchoolSchema },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
  sisImportStudents: route({
    method: 'POST',
    path: '/api/clever/import/students',
    request: { body: sisImportStudentsSchema },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
  getImportJob: route({
    method: 'GET',
    path: '/api/import-jobs/{id}',
    request: { params: importJobParams },
    access: { minRole: 'district_admin' },
    response: returns<ImportJob>(),
  }),
  /** A failed job starts again from its last checkpoint (what it finished stays). */
  resumeImportJob: route({
    method: 'POST',
    path: '/api/import-jobs/{id}/resume',
    request: { params: importJobParams },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
});
