import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { createDistrict } from '../services/districts';

/** `POST /api/districts`: a new district (super admin; 201). */
export const handler = httpHandler(
  routes.createDistrict,
  async ({ body }) => new Reply(await createDistrict(body), { status: 201 }),
);
