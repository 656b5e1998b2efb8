import { routes } from '@curbside/api';
import type { DismissalChangeInput, DismissalChangeView, ProgramInput, WeeklyPlan } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { ROSTERS_KEY } from '../../lib/query-keys';

/** A school picked with `?schoolId=` (district and super admins), or the caller's own (undefined). */
export type SchoolScope = number | undefined;

/**
 * Every way home (issue 51): `['ways-home', …]`. The office's lists (the
 * day's plan, the day's changes, the queue of requests) follow the live
 * events (`ways-home.cache.ts`); a weekly plan and a student's record are
 * read when their dialog opens.
 */
export const waysHomeQueries = {
  all: ['ways-home'] as const,
  options: (schoolId: SchoolScope) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'options', schoolId ?? 'own'] as const,
      queryFn: () => api(routes.wayOptions, { query: { schoolId } }),
    }),
  programs: (schoolId: SchoolScope) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'programs', schoolId ?? 'own'] as const,
      queryFn: () => api(routes.listPrograms, { query: { schoolId } }),
    }),
  /** A day's plan of the school (the date: the school's today when null). */
  dayPlan: (schoolId: SchoolScope, date: string | null) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'day-plan', schoolId ?? 'own', date ?? 'today'] as const,
      queryFn: () => api(routes.dayPlan, { query: { schoolId, date: date ?? undefined } }),
    }),
  /** The changes that fall on a day. */
  dayChanges: (schoolId: SchoolScope, date: string) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'changes', schoolId ?? 'own', 'day', date] as const,
      queryFn: () => api(routes.listDismissalChanges, { query: { schoolId, date } }),
    }),
  /** The office's queue: every change waiting for a decision. */
  pending: (schoolId: SchoolScope) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'changes', schoolId ?? 'own', 'pending'] as const,
      queryFn: () => api(routes.listDismissalChanges, { query: { schoolId } }),
    }),
  studentPlan: (schoolId: SchoolScope, studentId: number) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'student-plan', schoolId ?? 'own', studentId] as const,
      queryFn: () => api(routes.getDismissalPlan, { params: { id: studentId }, query: { schoolId } }),
    }),
  /** Students matching a name, for the office's change (one page of the roster's search). */
  studentSearch: (schoolId: SchoolScope, search: string) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'student-search', schoolId ?? 'own', search.trim()] as const,
      queryFn: () =>
        api(routes.listStudents, { query: { schoolId, search: search.trim() || undefined, limit: 20 } }),
      placeholderData: keepPreviousData,
    }),
  history: (studentId: number) =>
    queryOptions({
      queryKey: [...waysHomeQueries.all, 'history', studentId] as const,
      queryFn: () => api(routes.studentWayHistory, { params: { id: studentId } }),
    }),
};

const failed = (title: string) => (error: unknown) =>
  notifications.show({ color: 'red', title, message: errorMessage(error) });

/** Saves a student's week; the roster's rows and the day's plan read it again. */
export const useSavePlan = (schoolId: SchoolScope) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, plan }: { studentId: number; plan: WeeklyPlan }) =>
      api(routes.putDismissalPlan, { params: { id: studentId }, query: { schoolId }, body: { plan } }),
    onSuccess: () => notifications.show({ color: 'green.9', title: 'Saved', message: 'Way home saved.' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ROSTERS_KEY });
      void client.invalidateQueries({ queryKey: waysHomeQueries.all });
    },
  });
};

export const useSaveProgram = (schoolId: SchoolScope) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: ProgramInput }) =>
      id === null
        ? api(routes.createProgram, { query: { schoolId }, body: input })
        : api(routes.updateProgram, { params: { id }, query: { schoolId }, body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: waysHomeQueries.all }),
  });
};

export const useRemoveProgram = (schoolId: SchoolScope) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(routes.deleteProgram, { params: { id }, query: { schoolId } }),
    onSuccess: ({ program, deleted }) =>
      notifications.show({
        color: 'green.9',
        message: deleted
          ? `${program.name} was deleted.`
          : `${program.name} is no longer offered. Students planned into it keep it until their plan changes.`,
      }),
    onError: failed('Could not remove the program'),
    onSettled: () => client.invalidateQueries({ queryKey: waysHomeQueries.all }),
  });
};

/** The office enters a change (a phone call): approved at once. */
export const useEnterChange = (schoolId: SchoolScope) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DismissalChangeInput) =>
      api(routes.createDismissalChange, { query: { schoolId }, body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: waysHomeQueries.all }),
  });
};

export type Decision = { change: DismissalChangeView; decision: 'approve' | 'deny'; reason?: string };

/** Approve or deny a family's request. */
export const useDecide = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ change, decision, reason }: Decision) =>
      decision === 'approve'
        ? api(routes.approveDismissalChange, { params: { id: change.id } })
        : api(routes.denyDismissalChange, { params: { id: change.id }, body: { reason: reason ?? '' } }),
    onError: failed('Could not save the decision'),
    onSettled: () => client.invalidateQueries({ queryKey: waysHomeQueries.all }),
  });
};

export const useCancelChange = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: DismissalChangeView) =>
      api(routes.cancelDismissalChange, { params: { id: change.id } }),
    onError: failed('Could not cancel the change'),
    onSettled: () => client.invalidateQueries({ queryKey: waysHomeQueries.all }),
  });
};
