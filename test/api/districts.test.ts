import { fillPath, routeList } from '@curbside/api';
import { hasMinimumRole, isStaffRole } from '@curbside/domain';
import { districts, schools } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../support/fixtures';
import { eventually, type LiveClient, openLive } from '../support/live';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Districts and the super admin over HTTP and the live connection: creating
 * districts and schools, the sandbox and live switches (told to the school's
 * staff at once, writes refused while on), a district admin's staff (a
 * one-time password replaced at first sign-in; deactivation signs them out
 * everywhere), and a district admin of another district seeing nothing of
 * this one.
 */
const READ_ONLY = 'Read-only mode: this school is in sandbox mode. Changes are not allowed.';

let server: Awaited<ReturnType<typeof startTestServer>>;
let superAdmin: Client;
let districtAdmin: Client;
let admin: Client;
/** District 2 with one school and its own district admin (`other_district_admin`). */
let other: { districtId: number; schoolId: number; client: Client };
const sockets: LiveClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [superAdmin, districtAdmin, admin] = await Promise.all([
    signedIn(server.url, 'super_demo'),
    signedIn(server.url, 'district_demo'),
    signedIn(server.url, 'admin_demo'),
  ]);
  const district = await districts.create(server.db, {
    name: 'Other District',
    active: true,
    sandbox: false,
  });
  const school = await schools.create(server.db, {
    name: 'Other School',
    districtId: district.id,
    active: true,
    sandbox: false,
  });
  await createStaff(server.db, {
    username: 'other_district_admin',
    role: 'district_admin',
    schoolId: null,
    districtId: district.id,
  });
  await createStaff(server.db, {
    username: 'other_school_admin',
    role: 'school_admin',
    schoolId: school.id,
    districtId: district.id,
  });
  other = {
    districtId: district.id,
    schoolId: school.id,
    client: await signedIn(server.url, 'other_district_admin'),
  };
});

afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await server?.close();
});

const live = async (client: Client) => {
  const socket = await openLive(server.url, { headers: { cookie: client.cookie as string } });
  sockets.push(socket);
  return socket;
};

describe('districts and schools', () => {
  it('a super admin lists every district with its schools, a district admin only their own', async () => {
    const all = await superAdmin.get('/api/districts');
    expect(all.status).toBe(200);
    expect(all.body.map((district: { name: string }) => district.name)).toEqual(
      expect.arrayContaining(['Other District']),
    );
    const demo = all.body.find((district: { id: number }) => district.id === 1);
    expect(demo.schools.map((school: { name: string }) => school.name)).toContain('Lincoln Elementary');

    const own = await districtAdmin.get('/api/districts');
    expect(own.body.map((district: { id: number }) => district.id)).toEqual([1]);
    const theirs = await other.client.get('/api/districts');
    expect(theirs.body.map((district: { id: number }) => district.id)).toEqual([other.districtId]);
    expect(theirs.body[0].schools.map((school: { id: number }) => school.id)).toEqual([other.schoolId]);
  });

  it('a super admin creates a district (active and live by default) and a school in it', async () => {
    expect(await superAdmin.post('/api/districts', { name: ' ' })).toMatchObject({
      status: 400,
      body: { message: 'District name is required' },
    });
    const made = await superAdmin.post('/api/districts', { name: 'North District' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'North District', active: true, sandbox: false });

    expect(await superAdmin.post('/api/schools', { name: 'North Elementary' })).toMatchObject({
      status: 400,
      body: { message: 'District is required' },
    });
    expect(await superAdmin.post('/api/schools', { name: '', districtId: made.body.id })).toMatchObject({
      status: 400,
      body: { message: 'School name is required' },
    });
    const school = await superAdmin.post('/api/schools', {
      name: 'North Elementary',
      districtId: made.body.id,
    });
    expect(school.status).toBe(201);
    expect(school.body).toMatchObject({ districtId: made.body.id, active: true, sandbox: false });
    const listed = await superAdmin.get(`/api/districts/${made.body.id}/schools`);
    expect(listed.body.map((row: { name: string }) => row.name)).toEqual(['North Elementary']);
    expect((await superAdmin.post('/api/schools', { name: 'X', districtId: 999_999 })).status).toBe(404);
  });

  it('a district admin creates schools in their district only', async () => {
    const made = await districtAdmin.post('/api/schools', { name: 'Oak Elementary', districtId: 1 });
    expect(made.status).toBe(201);
    const elsewhere = await districtAdmin.post('/api/schools', {
      name: 'Sneaky',
      districtId: other.districtId,
    });
    expect(elsewhere).toMatchObject({ status: 404, body: { message: 'District not found' } });
    expect((await admin.post('/api/schools', { name: 'Mine', districtId: 1 })).status).toBe(403);
  });

  it('GET /api/schools answers the schools the caller may see', async () => {
    const own = await admin.get('/api/schools');
    expect(own.body.map((school: { id: number }) => school.id)).toEqual([1]);
    const district = await districtAdmin.get('/api/schools');
    expect(district.body.every((school: { districtId: number }) => school.districtId === 1)).toBe(true);
    expect(district.body.length).toBeGreaterThan(1);
    const all = await superAdmin.get('/api/schools');
    expect(all.body.map((school: { id: number }) => school.id)).toEqual(
      expect.arrayContaining([1, other.schoolId]),
    );
  });
});

describe('a district admin of another district', () => {
  it('sees nothing of district 1: not its district, schools, staff, report, nor any of its records', async () => {
    const client = other.client;
    for (const path of [
      '/api/districts/1',
      '/api/districts/1/schools',
      '/api/districts/1/users',
      '/api/districts/1/report',
      '/api/schools/1',
    ]) {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(404);
    }
    expect((await client.get('/api/schools')).body.map((school: { id: number }) => school.id)).toEqual([
      other.schoolId,
    ]);
    expect((await client.get('/api/students?schoolId=1')).status).toBe(404);
    const demoTeacher = (await admin.get('/api/users')).body.find(
      (user: { username: string }) => user.username === 'teacher_demo',
    );
    expect((await client.put(`/api/users/${demoTeacher.id}/active`, { active: false })).status).toBe(404);
    expect(
      (
        await client.post(`/api/districts/${other.districtId}/users`, {
          firstName: 'A',
          lastName: 'B',
          role: 'teacher',
          schoolId: 1,
        })
      ).status,
    ).toBe(404);
    expect((await client.request('PATCH', '/api/schools/1/sandbox', { sandbox: true })).status).toBe(404);
    // Nothing changed: the demo teacher still signs in, school 1 is still live.
    await signedIn(server.url, 'teacher_demo');
    expect((await superAdmin.get('/api/schools/1')).body.sandbox).toBe(false);
  });
});

describe('sandbox and live', () => {
  it('a school switched to sandbox refuses its staff’s writes, tells their screens at once, and back', async () => {
    const screen = await live(admin);
    const switched = await superAdmin.put('/api/schools/1/sandbox', { sandbox: true });
    expect(switched).toMatchObject({ status: 200, body: { id: 1, sandbox: true } });
    await eventually(async () =>
      screen.inbox.some(
        (message) =>
          (message as { type: string; data: { sandbox: boolean } }).type === 'SCHOOL_MODE_CHANGED' &&
          (message as { data: { sandbox: boolean } }).data.sandbox === true,
      ),
    );
    const refused = await admin.post('/api/classrooms', { name: 'Room 99', grade: '3' });
    expect(refused).toMatchObject({ status: 403, body: { message: READ_ONLY } });
    expect((await admin.get('/api/schools/1')).body.sandbox).toBe(true);
    // The district admin's switch stays writable, and puts the school back to live.
    const back = await districtAdmin.request('PATCH', '/api/schools/1/sandbox', { sandbox: false });
    expect(back).toMatchObject({ status: 200, body: { sandbox: false } });
    await eventually(async () =>
      screen.inbox.some(
        (message) =>
          (message as { type: string }).type === 'SCHOOL_MODE_CHANGED' &&
          (message as { data: { sandbox: boolean } }).data.sandbox === false,
      ),
    );
    const allowed = await admin.post('/api/classrooms', { name: 'Room 99', grade: '3' });
    expect(allowed.status).toBe(201);
  });

  it('a district in sandbox refuses every write route to its staff and district admin (walked from the route table)', async () => {
    const schoolAdmin = await signedIn(server.url, 'other_school_admin');
    const screen = await live(schoolAdmin);
    expect(
      (await superAdmin.put(`/api/districts/${other.districtId}/sandbox`, { sandbox: true })).status,
    ).toBe(200);
    await eventually(async () =>
      screen.inbox.some((message) => (message as { type: string }).type === 'SCHOOL_MODE_CHANGED'),
    );
    const writes = routeList.filter(
      (route) =>
        route.method !== 'GET' &&
        typeof route.access === 'object' &&
        !route.sandboxExempt &&
        route.access.minRole !== undefined,
    );
    expect(writes.length).toBeGreaterThan(30);
    for (const [name, client] of [
      ['other_school_admin', schoolAdmin],
      ['other_district_admin', other.client],
    ] as const) {
      const role = name === 'other_school_admin' ? 'school_admin' : 'district_admin';
      for (const route of writes) {
        const access = route.access as { minRole: string };
        const path = fillPath(route.path, { id: 999_999, code: 'AAAA', kind: 'students' });
        const answer = await client.request(route.method, path, {});
        const ranked = isStaffRole(role) && hasMinimumRole(role, access.minRole as never);
        expect(answer.status, `${name} ${route.method} ${route.path}`).toBe(403);
        if (ranked)
          expect(answer.body, `${name} ${route.method} ${route.path}`).toEqual({ message: READ_ONLY });
      }
    }
    // The mode switches stay writable; a super admin is never read-only.
    expect(
      (await other.client.request('PATCH', `/api/schools/${other.schoolId}/sandbox`, { sandbox: false }))
        .status,
    ).toBe(200);
    expect(
      (await superAdmin.post('/api/schools', { name: 'Super Made', districtId: other.districtId })).status,
    ).toBe(201);
    expect(
      (await superAdmin.put(`/api/districts/${other.districtId}/sandbox`, { sandbox: false })).status,
    ).toBe(200);
    expect(
      (await other.client.post('/api/schools', { name: 'Live Again', districtId: other.districtId })).status,
    ).toBe(201);
  });
});

describe('a district admin’s staff', () => {
  it('get a one-time password, set their own at first sign-in, and are signed out everywhere when deactivated', async () => {
    const refused = await districtAdmin.post('/api/districts/1/users', {
      firstName: 'Dana',
      lastName: 'Reyes',
      role: 'district_admin',
      schoolId: 1,
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'Choose a role at or below school admin' },
    });

    const made = await districtAdmin.post('/api/districts/1/users', {
      firstName: 'Dana',
      lastName: 'Reyes',
      email: 'dana.reyes@lincoln.example',
      role: 'back_queue_wrangler',
      schoolId: 1,
    });
    expect(made.status).toBe(201);
    const { user, credentials } = made.body;
    expect(user).toMatchObject({ role: 'back_queue_wrangler', schoolId: 1, districtId: 1, active: true });
    expect(credentials.password).toMatch(/^[A-Za-z0-9]{12}$/);
    const listed = await districtAdmin.get('/api/districts/1/users');
    expect(listed.body.map((row: { id: number }) => row.id)).toContain(user.id);
    expect(listed.body.some((row: { role: string }) => row.role === 'parent')).toBe(false);

    // First sign-in: asked to set their own password.
    const dana = new Client(server.url);
    const first = await dana.login(credentials.username, credentials.password);
    expect(first.mustChangePassword).toBe(true);
    expect((await dana.get('/api/me')).body.mustChangePassword).toBe(true);
    const wrong = await dana.post('/api/auth/password', {
      currentPassword: 'not-it-at-all',
      newPassword: 'a-good-password',
    });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Current password is incorrect' } });
    const short = await dana.post('/api/auth/password', {
      currentPassword: credentials.password,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    const tablet = new Client(server.url);
    await tablet.login(credentials.username, credentials.password);
    const set = await dana.post('/api/auth/password', {
      currentPassword: credentials.password,
      newPassword: 'a-good-password',
    });
    expect(set.status).toBe(200);
    expect(set.body.mustChangePassword).toBeUndefined();
    expect((await dana.get('/api/me')).body.mustChangePassword).toBeUndefined();
    // The change signed the other tablet out; the one-time password is spent.
    expect((await tablet.get('/api/me')).status).toBe(401);
    await expect(new Client(server.url).login(credentials.username, credentials.password)).rejects.toThrow(
      /401/,
    );

    // Deactivated: signed out at once (their live connection closes), cannot sign in; reactivated: can.
    const screen = await live(dana);
    const closed = new Promise((resolve) => screen.socket.once('close', resolve));
    const off = await districtAdmin.put(`/api/users/${user.id}/active`, { active: false });
    expect(off).toMatchObject({ status: 200, body: { active: false } });
    await closed;
    expect((await dana.get('/api/me')).status).toBe(401);
    await expect(new Client(server.url).login(credentials.username, 'a-good-password')).rejects.toThrow(
      /401/,
    );
    expect((await districtAdmin.put(`/api/users/${user.id}/active`, { active: true })).status).toBe(200);
    await new Client(server.url).login(credentials.username, 'a-good-password');
  });

  it('cannot be a district or super admin, nor the caller themself', async () => {
    const users = (await superAdmin.get('/api/districts/1/users')).body as Array<{
      id: number;
      username: string;
    }>;
    const idOf = (username: string) => users.find((user) => user.username === username)?.id;
    expect(
      (await districtAdmin.put(`/api/users/${idOf('district_demo')}/active`, { active: false })).status,
    ).toBe(404);
    const superId = (await superAdmin.get('/api/me')).body.id;
    expect((await districtAdmin.put(`/api/users/${superId}/active`, { active: false })).status).toBe(404);
    expect((await superAdmin.put(`/api/users/${superId}/active`, { active: false })).status).toBe(404);
  });
});

describe('the district report', () => {
  it('gives each school its last dismissal: vehicles and average wait', async () => {
    const report = await districtAdmin.get('/api/districts/1/report');
    expect(report.status).toBe(200);
    const lincoln = report.body.find((row: { schoolId: number }) => row.schoolId === 1);
    expect(lincoln).toMatchObject({ schoolName: 'Lincoln Elementary', timeZone: 'America/Chicago' });
    expect(typeof lincoln.vehicles).toBe('number');
    expect(report.body.every((row: { schoolId: number }) => row.schoolId !== other.schoolId)).toBe(true);
  });
});
