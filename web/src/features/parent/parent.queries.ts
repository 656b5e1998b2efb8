import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The parent status poll (specification §9: every 30 s). */
export const PARENT_STATUS_POLL_MS = 30_000;

/**
 * `QUEUE_UPDATE` (the line moved) reaches every waiting family at once; each
 * phone reads its status within this many ms of it, at a moment of its own,
 * so the school's parents do not all ask in the same instant. A change of
 * the child's own status (`STUDENT_STATUS_UPDATE`) is read at once.
 */
export const QUEUE_UPDATE_SPREAD_MS = 5_000;

/** A phone's moment within the spread. */
export const spreadDelay = (random = Math.random()) => Math.floor(random * QUEUE_UPDATE_SPREAD_MS);

export const parentQueries = {
  all: ['parent'] as const,
  students: () =>
    queryOptions({
      queryKey: [...parentQueries.all, 'students'] as const,
      queryFn: () => api(routes.parentStudents),
    }),
  status: () =>
    queryOptions({
      queryKey: [...parentQueries.all, 'status'] as const,
      queryFn: () => api(routes.parentStudentStatus),
      refetchInterval: PARENT_STATUS_POLL_MS,
    }),
  invite: (code: string) =>
    queryOptions({
      queryKey: [...parentQueries.all, 'invite', code] as const,
      queryFn: () => api(routes.lookupPickupCode, { params: { code } }),
    }),
  /** What a school's invite link (`/parent/invite?t=`) is for. */
  inviteLink: (token: string) =>
    queryOptions({
      queryKey: [...parentQueries.all, 'invite-link', token] as const,
      queryFn: () => api(routes.lookupParentInvite, { query: { t: token } }),
      retry: false,
    }),
  /** Each child's way home today and what their school offers (issue 51). */
  waysHome: () =>
    queryOptions({
      queryKey: [...parentQueries.all, 'ways-home'] as const,
      queryFn: () => api(routes.parentWaysHome),
    }),
  /** The family's changes from a day on (their requests and their status). */
  changesAll: () => [...parentQueries.all, 'changes'] as const,
  changes: (from: string) =>
    queryOptions({
      queryKey: [...parentQueries.changesAll(), from] as const,
      queryFn: () => api(routes.listDismissalChanges, { query: { from } }),
    }),
  /** The adults allowed to collect the parent's children. */
  authorizedPickups: () =>
    queryOptions({
      queryKey: [...parentQueries.all, 'authorized-pickups'] as const,
      queryFn: () => api(routes.parentAuthorizedPickups),
    }),
};
