import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listInvites } from '../services/parent-invites';

/** `GET /api/parent-invites?studentId=`: a student's invites and where each stands. */
export const handler = httpHandler(routes.listParentInvites, async ({ user, query }) =>
  listInvites(requireUser(user), query.studentId),
);
