import { routes } from '@curbside/api';
import type { CreateInvitesInput } from '@curbside/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** A student's parent invites (`['parent-invites', studentId]`). */
export const inviteQueries = {
  all: ['parent-invites'] as const,
  ofStudent: (studentId: number) =>
    queryOptions({
      queryKey: [...inviteQueries.all, studentId] as const,
      queryFn: () => api(routes.listParentInvites, { query: { studentId } }),
    }),
};

/** Makes invites for students, a classroom, a grade or the whole school. */
export const useCreateInvites = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selector: CreateInvitesInput) => api(routes.createParentInvites, { body: selector }),
    onSettled: () => client.invalidateQueries({ queryKey: inviteQueries.all }),
  });
};

export const useRevokeInvite = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(routes.revokeParentInvite, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: inviteQueries.all }),
  });
};

/** How often an emailing's progress is read while it sends. */
export const EMAIL_RUN_POLL_MS = 1000;

/** An emailing of invites (a mail run), read every second until it is done. */
export const emailRunQuery = (runId: string) =>
  queryOptions({
    queryKey: [...inviteQueries.all, 'email-run', runId] as const,
    queryFn: () => api(routes.getParentInviteEmailRun, { params: { id: runId } }),
    refetchInterval: (query) =>
      query.state.data?.done || query.state.status === 'error' ? false : EMAIL_RUN_POLL_MS,
  });

/**
 * Emails invites (issue 29, part B) for the same selector as the letters: the
 * answer names the mail run, whose messages are sent after it.
 */
export const useEmailInvites = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selector: CreateInvitesInput) => api(routes.emailParentInvites, { body: selector }),
    onSettled: () => client.invalidateQueries({ queryKey: inviteQueries.all }),
  });
};
