import { describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { admin, allOf, del, front, rostersServer, server, teacher } from '../support/rosters';
import { Client } from '../support/server';

/**
 * The school's rosters over HTTP: students, vehicles and teachers are listed (paged,
 * searchable), added, changed and deactivated; changes reach the car line at once (parents,
 * classrooms, tenancy and the summary: rosters-access.test.ts).
 */
rostersServer();

describe('students', () => {
  it('lists the school’s students a page at a time, each with classroom and rides', async () => {
    const first = await admin.get('/api/students?limit=25');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(25);
    expect(first.body.next).toEqual(expect.any(String));
    const second = (await admin.get(`/api/students?limit=25&cursor=${first.body.next}`)).body;
    const third = (await admin.get(`/api/students?limit=25&cursor=${second.next}`)).body;
    expect(third.items).toHaveLength(10);
    expect(third.next).toBeNull();
    const ids = [...first.body.items, ...second.items, ...third.items].map((s: any) => s.id);
    expect(new Set(ids).size).toBe(60);
    const ava = first.body.items.find((s: any) => s.firstName === 'Ava' && s.lastName === 'Martinez');
    expect(ava).toMatchObject({
      grade: '2',
      classroom: { name: 'Room 12' },
      vehicles: [{ type: 'car', number: '101' }],
      active: true,
    });
  });

  it('finds students by part of their name, whatever the case', async () => {
    const found = (await admin.get('/api/students?search=MARTINEZ')).body.items;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((s: any) => s.lastName === 'Martinez')).toBe(true);
    expect((await admin.get('/api/students?search=zzz-nobody')).body).toEqual({ items: [], next: null });
  });

  it('adds a student with a classroom and a car; the car line knows the child at once', async () => {
    const rooms = (await admin.get('/api/classrooms')).body;
    const room4 = rooms.find((r: any) => r.name === 'Room 4');
    const created = await admin.post('/api/students', {
      firstName: 'Nora',
      lastName: 'Quinn',
      grade: 'K',
      classroomId: room4.id,
      parentName: 'Pat Quinn',
      parentPhone: '(555) 222-3333',
      vehicles: [{ type: 'car', number: '124' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      firstName: 'Nora',
      classroom: { id: room4.id, name: 'Room 4' },
      vehicles: [{ type: 'car', number: '124' }],
    });
    const session = (await front.post('/api/sessions', sessionBody())).body;
    const entry = (
      await front.post('/api/queue', { sessionId: session.id, vehicleNumber: '124', vehicleType: 'car' })
    ).body;
    expect(entry.students.map((s: any) => s.firstName)).toContain('Nora');
    await admin.put(`/api/sessions/${session.id}/end`);
  });

  it('answers the form’s messages for bad input, and 404 for a student of nowhere', async () => {
    const bad = await admin.post('/api/students', { firstName: ' ', lastName: 'X'.repeat(51), grade: '2' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'firstName', message: 'First name is required' },
        { path: 'lastName', message: 'Last name is too long (at most 50 characters)' },
      ]),
    );
    const noBus = await admin.post('/api/students', {
      firstName: 'A',
      lastName: 'B',
      grade: '1',
      vehicles: [{ type: 'bus', number: '999' }],
    });
    expect(noBus.status).toBe(400);
    expect(noBus.body.message).toBe('No Bus B999 is registered');
    expect(
      (await admin.put('/api/students/999999', { firstName: 'A', lastName: 'B', grade: '1' })).status,
    ).toBe(404);
  });

  it('lets a teacher change a student but not add or remove one', async () => {
    const [student] = (await admin.get('/api/students?search=quinn')).body.items;
    const changed = await teacher.put(`/api/students/${student.id}`, {
      firstName: 'Nora',
      lastName: 'Quinn',
      grade: 'K',
      classroomId: student.classroom.id,
      notes: 'Allergic to peanuts',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ notes: 'Allergic to peanuts', vehicles: [{ number: '124' }] });
    expect((await teacher.post('/api/students', { firstName: 'A', lastName: 'B', grade: '1' })).status).toBe(
      403,
    );
    expect((await del(teacher, `/api/students/${student.id}`)).status).toBe(403);
  });

  it('deactivates a student: gone from the lists and the car line, kept for history', async () => {
    const [student] = (await admin.get('/api/students?search=quinn')).body.items;
    const gone = await del(admin, `/api/students/${student.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.active).toBe(false);
    expect((await admin.get('/api/students?search=quinn')).body.items).toEqual([]);
    const session = (await front.post('/api/sessions', sessionBody())).body;
    const entry = (
      await front.post('/api/queue', { sessionId: session.id, vehicleNumber: '124', vehicleType: 'car' })
    ).body;
    expect(entry.students.map((s: any) => s.firstName)).not.toContain('Nora');
    await admin.put(`/api/sessions/${session.id}/end`);
    expect((await del(admin, `/api/students/${student.id}`)).status).toBe(404);
  });
});

describe('vehicles', () => {
  it('registers a car that the front queue then knows, with its make, model and children', async () => {
    const kids = (await admin.get('/api/students?search=ava')).body.items.slice(0, 2);
    const created = await admin.post('/api/vehicles', {
      number: '555',
      type: 'car',
      make: 'Volvo',
      model: 'XC90',
      color: 'Grey',
      parentName: 'Robin Ava',
      studentIds: kids.map((k: any) => k.id),
    });
    expect(created.status).toBe(201);
    expect(created.body.students.map((s: any) => s.id).sort()).toEqual(kids.map((k: any) => k.id).sort());
    const session = (await front.post('/api/sessions', sessionBody())).body;
    const add = () =>
      front.post('/api/queue', { sessionId: session.id, vehicleNumber: '555', vehicleType: 'car' });
    const first = (await add()).body;
    expect(first.vehicle).toMatchObject({ make: 'Volvo', model: 'XC90' });
    expect(first.students).toHaveLength(2);

    // Edited while queued: the next time it is queued it carries the change.
    const edited = await admin.put(`/api/vehicles/${created.body.id}`, {
      number: '555',
      type: 'car',
      make: 'Kia',
      model: 'Telluride',
      studentIds: [kids[0].id],
    });
    expect(edited.status).toBe(200);
    await front.request('DELETE', `/api/queue/${first.id}`);
    const again = (await add()).body;
    expect(again.vehicle).toMatchObject({ make: 'Kia', model: 'Telluride' });
    expect(again.students.map((s: any) => s.id)).toEqual([kids[0].id]);
    await front.request('DELETE', `/api/queue/${again.id}`);

    // Deactivated: the number is an unregistered one again.
    expect((await del(admin, `/api/vehicles/${created.body.id}`)).body.active).toBe(false);
    const unknown = (await add()).body;
    expect(unknown).toMatchObject({ vehicle: null, students: [] });
    await admin.put(`/api/sessions/${session.id}/end`);
    // …and may be registered anew.
    expect((await admin.post('/api/vehicles', { number: '555', type: 'car' })).status).toBe(201);
  });

  it('refuses a second active vehicle with the same number, and renumbers one', async () => {
    const taken = await admin.post('/api/vehicles', { number: '101', type: 'car' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Car 101 is already registered');
    const bus = (await admin.post('/api/vehicles', { number: '9', type: 'bus', parentName: 'Route I' })).body;
    const moved = await admin.put(`/api/vehicles/${bus.id}`, {
      number: '10',
      type: 'bus',
      parentName: 'Route J',
    });
    expect(moved.body).toMatchObject({ id: bus.id, number: '10' });
    const clash = await admin.put(`/api/vehicles/${bus.id}`, { number: '1', type: 'bus' });
    expect(clash.status).toBe(409);
    expect((await admin.get('/api/vehicles?type=bus&number=10')).body.items).toEqual([
      expect.objectContaining({ id: bus.id, parentName: 'Route J' }),
    ]);
    expect((await admin.get('/api/vehicles?type=bus&number=9')).body.items).toEqual([]);
  });

  it('lists every active vehicle over its pages', async () => {
    const all = await allOf(admin, '/api/vehicles');
    expect(all.filter((v) => v.type === 'bus').map((v) => v.number)).toEqual(
      expect.arrayContaining(['1', '5', '10']),
    );
    expect(all.filter((v) => v.type === 'car').length).toBeGreaterThanOrEqual(24);
  });
});

describe('teachers', () => {
  let teacherId: number;
  let credentials: { username: string; password: string };

  it('adds a teacher with a username and a one-time password that signs in to choose their own', async () => {
    const room = (await admin.post('/api/classrooms', { name: 'Room 30', grade: '5' })).body;
    const created = await admin.post('/api/teachers', {
      firstName: 'Iris',
      lastName: 'Novak',
      email: 'iris.novak@lincoln.example',
      classroomIds: [room.id],
    });
    expect(created.status).toBe(201);
    expect(created.body.teacher).toMatchObject({
      name: 'Iris Novak',
      username: 'iris.novak',
      classrooms: [{ id: room.id, name: 'Room 30' }],
    });
    expect(created.body.credentials.username).toBe('iris.novak');
    expect(created.body.credentials.password).toMatch(/^[A-Za-z0-9]{12}$/);
    teacherId = created.body.teacher.id;
    credentials = created.body.credentials;
    const iris = new Client(server.url);
    expect((await iris.login(credentials.username, credentials.password)).role).toBe('teacher');
    // A one-time password: only choosing one's own is open until then.
    expect((await iris.get('/api/teacher/students')).status).toBe(403);
    const chosen = { currentPassword: credentials.password, newPassword: 'iris-own-password' };
    expect((await iris.post('/api/auth/password', chosen)).status).toBe(200);
    expect((await iris.get('/api/teacher/students')).status).toBe(200);
  });

  it('gives the next teacher of the same name a username of their own', async () => {
    const created = await admin.post('/api/teachers', { firstName: 'Iris', lastName: 'Novak' });
    expect(created.body.credentials.username).toBe('iris.novak2');
    const chosen = await admin.post('/api/teachers', {
      firstName: 'X',
      lastName: 'Y',
      username: 'iris.novak',
    });
    expect(chosen.status).toBe(409);
  });

  it('lets only those who may create accounts make a new one-time password', async () => {
    const body = { firstName: 'Iris', lastName: 'Novak', resetPassword: true };
    expect((await teacher.put(`/api/teachers/${teacherId}`, body)).status).toBe(403);
    const reset = await admin.put(`/api/teachers/${teacherId}`, body);
    expect(reset.body.credentials.username).toBe('iris.novak');
    const iris = new Client(server.url);
    await iris.login('iris.novak', reset.body.credentials.password);
  });

  it('deactivates a teacher: no sign-in, no classrooms, off the list', async () => {
    const gone = await del(admin, `/api/teachers/${teacherId}`);
    expect(gone.body).toMatchObject({ active: false, classrooms: [] });
    expect((await admin.get('/api/teachers?search=novak')).body.items.map((t: any) => t.username)).toEqual([
      'iris.novak2',
    ]);
    const rooms = (await admin.get('/api/classrooms')).body;
    expect(rooms.find((r: any) => r.name === 'Room 30').teacherId).toBeNull();
    const answer = await new Client(server.url).post('/api/login', { username: 'iris.novak', password: 'x' });
    expect(answer.status).toBe(401);
  });

  it('never reaches a staff member who is not a teacher', async () => {
    const me = (await admin.get('/api/me')).body;
    expect((await admin.put(`/api/teachers/${me.id}`, { firstName: 'A', lastName: 'B' })).status).toBe(404);
  });
});
