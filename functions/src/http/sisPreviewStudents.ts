import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { previewSisStudents } from '../services/sis/districts';

/** `GET /api/clever/preview/students?cleverSchoolId=`: the first 10 students and how many there are. */
export const handler = httpHandler(routes.sisPreviewStudents, async ({ user, query }) =>
  previewSisStudents(requireUser(user), query.cleverSchoolId),
);
