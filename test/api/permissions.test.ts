import { fillPath, type RouteName, routeList } from '@curbside/api';
import { MUST_CHANGE_PASSWORD } from '@curbside/domain';
import { classrooms, students, users } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, createStaff, demoStudentsOf } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';
import {
  CALLERS,
  type Caller,
  DATA_MATRIX,
  expectedAccess,
  expectedBeforeOwnPassword,
  RECORD_CHANGES,
} from './expected-access';

/**
 * Every route of the route table × every caller (signed out, each demo
 * account, and staff of a sandboxed school) gets the answer of the
 * hand-written table in `expected-access.ts`. Requests carry an empty body
 * and a missing id, so an allowed call stops at validation or lookup and
 * changes nothing.
 */
const DENIED = "You don't have permission to do this.";
const READ_ONLY = 'Read-only mode: this school is in sandbox mode. Changes are not allowed.';

// Sign-out routes end the caller's session: run them last.
const ordered = [...routeList].sort(
  (a, b) => Number(/logout/i.test(a.name)) - Number(/logout/i.test(b.name)),
);

let server: Awaited<ReturnType<typeof startTestServer>>;
let sandboxSchoolId: number;
const clients = new Map<Caller, Client>();
beforeAll(async () => {
  server = await startTestServer();
  sandboxSchoolId = (await createSchoolWithStaff(server.db, 'sandbox', true)).id;
  for (const caller of CALLERS) {
    clients.set(caller, caller === null ? new Client(server.url) : await signedIn(server.url, caller));
  }
});
afterAll(async () => {
  await server?.close();
});

/**
 * The `own` cells: each caller that has one gets its route for a student of
 * a classroom they teach (let through) and for a student of a classroom they
 * do not (403 with the route's message, nothing about permissions in general).
 * Before the walk below, whose sign-out routes end the callers' sessions.
 */
describe('routes of a student, for staff bound to their own classrooms', () => {
  const studentsFor = new Map<Caller, { own: number; other: number }>();
  beforeAll(async () => {
    const [mine] = await demoStudentsOf(server.db, 'Room 12');
    const [theirs] = await demoStudentsOf(server.db, 'Room 7');
    studentsFor.set('teacher_demo', { own: mine?.id as number, other: theirs?.id as number });
    // The sandboxed school: a classroom of its teacher and one of nobody, a student in each.
    const teacher = await users.findCredentials(server.db, 'sandbox_teacher');
    const [ownRoom, otherRoom] = await Promise.all(
      [teacher?.user.id ?? null, null].map((teacherId, i) =>
        classrooms.create(server.db, {
          schoolId: sandboxSchoolId,
          name: `Sandbox ${i}`,
          grade: '1',
          teacherId,
        }),
      ),
    );
    const [ownKid, otherKid] = await Promise.all(
      [ownRoom, otherRoom].map((room) =>
        students.create(server.db, {
          schoolId: sandboxSchoolId,
          firstName: 'Sandy',
          lastName: `Kid ${room?.id}`,
          grade: '1',
          classroomId: room?.id ?? null,
        }),
      ),
    );
    studentsFor.set('sandbox_teacher', { own: ownKid?.id as number, other: otherKid?.id as number });
  });

  const cells = CALLERS.flatMap((caller) =>
    routeList
      .filter((route) => expectedAccess(route.name as RouteName, caller) === 'own')
      .map((route) => [`${caller}: ${route.method} ${route.path}`, caller, route] as const),
  );
  it('covers every `own` cell of the table', () => {
    expect(cells.map(([, caller]) => caller)).toEqual(expect.arrayContaining(['teacher_demo']));
  });
  it.each(cells)('%s', async (_, caller, route) => {
    const client = clients.get(caller) as Client;
    const ids = studentsFor.get(caller);
    if (!ids) throw new Error(`No students set up for ${caller}`);
    const call = (id: number) =>
      client.request(
        route.method,
        fillPath(route.path, { id }),
        route.method === 'GET' ? undefined : { studentId: id },
      );
    const [own, other] = [await call(ids.own), await call(ids.other)];
    // Let through: answered as for an allowed caller (a code, or "already has an active code"), never refused.
    expect([401, 403], JSON.stringify(own.body)).not.toContain(own.status);
    expect(own.status).toBeLessThan(500);
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(/own classrooms only/);
  });
});

describe.each(CALLERS)('as %s', (caller) => {
  it.each(ordered.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      const client = clients.get(caller) as Client;
      const path = fillPath(route.path, { id: 999999, code: 'AAAA', kind: 'students' });
      const answer = await client.request(route.method, path, route.method === 'GET' ? undefined : {});
      const want = expectedAccess(route.name as RouteName, caller);
      if (want === 'RO') {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: READ_ONLY });
      } else if (want === 'ok' || want === 'own') {
        // `own` with a student nobody has: the lookup answers (the classroom rule is walked below).
        expect(answer.status).not.toBe(401);
        expect(answer.body?.message).not.toBe(DENIED);
        expect(answer.body?.message).not.toBe(READ_ONLY);
        // Never a server error (single sign-on, not configured here, sends the browser back to the login screen).
        expect(answer.status).toBeLessThan(500);
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

/** The role of each caller of the table (the demo accounts' roles, DESIGN.md). */
const ROLE_OF: Readonly<Record<Exclude<Caller, null>, string>> = {
  parent_demo: 'parent',
  front_demo: 'front_queue_wrangler',
  back_demo: 'back_queue_wrangler',
  teacher_demo: 'teacher',
  admin_demo: 'school_admin',
  district_demo: 'district_admin',
  super_demo: 'super_admin',
  sandbox_front_queue_wrangler: 'front_queue_wrangler',
  sandbox_teacher: 'teacher',
  sandbox_school_admin: 'school_admin',
};

describe('the data-permission matrix', () => {
  it.each(routeList.map((route) => [route.name, route] as const))(
    '%s declares the record change it makes (or none), as the hand-written list says',
    (name, route) => {
      const declared = typeof route.access === 'object' ? route.access.data : undefined;
      expect(declared).toBe(RECORD_CHANGES[name as RouteName]);
    },
  );

  it.each(Object.entries(RECORD_CHANGES))(
    '%s (%s) is refused to every role the matrix does not allow, and in every sandboxed school',
    (name, action) => {
      for (const caller of CALLERS) {
        const want = expectedAccess(name as RouteName, caller);
        if (caller === null) {
          expect(want, 'signed out').toBe(401);
          continue;
        }
        if (!DATA_MATRIX[ROLE_OF[caller]]?.includes(action as string)) expect(want, caller).toBe(403);
        if (caller.startsWith('sandbox_')) expect(want, caller).not.toBe('ok');
      }
    },
  );
});

describe.each([
  ['school_admin', 1, 1],
  ['parent', null, null],
] as const)('as a %s signed in with a one-time password not yet replaced', (role, schoolId, districtId) => {
  let client: Client;
  beforeAll(async () => {
    const username = `one_time_${role}`;
    await createStaff(server.db, { username, role, schoolId, districtId, mustChangePassword: true });
    client = new Client(server.url);
    const path = role === 'parent' ? '/api/auth/parent/login' : '/api/login';
    expect((await client.post(path, { username, password: 'demo1234' })).status).toBe(200);
  });

  it.each(ordered.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_, route) => {
      const path = fillPath(route.path, { id: 999999, code: 'AAAA', kind: 'students' });
      const answer = await client.request(route.method, path, route.method === 'GET' ? undefined : {});
      if (expectedBeforeOwnPassword(route.name as RouteName) === 'ok') {
        expect(answer.status).not.toBe(401);
        expect(answer.body?.message).not.toBe(MUST_CHANGE_PASSWORD);
        expect(answer.status).toBeLessThan(500);
      } else {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: MUST_CHANGE_PASSWORD });
      }
    },
  );
});
