import {
  type AuthorizedPickup,
  acceptInviteSchema,
  authorizedPickupSchema,
  createInvitesSchema,
  type EmailRunProgress,
  type EmailRunStarted,
  type InviteView,
  inviteTokenSchema,
  type LinkResult,
  type NewInviteView,
  type StudentAuthorizedPickups,
  type User,
} from '@curbside/domain';
import * as z from 'zod';
import { areaRoutes, returns, route } from '../route';
import { id, idParams, mailRunParams, ok } from './shared';

/** Parent invites as the school's staff make, list and revoke them (issue 29). */
export const inviteAdminRoutes = areaRoutes('admin', {
  createParentInvites: route({
    method: 'POST',
    path: '/api/parent-invites',
    request: { body: createInvitesSchema },
    // An invite changes how the student's parents may link, as a pickup code does: an update of the student.
    access: { minRole: 'teacher', data: 'update' },
    response: returns<{ invites: NewInviteView[] }>(),
  }),
  emailParentInvites: route({
    method: 'POST',
    path: '/api/parent-invites/email',
    request: { body: createInvitesSchema },
    // The same invites as above, for the guardians with an email address; their messages are sent after the answer.
    access: { minRole: 'teacher', data: 'update' },
    response: returns<EmailRunStarted>(),
  }),
  getParentInviteEmailRun: route({
    method: 'GET',
    path: '/api/parent-invites/email/{id}',
    request: { params: mailRunParams },
    // Who may email invites follows their sending (a teacher: the runs they started).
    access: { minRole: 'teacher' },
    response: returns<EmailRunProgress>(),
  }),
  listParentInvites: route({
    method: 'GET',
    path: '/api/parent-invites',
    request: { query: z.object({ studentId: id }) },
    access: { minRole: 'teacher' },
    response: returns<InviteView[]>(),
  }),
  revokeParentInvite: route({
    method: 'DELETE',
    path: '/api/parent-invites/{id}',
    request: { params: idParams },
    access: { minRole: 'teacher', data: 'update' },
    response: returns<InviteView>(),
  }),
});

/** What an invite link shows before sign-in, and accepting it (which may create the parent's account). */
export const inviteAuthRoutes = areaRoutes('auth', {
  lookupParentInvite: route({
    method: 'GET',
    path: '/api/parent-invites/lookup',
    request: { query: z.object({ t: inviteTokenSchema }) },
    access: 'public',
    response: returns<{
      schoolName: string | null;
      student: { firstName: string; lastInitial: string } | null;
    }>(),
  }),
  acceptParentInvite: route({
    method: 'POST',
    path: '/api/parent-invites/accept',
    request: { body: acceptInviteSchema },
    access: 'public',
    response: returns<LinkResult & { user: User }>(),
  }),
});

/** The adults a family allows to collect their children. */
export const authorizedPickupParentRoutes = areaRoutes('parent', {
  parentAuthorizedPickups: route({
    method: 'GET',
    path: '/api/parent/authorized-pickups',
    request: {},
    access: 'parent',
    response: returns<AuthorizedPickup[]>(),
  }),
  addAuthorizedPickup: route({
    method: 'POST',
    path: '/api/parent/authorized-pickups',
    request: { body: authorizedPickupSchema },
    access: 'parent',
    response: returns<AuthorizedPickup>(),
  }),
  deleteAuthorizedPickup: route({
    method: 'DELETE',
    path: '/api/parent/authorized-pickups/{id}',
    request: { params: idParams },
    access: 'parent',
    response: ok,
  }),
});

/** At most this many students in one read of their authorized adults (a client asks in parts of this size). */
export const AUTHORIZED_PICKUPS_READ_MAX = 100;

/** `studentIds=3,7`: the students whose authorized adults are read together. */
const studentIdList = z
  .string({ message: 'Student ids must be numbers separated by commas' })
  .max(AUTHORIZED_PICKUPS_READ_MAX * 11, 'Too many students')
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Student ids must be numbers separated by commas')
  .transform((value) => [...new Set(value.split(',').map(Number))])
  .refine((ids) => ids.length <= AUTHORIZED_PICKUPS_READ_MAX, 'Too many students');

/** One student's list in a read of several: the student's id with the list. */
export type StudentsAuthorizedPickup = StudentAuthorizedPickups & { studentId: number };

/** A student's authorized adults, for every staff screen of the school. */
export const authorizedPickupStaffRoutes = areaRoutes('teacher', {
  studentAuthorizedPickups: route({
    method: 'GET',
    path: '/api/students/{id}/authorized-pickups',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<StudentAuthorizedPickups>(),
  }),
  /**
   * Several students' authorized adults in one read (issue 57, h57r): a staff screen's list (the
   * queue's children) asks once, not once per child. A student not of the caller's school, or no
   * longer active, is left out of the answer (its own route answers 404 or its list).
   */
  studentsAuthorizedPickups: route({
    method: 'GET',
    path: '/api/authorized-pickups',
    request: { query: z.object({ studentIds: studentIdList }) },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ lists: StudentsAuthorizedPickup[] }>(),
  }),
});
