import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { startSchoolImport } from '../services/sis/districts';

/** `POST /api/clever/import/school`: starts the school's import into a local district (202, with the job). */
export const handler = httpHandler(
  routes.sisImportSchool,
  async ({ user, body }) =>
    new Reply(await startSchoolImport(requireUser(user), body.cleverSchoolId, body.localDistrictId), {
      status: 202,
    }),
);
