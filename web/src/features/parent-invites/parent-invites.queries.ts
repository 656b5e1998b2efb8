import { routes } from '@curbside/api';
import type { CreateInvitesInput } from '@curbside/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { request } from '../../lib/http';
import { idempotencyKey, sendOnce } from '../../lib/idempotency';

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

/** What the mail route answers: invites sent, and guardians skipped (no email address). */
export interface EmailInvitesAnswer {
  sent: number;
  skipped: number;
}

/** The route that emails invites (issue 29, part B), sent the same selector as the letters. */
export const EMAIL_INVITES_PATH = '/api/parent-invites/email';

export const useEmailInvites = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selector: CreateInvitesInput) =>
      sendOnce(idempotencyKey(), (headers) =>
        request<EmailInvitesAnswer>('POST', EMAIL_INVITES_PATH, selector, 'application/json', headers),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: inviteQueries.all }),
  });
};
