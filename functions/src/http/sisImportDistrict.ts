import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { startDistrictImport } from '../services/sis/districts';

/** `POST /api/clever/import/district`: starts the district's import (202, with the job). */
export const handler = httpHandler(
  routes.sisImportDistrict,
  async ({ user, body }) =>
    new Reply(await startDistrictImport(requireUser(user), body.cleverDistrictId), { status: 202 }),
);
