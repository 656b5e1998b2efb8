import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listCleverAssignments } from '../services/sis/districts';

/** `GET /api/clever/assignments`: every Clever district shared with the app, and the district it is assigned to. */
export const handler = httpHandler(routes.sisAssignments, async ({ user }) =>
  listCleverAssignments(requireUser(user)),
);
