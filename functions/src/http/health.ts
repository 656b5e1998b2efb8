import { routes } from '@curbside/api';
import { ping } from '@curbside/store';
import { config } from '../lib/config';
import { db } from '../lib/context';
import { httpHandler } from '../lib/http';

/** `GET /api/health`: ok after a real round trip to the table; `demo` where the demo seed runs. */
export const handler = httpHandler(routes.health, async () => {
  await ping(db);
  return { ok: true as const, demo: config.demo };
});
