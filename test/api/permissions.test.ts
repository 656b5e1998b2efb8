import { fillPath, routeList } from '@curbside/api';
import { canPerform, hasMinimumRole, isStaffRole } from '@curbside/domain';
import { DEMO_ACCOUNTS } from '@curbside/local/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Every route of the route table × every role (and signed out, and the staff
 * of a sandboxed school) gets the answer its "who may call it", the
 * data-permission matrix and the sandbox rule say. Requests carry an empty body and a
 * missing id, so an allowed call stops at validation or lookup and changes
 * nothing.
 */
const DENIED = "You don't have permission to do this.";

const READ_ONLY = 'Read-only mode: this school is in sandbox mode. Changes are not allowed.';

/** What the route table, the data-permission matrix and the sandbox rule say a caller gets. */
const expected = (
  route: (typeof routeList)[number],
  role: string | null,
  sandboxed = false,
): 'allowed' | 401 | 403 | 'read-only' => {
  const { access } = route;
  if (access === 'public') return 'allowed';
  if (role === null) return 401;
  if (access === 'signedIn') return 'allowed';
  if (access === 'parent') return role === 'parent' ? 'allowed' : 403;
  if (!isStaffRole(role) || !hasMinimumRole(role, access.minRole)) return 403;
  if (access.data && !canPerform(role, access.data)) return 403;
  const mutation = route.method !== 'GET';
  if (sandboxed && mutation && !route.sandboxExempt && role !== 'super_admin') return 'read-only';
  return 'allowed';
};

// Sign-out routes end the caller's session: run them last.
const ordered = [...routeList].sort(
  (a, b) => Number(/logout/i.test(a.name)) - Number(/logout/i.test(b.name)),
);
/** The demo accounts, signed out, and staff of a sandboxed school (`sandbox_…`). */
const SANDBOX_STAFF = ['front_queue_wrangler', 'teacher', 'school_admin'] as const;
const callers = [
  null,
  ...DEMO_ACCOUNTS.map((account) => account.username),
  ...SANDBOX_STAFF.map((role) => `sandbox_${role}`),
];
const roleOf = (username: string | null) =>
  DEMO_ACCOUNTS.find((a) => a.username === username)?.role ??
  SANDBOX_STAFF.find((role) => username === `sandbox_${role}`) ??
  null;

let server: Awaited<ReturnType<typeof startTestServer>>;
const clients = new Map<string | null, Client>();
beforeAll(async () => {
  server = await startTestServer();
  await createSchoolWithStaff(server.db, 'sandbox', true);
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
      const want = expected(route, roleOf(username), username?.startsWith('sandbox_'));
      if (want === 'read-only') {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: READ_ONLY });
      } else if (want === 'allowed') {
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
