import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { resumeImportJob } from '../services/sis/districts';

/** `POST /api/import-jobs/{id}/resume`: a failed import goes on from where it stopped (202). */
export const handler = httpHandler(
  routes.resumeImportJob,
  async ({ user, params }) => new Reply(await resumeImportJob(requireUser(user), params.id), { status: 202 }),
);
