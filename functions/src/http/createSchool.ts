import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createSchool } from '../services/districts';

/** `POST /api/schools`: a new school (a district admin in their district, a super admin anywhere; 201). */
export const handler = httpHandler(
  routes.createSchool,
  async ({ user, body }) => new Reply(await createSchool(requireUser(user), body), { status: 201 }),
);
