import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { startStudentsImport } from '../services/sis/districts';

/** `POST /api/clever/import/students`: starts the school's roster import (202, with the job). */
export const handler = httpHandler(
  routes.sisImportStudents,
  async ({ user, body }) => new Reply(await startStudentsImport(requireUser(user), body), { status: 202 }),
);
