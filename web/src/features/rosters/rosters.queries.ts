import { routes } from '@curbside/api';
import type {
  ClassroomInput,
  ImportKind,
  ParentInput,
  StudentInput,
  TeacherInput,
  VehicleInput,
} from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { ROSTERS_KEY } from '../../lib/query-keys';
import { showReplacingToast } from '../../lib/toasts';
import { classroomQueries, teacherQueries, vehicleQueries } from '../teacher/teacher.queries';

export type RosterKind = ImportKind;
/** A school picked with `?schoolId=` (district and super admins), or the caller's own (undefined). */
export type SchoolScope = number | undefined;

export const ROSTER_PAGE = 25;

interface ListArgs {
  schoolId: SchoolScope;
  search: string;
  cursor: string | null;
}
const listQuery = ({ schoolId, search, cursor }: ListArgs) => ({
  schoolId,
  search: search.trim() || undefined,
  cursor: cursor ?? undefined,
  limit: ROSTER_PAGE,
});

/**
 * The school's rosters (`['rosters', …]`): a page per kind, search and
 * cursor; the school summary (tab counts, where the students are).
 */
export const rosterQueries = {
  all: ROSTERS_KEY,
  /** Every school summary (the prefix a live event or a mode switch invalidates). */
  summaries: () => [...rosterQueries.all, 'summary'] as const,
  summary: (schoolId: SchoolScope, sessionId: number | null) =>
    queryOptions({
      queryKey: [...rosterQueries.summaries(), schoolId ?? 'own', sessionId ?? 'none'] as const,
      queryFn: () => api(routes.schoolSummary, { query: { schoolId, sessionId: sessionId ?? undefined } }),
    }),
  students: (args: ListArgs) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'students', args] as const,
      queryFn: () => api(routes.listStudents, { query: listQuery(args) }),
      placeholderData: keepPreviousData,
    }),
  teachers: (args: ListArgs) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'teachers', args] as const,
      queryFn: () => api(routes.listTeachers, { query: listQuery(args) }),
      placeholderData: keepPreviousData,
    }),
  parents: (args: ListArgs) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'parents', args] as const,
      queryFn: () => api(routes.listParents, { query: listQuery(args) }),
      placeholderData: keepPreviousData,
    }),
  vehicles: (args: ListArgs) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'vehicles', args] as const,
      queryFn: () => api(routes.listVehicles, { query: listQuery(args) }),
      placeholderData: keepPreviousData,
    }),
  /** Students matching a search, for pickers (a vehicle's or a parent's children). */
  studentOptions: (schoolId: SchoolScope, search: string) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'student-options', schoolId ?? 'own', search.trim()] as const,
      queryFn: () =>
        api(routes.listStudents, { query: { schoolId, search: search.trim() || undefined, limit: 20 } }),
      placeholderData: keepPreviousData,
    }),
  classrooms: (schoolId: SchoolScope) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'classrooms', schoolId ?? 'own'] as const,
      queryFn: () => api(routes.listClassrooms, { query: { schoolId } }),
    }),
  /** How many active students a classroom has (read fresh when its deactivation is asked). */
  classroomStudentCount: (schoolId: SchoolScope, id: number) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'classroom-student-count', schoolId ?? 'own', id] as const,
      queryFn: () => api(routes.classroomStudentCount, { params: { id }, query: { schoolId } }),
      staleTime: 0,
    }),
};

/** After a roster change: the lists, the counts, and what other screens read of the rosters. */
const useRosterChanged = () => {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [rosterQueries.all, classroomQueries.all, vehicleQueries.all, teacherQueries.all].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
};

const failed = (title: string) => (error: unknown) =>
  notifications.show({ color: 'red', title, message: errorMessage(error) });

/** Add (no id) or change (id) a record; `onSuccess` gets the answer. */
export const useSaveStudent = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: StudentInput }) =>
      id === null
        ? api(routes.createStudent, { query: { schoolId }, body: input })
        : api(routes.updateStudent, { params: { id }, query: { schoolId }, body: input }),
    onSettled: changed,
  });
};
export const useSaveTeacher = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: TeacherInput }) =>
      id === null
        ? api(routes.createTeacher, { query: { schoolId }, body: input })
        : api(routes.updateTeacher, { params: { id }, query: { schoolId }, body: input }),
    onSettled: changed,
  });
};
export const useSaveParent = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: ParentInput }) =>
      id === null
        ? api(routes.createParent, { query: { schoolId }, body: input })
        : api(routes.updateParent, { params: { id }, query: { schoolId }, body: input }),
    onSettled: changed,
  });
};
export const useSaveVehicle = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: VehicleInput }) =>
      id === null
        ? api(routes.createVehicle, { query: { schoolId }, body: input })
        : api(routes.updateVehicle, { params: { id }, query: { schoolId }, body: input }),
    onSettled: changed,
  });
};
export const useSaveClassroom = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: ClassroomInput }) =>
      id === null
        ? api(routes.createClassroom, { query: { schoolId }, body: input })
        : api(routes.updateClassroom, { params: { id }, query: { schoolId }, body: input }),
    onSettled: changed,
  });
};

const DEACTIVATE = {
  students: routes.deleteStudent,
  teachers: routes.deleteTeacher,
  parents: routes.deleteParent,
  vehicles: routes.deleteVehicle,
  classrooms: routes.deleteClassroom,
} as const;

/** Deactivates a record: it leaves the lists and the car line, and stays for history. */
export const useDeactivate = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: keyof typeof DEACTIVATE; id: number; label: string }) =>
      api(DEACTIVATE[kind] as typeof routes.deleteStudent, { params: { id }, query: { schoolId } }),
    onSuccess: (_, { label }) =>
      showReplacingToast('Deactivated', {
        color: 'green.9',
        title: 'Deactivated',
        message: `${label} has been deactivated`,
      }),
    onError: failed('Failed to deactivate'),
    onSettled: changed,
  });
};

/** A student's data as JSON (issue 55: a family's request to inspect it). */
export const useExportStudent = (schoolId: SchoolScope) =>
  useMutation({
    mutationFn: (id: number) => api(routes.exportStudent, { params: { id }, query: { schoolId } }),
    onError: failed('Failed to export'),
  });

/** Erases a student's personal data everywhere (issue 55); the lists are read again. */
export const useEraseStudent = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: ({ id, confirm }: { id: number; confirm: string }) =>
      api(routes.eraseStudent, { params: { id }, query: { schoolId }, body: { confirm } }),
    onSettled: changed,
  });
};

/** Sends a CSV file to the import; the answer (or the refusal with its rows) goes to the dialog. */
export const useImportRoster = (schoolId: SchoolScope) => {
  const changed = useRosterChanged();
  return useMutation({
    mutationFn: ({ kind, text }: { kind: RosterKind; text: string }) =>
      api(routes.importRoster, { params: { kind }, query: { schoolId }, body: text }),
    onSettled: changed,
  });
};
