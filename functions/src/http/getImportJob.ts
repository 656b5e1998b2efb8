import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { getImportJob } from '../services/sis/districts';

/** `GET /api/import-jobs/{id}`: how far an import is. */
export const handler = httpHandler(routes.getImportJob, async ({ user, params }) =>
  getImportJob(requireUser(user), params.id),
);
