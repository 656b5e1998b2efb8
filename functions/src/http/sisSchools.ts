import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listSisSchools } from '../services/sis/districts';

/** `GET /api/clever/schools?districtId=`: a Clever district's schools. */
export const handler = httpHandler(routes.sisSchools, async ({ user, query }) =>
  listSisSchools(requireUser(user), query.districtId),
);
