import { routes } from '@curbside/api';
import type { ImportJob, ImportStarted } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { DISTRICTS_KEY } from '../../lib/query-keys';
import { showReplacingToast } from '../../lib/toasts';
import { rosterQueries } from '../rosters/rosters.queries';
import { schoolQueries } from '../schools/schools.queries';
import { classroomQueries, teacherQueries, userQueries } from '../teacher/teacher.queries';

/**
 * The student-information (Clever) import (`['sis', …]`): Clever's districts,
 * a district's schools, a school's student preview, and the import jobs.
 */
export const sisQueries = {
  all: ['sis'] as const,
  districts: () =>
    queryOptions({
      queryKey: [...sisQueries.all, 'districts'] as const,
      queryFn: () => api(routes.sisDistricts),
    }),
  schools: (districtId: string) =>
    queryOptions({
      queryKey: [...sisQueries.all, 'schools', districtId] as const,
      queryFn: () => api(routes.sisSchools, { query: { districtId } }),
    }),
  preview: (cleverSchoolId: string) =>
    queryOptions({
      queryKey: [...sisQueries.all, 'preview', cleverSchoolId] as const,
      queryFn: () => api(routes.sisPreviewStudents, { query: { cleverSchoolId } }),
    }),
  /** The super admin's list: every Clever district shared with the app, and the district it is assigned to. */
  assignments: () =>
    queryOptions({
      queryKey: [...sisQueries.all, 'assignments'] as const,
      queryFn: () => api(routes.sisAssignments),
    }),
  /** A job, read every second while it runs. */
  job: (id: string) =>
    queryOptions({
      queryKey: [...sisQueries.all, 'job', id] as const,
      queryFn: () => api(routes.getImportJob, { params: { id } }),
      refetchInterval: (query) =>
        query.state.data?.status === 'running' || !query.state.data ? 1000 : false,
    }),
};

/**
 * The toasts of specification §8 "Import": the step's title over the job's
 * message, shown when the job has finished (not when it starts, at 0%).
 */
export const IMPORTED = {
  district: 'District Imported',
  school: 'School Imported',
  students: 'Students Imported',
} as const;
const FAILED = {
  district: 'Failed to import district',
  school: 'Failed to import school',
  students: 'Failed to import students',
} as const;
export type ImportStep = keyof typeof IMPORTED;

/**
 * The kind of an import's toasts (`showReplacingToast`): its end ("District Imported") takes
 * the place of its start ("Import started"), shown or waiting, instead of waiting 5 s behind
 * news it makes stale (toasts show one at a time).
 */
export const IMPORT_TOAST = 'import';

type StartInput =
  | { step: 'district'; cleverDistrictId: string }
  | { step: 'school'; cleverSchoolId: string; localDistrictId: number }
  | { step: 'students'; cleverSchoolId: string; localSchoolId: number; createMissingClassrooms: boolean };

/** Starts an import; the answer carries the job the page then follows. */
export const useStartImport = (onStarted: (job: ImportJob) => void) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartInput): Promise<ImportStarted> => {
      const { step, ...body } = input;
      if (step === 'district')
        return api(routes.sisImportDistrict, { body: body as { cleverDistrictId: string } });
      if (step === 'school')
        return api(routes.sisImportSchool, {
          body: body as { cleverSchoolId: string; localDistrictId: number },
        });
      return api(routes.sisImportStudents, {
        body: body as { cleverSchoolId: string; localSchoolId: number; createMissingClassrooms: boolean },
      });
    },
    onSuccess: (started) => {
      // The job runs on: "Imported" waits for its end (the job panel says it, in this toast's place).
      showReplacingToast(IMPORT_TOAST, { color: 'blue', title: 'Import started', message: started.message });
      client.setQueryData(sisQueries.job(started.job.id).queryKey, started.job);
      onStarted(started.job);
    },
    onError: (error, input) =>
      notifications.show({
        color: 'red',
        title: 'Import Failed',
        message: errorMessage(error) || FAILED[input.step],
      }),
  });
};

/** The super admin assigns a Clever district to a district; its district admin may then import from it. */
export const useAssignCleverDistrict = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { districtId: number; cleverDistrictId: string }) =>
      api(routes.sisAssignDistrict, {
        params: { id: input.districtId },
        body: { cleverDistrictId: input.cleverDistrictId },
      }),
    onSuccess: (district) => {
      notifications.show({
        color: 'green.9',
        title: 'Clever District Assigned',
        message: `${district.name} imports from it now`,
      });
      return Promise.all(
        [sisQueries.all, DISTRICTS_KEY].map((queryKey) => client.invalidateQueries({ queryKey })),
      );
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'Assignment Failed',
        message: errorMessage(error) || 'Failed to assign the Clever district',
      }),
  });
};

/** Resume import: a failed job goes on from where it stopped. */
export const useResumeImport = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(routes.resumeImportJob, { params: { id } }),
    onSuccess: (started) => {
      showReplacingToast(IMPORT_TOAST, {
        color: 'green.9',
        title: 'Import Resumed',
        message: started.message,
      });
      client.setQueryData(sisQueries.job(started.job.id).queryKey, started.job);
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'Import Failed',
        message: errorMessage(error) || 'Failed to resume import',
      }),
  });
};

/**
 * When a job finishes, what it wrote is read again: districts, schools, the
 * school admin's rosters (students, teachers, parents, classrooms, the tab
 * counts) and what the teacher screens read of them (classrooms, users, students).
 */
export const useRefreshAfterImport = () => {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [
        DISTRICTS_KEY,
        schoolQueries.all,
        rosterQueries.all,
        classroomQueries.all,
        userQueries.all,
        teacherQueries.all,
      ].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
};
