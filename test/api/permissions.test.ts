import { type Access, fillPath, routeList } from '@curbside/api';
import { hasMinimumRole, isStaffRole } from '@curbside/domain';
import { DEMO_ACCOUNTS } from '@curbside/local/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Every route of the route table × every role (and signed out) gets the
 * answer its "who may call it" says. Requests carry an empty body and a
 * missing id, so an allowed call stops at validation or lookup and changes
 * nothing.
 */
const DENIED = "You don't have permission to do this.";

const expected = (access: Access, role: string | null): 'allowed' | 401 | 403 => {
  if (access === 'public') return 'allowed';
  if (role === null) return 401;
  if (access === 'signedIn') return 'allowed';
  if (access === 'parent') return role === 'parent' ? 'allowed' : 403;
  return isStaffRole(role) && hasMinimumRole(role, access.minRole) ? 'allowed' : 403;
};

// Sign-out routes end the caller's session: run them last.
const ordered = [...routeList].sort(
  (a, b) => Number(/logout/i.test(a.name)) - Number(/logout/i.test(b.name)),
);
const callers = [null, ...DEMO_ACCOUNTS.map((account) => account.username)];
const roleOf = (username: string | null) => DEMO_ACCOUNTS.find((a) => a.username === username)?.role ?? null;

let server: Awaited<ReturnType<typeof startTestServer>>;
const clients = new Map<string | null, Client>();
beforeAll(async () => {
  server = await startTestServer();
  for (const username of callers) {
    clients.set(username, username === null ? new Client(server.url) : await signedIn(server.url, username));
  }
});
afterAll(async () => {
  await server?.close();
});

describe.each(callers)('as %s', (username) => {
  it.each(ordered.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      const client = clients.get(username) as Client;
      const path = fillPath(route.path, { id: 999999, code: 'AAAA' });
      const answer = await client.request(route.method, path, route.method === 'GET' ? undefined : {});
      const want = expected(route.access, roleOf(username));
      if (want === 'allowed') {
        expect(answer.status).not.toBe(401);
        expect(answer.body?.message).not.toBe(DENIED);
        // Never a server error; single sign-on answers 503 until an identity provider is configured.
        const unavailable = answer.status === 503 && route.name === 'ssoLogin';
        if (!unavailable) expect(answer.status).toBeLessThan(500);
      } else if (want === 401) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ message: 'Not signed in' });
      } else {
        expect(answer.status).toBe(403);
        expect(answer.body.message).toMatch(/permission|Only parents/);
      }
    },
  );
});
