import {
  type Alert,
  activeInputSchema,
  addVehicleSchema,
  type Batch,
  type Bus,
  type BusLinks,
  type BusPosition,
  busAlertSchema,
  type Classroom,
  classroomInputSchema,
  createAlertSchema,
  createBatchSchema,
  type DismissalEvent,
  type District,
  type DistrictDismissalRow,
  type DistrictReportRow,
  type DistrictWithSchools,
  districtInputSchema,
  END_SESSION_MIN_ROLE,
  IMPORT_KINDS,
  IMPORT_MAX_CHARS,
  type ImportJob,
  type ImportResult,
  type ImportStarted,
  loginSchema,
  type NewStaff,
  type OneTimeCredentials,
  type Page,
  type ParentChild,
  type ParentRow,
  type ParentStudentStatus,
  type PickupSession,
  parentInputSchema,
  parentRegisterSchema,
  passwordChangeSchema,
  pickupCodeSchema,
  QUEUE_STATUSES,
  type QueueEntry,
  type RosterCounts,
  removalSchema,
  rosterListQuerySchema,
  type School,
  type SessionListItem,
  type SessionReport,
  type SisDistrict,
  type SisDistrictAssignment,
  type SisSchool,
  type SisStudentPreview,
  type StudentMark,
  type StudentPickup,
  type StudentRow,
  type StudentStats,
  sandboxInputSchema,
  schoolInputSchema,
  schoolScopeSchema,
  sessionInputSchema,
  sisAssignDistrictSchema,
  sisImportDistrictSchema,
  sisImportSchoolSchema,
  sisImportStudentsSchema,
  sisPreviewQuerySchema,
  sisSchoolsQuerySchema,
  staffInputSchema,
  studentInputSchema,
  type TeacherRow,
  type TeacherStudent,
  teacherInputSchema,
  type User,
  updateBatchSchema,
  VEHICLE_TYPES,
  type VehicleRow,
  vehicleInputSchema,
  vehicleNumberSchema,
} from '@curbside/domain';
import { z } from 'zod';
import { returns, route } from './route';

const importJobParams = z.object({
  id: z
    .string()
    .max(36, 'No such import job')
    .regex(/^[0-9a-f-]{36}$/, 'No such import job'),
});

const id = z.coerce.number({ message: 'Invalid id' }).int('Invalid id').positive('Invalid id');
const idParams = z.object({ id });
const ok = returns<{ ok: true }>();
const cursorQuery = z.object({ cursor: z.string().max(2000, 'Invalid cursor').optional() });
const day = (name: string) =>
  z
    .string({ message: `${name} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`);
const entryParams = z.object({ id: z.string().trim().min(1, 'Invalid id').max(64, 'Invalid id') });
const sessionQuery = z.object({ sessionId: id });
/** `classroomIds=3,7`: the classrooms a teacher view is about (absent: the whole school). */
const classroomIds = z
  .string({ message: 'Classroom ids must be numbers separated by commas' })
  .max(400, 'Too many classrooms')
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Classroom ids must be numbers separated by commas')
  .transform((value) => value.split(',').map(Number))
  .optional();
interface PickupCodeView {
  code: string;
  studentId: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}
interface CodeLookup {
  code: string;
  expiresAt: string;
  student: { firstName: string; lastInitial: string } | null;
  schoolName: string | null;
}
/** What the school admin screen reads besides the queue: tab counts and where the students are. */
export interface SchoolSummary {
  /** `readOnly`: the school (or its district) is in sandbox mode and the caller is not a super admin. */
  school: { id: number; name: string; sandbox: boolean; readOnly: boolean };
  counts: RosterCounts;
  /** Null without a session. */
  students: StudentStats | null;
}
/** A roster route of a school: `?schoolId=` lets district and super admins pick the school. */
const rosterParams = { params: idParams, query: schoolScopeSchema };
interface LinkResult {
  linked: true;
  student: { id: number; firstName: string; lastName: string; grade: string } | null;
}

/**
 * `POST /api/alerts`: a staff alert (the toggle of the alert panel), or a bus
 * driver's (source `bus_driver`, sent with the driver link), each checked
 * with its own rules and messages.
 */
const alertBodySchema = z.unknown().transform((value, context) => {
  const driver =
    typeof value === 'object' && value !== null && 'source' in value && value.source === 'bus_driver';
  const result = (driver ? busAlertSchema : createAlertSchema).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) context.addIssue({ ...issue, input: value } as never);
  return z.NEVER;
}) as unknown as z.ZodType<
  z.output<typeof createAlertSchema> | z.output<typeof busAlertSchema>,
  z.input<typeof createAlertSchema> | z.input<typeof busAlertSchema>
>;

/**
 * The route table: the single source of truth for every HTTP call. Handlers
 * (`functions/src/http/{name}.ts`), the CDK stack, the laptop gateway and the
 * web client all read it.
 */
export const routes = {
  health: route({
    name: 'health',
    area: 'auth',
    method: 'GET',
    path: '/api/health',
    request: {},
    access: 'public',
    response: returns<{ ok: true; demo: boolean }>(),
  }),

  // Staff sign-in
  login: route({
    name: 'login',
    area: 'auth',
    method: 'POST',
    path: '/api/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  logout: route({
    name: 'logout',
    area: 'auth',
    method: 'POST',
    path: '/api/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  changePassword: route({
    name: 'changePassword',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/password',
    request: { body: passwordChangeSchema },
    access: 'signedIn',
    sandboxExempt: true,
    beforeOwnPassword: true,
    response: returns<User>(),
  }),
  me: route({
    name: 'me',
    area: 'auth',
    method: 'GET',
    path: '/api/me',
    request: {},
    access: 'signedIn',
    beforeOwnPassword: true,
    response: returns<User>(),
  }),

  // Parent sign-in and single sign-on
  parentLogin: route({
    name: 'parentLogin',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/parent/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  parentRegister: route({
    name: 'parentRegister',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/parent/register',
    request: { body: parentRegisterSchema },
    access: 'public',
    response: returns<User>(),
  }),
  authLogout: route({
    name: 'authLogout',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  ssoLogin: route({
    name: 'ssoLogin',
    area: 'auth',
    method: 'GET',
    path: '/api/auth/login',
    request: {},
    access: 'public',
    response: returns<never>(),
  }),
  /** Clever sends the browser back here with a code (and our state, unless the sign-in began at Clever). */
  ssoCallback: route({
    name: 'ssoCallback',
    area: 'auth',
    method: 'GET',
    path: '/api/auth/clever/callback',
    request: {
      query: z.object({
        code: z.string().max(512).optional(),
        state: z.string().max(128).optional(),
        error: z.string().max(200).optional(),
        scope: z.string().max(500).optional(),
      }),
    },
    access: 'public',
    response: returns<never>(),
  }),

  // Pickup sessions: open to every staff role of the school
  activeSession: route({
    name: 'activeSession',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions/active',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession | null>(),
  }),
  listSessions: route({
    name: 'listSessions',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions',
    request: { query: cursorQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ items: SessionListItem[]; next: string | null }>(),
  }),
  // The dismissal's record: reports for school admins and above (district admins of its district, super admins).
  sessionReport: route({
    name: 'sessionReport',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions/{id}/report',
    request: { params: idParams },
    access: { minRole: 'school_admin' },
    response: returns<SessionReport>(),
  }),
  sessionReportCsv: route({
    name: 'sessionReportCsv',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions/{id}/report.csv',
    request: { params: idParams },
    access: { minRole: 'school_admin' },
    response: returns<string>(),
  }),
  sessionEvents: route({
    name: 'sessionEvents',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions/{id}/events',
    request: { params: idParams, query: cursorQuery },
    access: { minRole: 'school_admin' },
    response: returns<{ items: DismissalEvent[]; next: string | null }>(),
  }),
  createSession: route({
    name: 'createSession',
    area: 'carLine',
    method: 'POST',
    path: '/api/sessions',
    request: { body: sessionInputSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession>(),
  }),
  endSession: route({
    name: 'endSession',
    area: 'carLine',
    method: 'PUT',
    path: '/api/sessions/{id}/end',
    request: { params: idParams },
    access: { minRole: END_SESSION_MIN_ROLE },
    response: returns<PickupSession>(),
  }),

  // Schools, districts and users: reads
  getSchool: route({
    name: 'getSchool',
    area: 'admin',
    method: 'GET',
    path: '/api/schools/{id}',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<School>(),
  }),
  getDistrict: route({
    name: 'getDistrict',
    area: 'admin',
    method: 'GET',
    path: '/api/districts/{id}',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<District>(),
  }),
  // Districts and schools (specification §7 "Administration"), tenant-scoped on the server
  listDistricts: route({
    name: 'listDistricts',
    area: 'admin',
    method: 'GET',
    path: '/api/districts',
    request: {},
    access: { minRole: 'district_admin' },
    response: returns<DistrictWithSchools[]>(),
  }),
  districtSchools: route({
    name: 'districtSchools',
    area: 'admin',
    method: 'GET',
    path: '/api/districts/{id}/schools',
    request: { params: idParams },
    access: { minRole: 'district_admin' },
    response: returns<School[]>(),
  }),
  districtUsers: route({
    name: 'districtUsers',
    area: 'admin',
    method: 'GET',
    path: '/api/districts/{id}/users',
    request: { params: idParams },
    access: { minRole: 'district_admin' },
    response: returns<User[]>(),
  }),
  districtDismissals: route({
    name: 'districtDismissals',
    area: 'admin',
    method: 'GET',
    path: '/api/districts/{id}/dismissals',
    request: { params: idParams, query: z.object({ from: day('from'), to: day('to') }) },
    access: { minRole: 'district_admin' },
    response: returns<DistrictDismissalRow[]>(),
  }),
  districtReport: route({
    name: 'districtReport',
    area: 'admin',
    method: 'GET',
    path: '/api/districts/{id}/report',
    request: { params: idParams },
    access: { minRole: 'district_admin' },
    response: returns<DistrictReportRow[]>(),
  }),
  createDistrict: route({
    name: 'createDistrict',
    area: 'admin',
    method: 'POST',
    path: '/api/districts',
    request: { body: districtInputSchema },
    access: { minRole: 'super_admin', data: 'create' },
    response: returns<District>(),
  }),
  createSchool: route({
    name: 'createSchool',
    area: 'admin',
    method: 'POST',
    path: '/api/schools',
    request: { body: schoolInputSchema },
    access: { minRole: 'district_admin', data: 'create' },
    response: returns<School>(),
  }),
  listSchools: route({
    name: 'listSchools',
    area: 'admin',
    method: 'GET',
    path: '/api/schools',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<School[]>(),
  }),
  patchSchoolSandbox: route({
    name: 'patchSchoolSandbox',
    area: 'admin',
    method: 'PATCH',
    path: '/api/schools/{id}/sandbox',
    request: { params: idParams, body: sandboxInputSchema },
    access: { minRole: 'district_admin', data: 'update' },
    sandboxExempt: true,
    response: returns<School>(),
  }),
  putSchoolSandbox: route({
    name: 'putSchoolSandbox',
    area: 'admin',
    method: 'PUT',
    path: '/api/schools/{id}/sandbox',
    request: { params: idParams, body: sandboxInputSchema },
    access: { minRole: 'super_admin', data: 'update' },
    sandboxExempt: true,
    response: returns<School>(),
  }),
  putDistrictSandbox: route({
    name: 'putDistrictSandbox',
    area: 'admin',
    method: 'PUT',
    path: '/api/districts/{id}/sandbox',
    request: { params: idParams, body: sandboxInputSchema },
    access: { minRole: 'super_admin', data: 'update' },
    sandboxExempt: true,
    response: returns<District>(),
  }),
  createStaff: route({
    name: 'createStaff',
    area: 'admin',
    method: 'POST',
    path: '/api/districts/{id}/users',
    request: { params: idParams, body: staffInputSchema },
    access: { minRole: 'district_admin', data: 'create' },
    response: returns<NewStaff>(),
  }),
  setUserActive: route({
    name: 'setUserActive',
    area: 'admin',
    method: 'PUT',
    path: '/api/users/{id}/active',
    request: { params: idParams, body: activeInputSchema },
    access: { minRole: 'district_admin', data: 'update' },
    response: returns<User>(),
  }),
  listUsers: route({
    name: 'listUsers',
    area: 'admin',
    method: 'GET',
    path: '/api/users',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<User[]>(),
  }),

  // The car line: queue, vehicles and alerts, open to every staff role of the school
  sessionReleases: route({
    name: 'sessionReleases',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions/{id}/releases',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<StudentMark[]>(),
  }),
  listQueue: route({
    name: 'listQueue',
    area: 'carLine',
    method: 'GET',
    path: '/api/queue',
    request: { query: sessionQuery.extend({ status: z.literal('completed').optional() }) },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry[]>(),
  }),
  addToQueue: route({
    name: 'addToQueue',
    area: 'carLine',
    method: 'POST',
    path: '/api/queue',
    request: { body: addVehicleSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  removeFromQueue: route({
    name: 'removeFromQueue',
    area: 'carLine',
    method: 'DELETE',
    path: '/api/queue/{id}',
    request: { params: entryParams, body: removalSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  setQueueStatus: route({
    name: 'setQueueStatus',
    area: 'carLine',
    method: 'PUT',
    path: '/api/queue/{id}/status',
    request: {
      params: entryParams,
      body: z.object({
        status: z.enum(QUEUE_STATUSES, { message: 'Status must be waiting, ready, overflow or completed' }),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  updateQueueEntry: route({
    name: 'updateQueueEntry',
    area: 'carLine',
    method: 'PUT',
    path: '/api/queue/{id}',
    request: {
      params: entryParams,
      body: z.object({
        batchId: id.nullable(),
        status: z.enum(['waiting', 'overflow'], { message: 'Status must be waiting or overflow' }),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  createAlert: route({
    name: 'createAlert',
    area: 'carLine',
    method: 'POST',
    path: '/api/alerts',
    request: { body: alertBodySchema },
    access: { minRole: 'front_queue_wrangler', busLink: 'driver' },
    response: returns<{ dismissed: boolean; alert: Alert }>(),
  }),
  listAlerts: route({
    name: 'listAlerts',
    area: 'carLine',
    method: 'GET',
    path: '/api/alerts',
    request: { query: z.object({ sessionId: id.optional() }) },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert[]>(),
  }),
  acknowledgeAlert: route({
    name: 'acknowledgeAlert',
    area: 'carLine',
    method: 'POST',
    path: '/api/alerts/{id}/acknowledge',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert>(),
  }),
  dismissAlert: route({
    name: 'dismissAlert',
    area: 'carLine',
    method: 'PUT',
    path: '/api/alerts/{id}/dismiss',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert>(),
  }),

  // Batches: called forward at the loading zone
  activeBatches: route({
    name: 'activeBatches',
    area: 'carLine',
    method: 'GET',
    path: '/api/batches/active',
    request: { query: sessionQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch[]>(),
  }),
  listBatches: route({
    name: 'listBatches',
    area: 'carLine',
    method: 'GET',
    path: '/api/batches',
    request: {
      query: sessionQuery.extend({
        status: z
          .enum(['loading', 'completed'], { message: 'Status must be loading or completed' })
          .default('completed'),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch[]>(),
  }),
  createBatch: route({
    name: 'createBatch',
    area: 'carLine',
    method: 'POST',
    path: '/api/batches',
    request: { body: createBatchSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
  updateBatch: route({
    name: 'updateBatch',
    area: 'carLine',
    method: 'PUT',
    path: '/api/batches/{id}',
    request: { params: idParams, body: updateBatchSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
  batchVehicles: route({
    name: 'batchVehicles',
    area: 'carLine',
    method: 'GET',
    path: '/api/batches/{id}/vehicles',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry[]>(),
  }),
  addToBatch: route({
    name: 'addToBatch',
    area: 'carLine',
    method: 'POST',
    path: '/api/batches/{id}/vehicles',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),

  // The school's rosters (school admin screen). Every staff role reads them; the
  // data-permission matrix decides who writes (admins create, update, delete and
  // import; teachers update); sandboxed schools are read-only. Tenant-scoped to
  // the caller's school, or with `?schoolId=` a school a district or super admin oversees.
  schoolSummary: route({
    name: 'schoolSummary',
    area: 'admin',
    method: 'GET',
    path: '/api/school-summary',
    request: { query: schoolScopeSchema.extend({ sessionId: id.optional() }) },
    access: { minRole: 'school_admin' },
    response: returns<SchoolSummary>(),
  }),
  listStudents: route({
    name: 'listStudents',
    area: 'admin',
    method: 'GET',
    path: '/api/students',
    request: { query: rosterListQuerySchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Page<StudentRow>>(),
  }),
  createStudent: route({
    name: 'createStudent',
    area: 'admin',
    method: 'POST',
    path: '/api/students',
    request: { query: schoolScopeSchema, body: studentInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'create' },
    response: returns<StudentRow>(),
  }),
  updateStudent: route({
    name: 'updateStudent',
    area: 'admin',
    method: 'PUT',
    path: '/api/students/{id}',
    request: { ...rosterParams, body: studentInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'update' },
    response: returns<StudentRow>(),
  }),
  deleteStudent: route({
    name: 'deleteStudent',
    area: 'admin',
    method: 'DELETE',
    path: '/api/students/{id}',
    request: rosterParams,
    access: { minRole: 'front_queue_wrangler', data: 'delete' },
    response: returns<StudentRow>(),
  }),
  listTeachers: route({
    name: 'listTeachers',
    area: 'admin',
    method: 'GET',
    path: '/api/teachers',
    request: { query: rosterListQuerySchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Page<TeacherRow>>(),
  }),
  createTeacher: route({
    name: 'createTeacher',
    area: 'admin',
    method: 'POST',
    path: '/api/teachers',
    request: { query: schoolScopeSchema, body: teacherInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'create' },
    response: returns<{ teacher: TeacherRow; credentials: OneTimeCredentials }>(),
  }),
  updateTeacher: route({
    name: 'updateTeacher',
    area: 'admin',
    method: 'PUT',
    path: '/api/teachers/{id}',
    request: { ...rosterParams, body: teacherInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'update' },
    response: returns<{ teacher: TeacherRow; credentials: OneTimeCredentials | null }>(),
  }),
  deleteTeacher: route({
    name: 'deleteTeacher',
    area: 'admin',
    method: 'DELETE',
    path: '/api/teachers/{id}',
    request: rosterParams,
    access: { minRole: 'front_queue_wrangler', data: 'delete' },
    response: returns<TeacherRow>(),
  }),
  listParents: route({
    name: 'listParents',
    area: 'admin',
    method: 'GET',
    path: '/api/parents',
    request: { query: rosterListQuerySchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Page<ParentRow>>(),
  }),
  createParent: route({
    name: 'createParent',
    area: 'admin',
    method: 'POST',
    path: '/api/parents',
    request: { query: schoolScopeSchema, body: parentInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'create' },
    response: returns<{ parent: ParentRow; credentials: OneTimeCredentials }>(),
  }),
  updateParent: route({
    name: 'updateParent',
    area: 'admin',
    method: 'PUT',
    path: '/api/parents/{id}',
    request: { ...rosterParams, body: parentInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'update' },
    response: returns<{ parent: ParentRow; credentials: OneTimeCredentials | null }>(),
  }),
  deleteParent: route({
    name: 'deleteParent',
    area: 'admin',
    method: 'DELETE',
    path: '/api/parents/{id}',
    request: rosterParams,
    access: { minRole: 'front_queue_wrangler', data: 'delete' },
    response: returns<ParentRow>(),
  }),
  listVehicles: route({
    name: 'listVehicles',
    area: 'admin',
    method: 'GET',
    path: '/api/vehicles',
    // `type` and `number` together find one vehicle (the teacher screen's vehicle dialog).
    request: {
      query: rosterListQuerySchema.extend({
        type: z.enum(VEHICLE_TYPES, { message: 'Vehicle type must be car or bus' }).optional(),
        number: vehicleNumberSchema.optional(),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Page<VehicleRow>>(),
  }),
  createVehicle: route({
    name: 'createVehicle',
    area: 'admin',
    method: 'POST',
    path: '/api/vehicles',
    request: { query: schoolScopeSchema, body: vehicleInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'create' },
    response: returns<VehicleRow>(),
  }),
  updateVehicle: route({
    name: 'updateVehicle',
    area: 'admin',
    method: 'PUT',
    path: '/api/vehicles/{id}',
    request: { ...rosterParams, body: vehicleInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'update' },
    response: returns<VehicleRow>(),
  }),
  deleteVehicle: route({
    name: 'deleteVehicle',
    area: 'admin',
    method: 'DELETE',
    path: '/api/vehicles/{id}',
    request: rosterParams,
    access: { minRole: 'front_queue_wrangler', data: 'delete' },
    response: returns<VehicleRow>(),
  }),
  createClassroom: route({
    name: 'createClassroom',
    area: 'admin',
    method: 'POST',
    path: '/api/classrooms',
    request: { query: schoolScopeSchema, body: classroomInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'create' },
    response: returns<Classroom>(),
  }),
  updateClassroom: route({
    name: 'updateClassroom',
    area: 'admin',
    method: 'PUT',
    path: '/api/classrooms/{id}',
    request: { ...rosterParams, body: classroomInputSchema },
    access: { minRole: 'front_queue_wrangler', data: 'update' },
    response: returns<Classroom>(),
  }),
  deleteClassroom: route({
    name: 'deleteClassroom',
    area: 'admin',
    method: 'DELETE',
    path: '/api/classrooms/{id}',
    request: rosterParams,
    access: { minRole: 'front_queue_wrangler', data: 'delete' },
    response: returns<Classroom>(),
  }),
  importRoster: route({
    name: 'importRoster',
    area: 'admin',
    method: 'POST',
    path: '/api/import/{kind}',
    contentType: 'text/csv',
    request: {
      params: z.object({
        kind: z.enum(IMPORT_KINDS, { message: 'Import students, teachers, parents or vehicles' }),
      }),
      query: schoolScopeSchema,
      body: z
        .string({ message: 'Send the file as CSV text (Content-Type: text/csv)' })
        .max(
          IMPORT_MAX_CHARS,
          `A file can hold at most ${IMPORT_MAX_CHARS.toLocaleString('en-US')} characters; split it into several files`,
        ),
    },
    access: { minRole: 'front_queue_wrangler', data: 'import' },
    response: returns<ImportResult>(),
  }),

  // Teachers, classrooms and pickup codes
  listClassrooms: route({
    name: 'listClassrooms',
    area: 'teacher',
    method: 'GET',
    path: '/api/classrooms',
    request: { query: schoolScopeSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Classroom[]>(),
  }),
  teacherStudents: route({
    name: 'teacherStudents',
    area: 'teacher',
    method: 'GET',
    path: '/api/teacher/students',
    // Without a session: every student, none in the queue, released or picked up.
    request: { query: z.object({ sessionId: id.optional(), classroomIds }) },
    access: { minRole: 'teacher' },
    response: returns<TeacherStudent[]>(),
  }),
  readyStudents: route({
    name: 'readyStudents',
    area: 'teacher',
    method: 'GET',
    path: '/api/teacher/students/ready',
    request: { query: sessionQuery.extend({ classroomIds }) },
    access: { minRole: 'teacher' },
    response: returns<TeacherStudent[]>(),
  }),
  releaseStudent: route({
    name: 'releaseStudent',
    area: 'teacher',
    method: 'PUT',
    path: '/api/teacher/students/{id}/release',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<{ studentId: number; sessionId: number; releasedAt: string }>(),
  }),
  // A new pickup code changes how the student's parents may link: an update of the
  // student's record, which teachers may make (the data-permission matrix).
  generatePickupCode: route({
    name: 'generatePickupCode',
    area: 'teacher',
    method: 'POST',
    path: '/api/pickup-codes/generate',
    request: {
      body: z.object({
        studentId: z.coerce.number({ message: 'No student selected' }).int().positive('No student selected'),
      }),
    },
    access: { minRole: 'teacher', data: 'update' },
    response: returns<PickupCodeView>(),
  }),
  studentPickups: route({
    name: 'studentPickups',
    area: 'teacher',
    method: 'GET',
    path: '/api/students/{id}/pickups',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<StudentPickup[]>(),
  }),
  studentPickupCode: route({
    name: 'studentPickupCode',
    area: 'teacher',
    method: 'GET',
    path: '/api/students/{id}/pickup-code',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<PickupCodeView | null>(),
  }),
  newStudentPickupCode: route({
    name: 'newStudentPickupCode',
    area: 'teacher',
    method: 'POST',
    path: '/api/students/{id}/pickup-code',
    request: { params: idParams },
    access: { minRole: 'teacher', data: 'update' },
    response: returns<PickupCodeView>(),
  }),
  lookupPickupCode: route({
    name: 'lookupPickupCode',
    area: 'parent',
    method: 'GET',
    path: '/api/pickup-codes/lookup/{code}',
    request: { params: z.object({ code: pickupCodeSchema }) },
    access: 'public',
    response: returns<CodeLookup>(),
  }),
  usePickupCode: route({
    name: 'usePickupCode',
    area: 'parent',
    method: 'POST',
    path: '/api/pickup-codes/use',
    request: { body: z.object({ code: pickupCodeSchema }) },
    access: 'parent',
    response: returns<LinkResult>(),
  }),
  linkStudent: route({
    name: 'linkStudent',
    area: 'parent',
    method: 'POST',
    path: '/api/parent/link-student',
    request: { body: z.object({ pickupCode: pickupCodeSchema }) },
    access: 'parent',
    response: returns<LinkResult>(),
  }),
  parentStudents: route({
    name: 'parentStudents',
    area: 'parent',
    method: 'GET',
    path: '/api/parent/students',
    request: {},
    access: 'parent',
    response: returns<ParentChild[]>(),
  }),
  parentStudentStatus: route({
    name: 'parentStudentStatus',
    area: 'parent',
    method: 'GET',
    path: '/api/parent/students/status',
    request: {},
    access: 'parent',
    response: returns<ParentStudentStatus[]>(),
  }),

  // Buses: the school's private links, the driver page's buses, the map's positions
  busLinks: route({
    name: 'busLinks',
    area: 'bus',
    method: 'GET',
    path: '/api/bus-links',
    request: {},
    access: { minRole: 'school_admin' },
    response: returns<BusLinks>(),
  }),
  rotateBusLinks: route({
    name: 'rotateBusLinks',
    area: 'bus',
    method: 'POST',
    path: '/api/bus-links/rotate',
    request: {},
    access: { minRole: 'school_admin' },
    response: returns<BusLinks>(),
  }),
  busFleet: route({
    name: 'busFleet',
    area: 'bus',
    method: 'GET',
    path: '/api/buses',
    request: {},
    access: { minRole: 'front_queue_wrangler', busLink: 'driver' },
    response: returns<Bus[]>(),
  }),
  busPositions: route({
    name: 'busPositions',
    area: 'bus',
    method: 'GET',
    path: '/api/buses/positions',
    request: {},
    access: { minRole: 'front_queue_wrangler', busLink: 'map' },
    response: returns<BusPosition[]>(),
  }),

  // The student-information-system (Clever) import: district admins and up.
  // An import answers at once with a job; the job does the work and reports progress.
  sisDistricts: route({
    name: 'sisDistricts',
    area: 'sis',
    method: 'GET',
    path: '/api/clever/districts',
    request: {},
    access: { minRole: 'district_admin' },
    response: returns<SisDistrict[]>(),
  }),
  // Which Clever district a Curbside district imports from is the super admin's to say:
  // a district admin sees none until theirs is assigned.
  sisAssignments: route({
    name: 'sisAssignments',
    area: 'sis',
    method: 'GET',
    path: '/api/clever/assignments',
    request: {},
    access: { minRole: 'super_admin' },
    response: returns<SisDistrictAssignment[]>(),
  }),
  sisAssignDistrict: route({
    name: 'sisAssignDistrict',
    area: 'sis',
    method: 'PUT',
    path: '/api/districts/{id}/clever',
    request: { params: idParams, body: sisAssignDistrictSchema },
    access: { minRole: 'super_admin', data: 'update' },
    response: returns<District>(),
  }),
  sisSchools: route({
    name: 'sisSchools',
    area: 'sis',
    method: 'GET',
    path: '/api/clever/schools',
    request: { query: sisSchoolsQuerySchema },
    access: { minRole: 'district_admin' },
    response: returns<SisSchool[]>(),
  }),
  sisPreviewStudents: route({
    name: 'sisPreviewStudents',
    area: 'sis',
    method: 'GET',
    path: '/api/clever/preview/students',
    request: { query: sisPreviewQuerySchema },
    access: { minRole: 'district_admin' },
    response: returns<SisStudentPreview>(),
  }),
  sisImportDistrict: route({
    name: 'sisImportDistrict',
    area: 'sis',
    method: 'POST',
    path: '/api/clever/import/district',
    request: { body: sisImportDistrictSchema },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
  sisImportSchool: route({
    name: 'sisImportSchool',
    area: 'sis',
    method: 'POST',
    path: '/api/clever/import/school',
    request: { body: sisImportSchoolSchema },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
  sisImportStudents: route({
    name: 'sisImportStudents',
    area: 'sis',
    method: 'POST',
    path: '/api/clever/import/students',
    request: { body: sisImportStudentsSchema },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
  getImportJob: route({
    name: 'getImportJob',
    area: 'sis',
    method: 'GET',
    path: '/api/import-jobs/{id}',
    request: { params: importJobParams },
    access: { minRole: 'district_admin' },
    response: returns<ImportJob>(),
  }),
  /** A failed job starts again from its last checkpoint (what it finished stays). */
  resumeImportJob: route({
    name: 'resumeImportJob',
    area: 'sis',
    method: 'POST',
    path: '/api/import-jobs/{id}/resume',
    request: { params: importJobParams },
    access: { minRole: 'district_admin', data: 'import' },
    response: returns<ImportStarted>(),
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

export const routeList = Object.values(routes);
