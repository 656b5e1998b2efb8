import { districts, schools } from '@curbside/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { admin, allOf, del, front, maple, mapleId, rostersServer, server, teacher } from '../support/rosters';
import { Client, signedIn } from '../support/server';

/**
 * The school's rosters over HTTP: parents and classrooms; another school's records are out of
 * reach; a district admin works on the schools of their district only; the school summary.
 */
rostersServer();

describe('parents', () => {
  it('lists the seeded parents with their children, parent_demo among them', async () => {
    const all = await allOf(admin, '/api/parents');
    expect(all.length).toBe(24);
    const pat = all.find((p) => p.username === 'parent_demo');
    expect(pat.students).toEqual([expect.objectContaining({ firstName: 'Ava', lastName: 'Martinez' })]);
  });

  it('adds a parent linked to children; the parent signs in and the links hold both ways', async () => {
    const kids = (await admin.get('/api/students?search=liam')).body.items.slice(0, 1);
    const created = await admin.post('/api/parents', {
      firstName: 'Sky',
      lastName: 'Hart',
      email: 'Sky.Hart@Example.com',
      studentIds: kids.map((k: any) => k.id),
    });
    expect(created.status).toBe(201);
    expect(created.body.parent).toMatchObject({
      username: 'sky.hart@example.com',
      canSignIn: true,
      students: [expect.objectContaining({ id: kids[0].id })],
    });
    const sky = await new Client(server.url).post('/api/auth/parent/login', {
      username: 'sky.hart@example.com',
      password: created.body.credentials.password,
    });
    expect(sky.body.role).toBe('parent');
    const unlinked = await admin.put(`/api/parents/${created.body.parent.id}`, {
      firstName: 'Sky',
      lastName: 'Hart',
      email: 'sky.hart@example.com',
      phone: '555 123 4567',
      studentIds: [],
    });
    expect(unlinked.body.parent).toMatchObject({ phone: '555 123 4567', students: [] });
  });

  it('needs an email or a phone', async () => {
    const answer = await admin.post('/api/parents', { firstName: 'No', lastName: 'Contact' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Email or phone is required');
  });
});

describe('classrooms', () => {
  it('refuses a duplicate name and keeps a classroom with students', async () => {
    expect((await admin.post('/api/classrooms', { name: 'room 12', grade: '2' })).status).toBe(409);
    const room12 = (await admin.get('/api/classrooms')).body.find((r: any) => r.name === 'Room 12');
    const kept = await del(admin, `/api/classrooms/${room12.id}`);
    expect(kept.status).toBe(409);
    expect(kept.body.message).toMatch(
      /^Room 12 still has \d+ students; move them to another classroom first$/,
    );
    const spare = (await admin.post('/api/classrooms', { name: 'Spare', grade: '1' })).body;
    expect(
      (await admin.put(`/api/classrooms/${spare.id}`, { name: 'Spare Room', grade: '1' })).body.name,
    ).toBe('Spare Room');
    expect((await del(admin, `/api/classrooms/${spare.id}`)).body.active).toBe(false);
    expect((await admin.get('/api/classrooms')).body.map((r: any) => r.name)).not.toContain('Spare Room');
  });

  it('counts the active students of a classroom for the deactivation question, in its own school only', async () => {
    const room12 = (await admin.get('/api/classrooms')).body.find((r: any) => r.name === 'Room 12');
    const inRoom = (await allOf(admin, '/api/students')).filter((s) => s.classroom?.id === room12.id);
    expect(inRoom.length).toBeGreaterThan(0);
    const counted = await admin.get(`/api/classrooms/${room12.id}/student-count`);
    expect(counted.status).toBe(200);
    expect(counted.body).toEqual({ count: inRoom.length });
    // A student who leaves the classroom leaves its count.
    const moved = inRoom[0];
    await del(admin, `/api/students/${moved.id}`);
    expect((await admin.get(`/api/classrooms/${room12.id}/student-count`)).body).toEqual({
      count: inRoom.length - 1,
    });
    const empty = (await admin.post('/api/classrooms', { name: 'Empty Room', grade: '2' })).body;
    expect((await front.get(`/api/classrooms/${empty.id}/student-count`)).body).toEqual({ count: 0 });
    // Another school's classroom is as if it did not exist.
    expect((await maple.get(`/api/classrooms/${room12.id}/student-count`)).status).toBe(404);
    await del(admin, `/api/classrooms/${empty.id}`);
    expect((await admin.get(`/api/classrooms/${empty.id}/student-count`)).status).toBe(404);
  });
});

describe('tenancy', () => {
  let mapleStudent: any;
  let mapleVehicle: any;
  beforeAll(async () => {
    mapleStudent = (await maple.post('/api/students', { firstName: 'Maple', lastName: 'Kid', grade: '3' }))
      .body;
    mapleVehicle = (await maple.post('/api/vehicles', { number: '101', type: 'car', make: 'Maple' })).body;
  });

  it("keeps another school's records out of every list", async () => {
    expect((await admin.get('/api/students?search=maple')).body.items).toEqual([]);
    const cars = await allOf(admin, '/api/vehicles?search=101');
    expect(cars.map((v) => v.id)).not.toContain(mapleVehicle.id);
    expect((await admin.get(`/api/students?schoolId=${mapleId}`)).status).toBe(404);
    expect((await maple.get('/api/students')).body.items.map((s: any) => s.id)).toEqual([mapleStudent.id]);
  });

  it("cannot change or deactivate another school's records", async () => {
    const body = { firstName: 'Changed', lastName: 'Kid', grade: '3' };
    expect((await admin.put(`/api/students/${mapleStudent.id}`, body)).status).toBe(404);
    expect((await del(admin, `/api/students/${mapleStudent.id}`)).status).toBe(404);
    expect((await admin.put(`/api/vehicles/${mapleVehicle.id}`, { number: '777', type: 'car' })).status).toBe(
      404,
    );
    expect((await del(admin, `/api/vehicles/${mapleVehicle.id}`)).status).toBe(404);
    expect((await admin.post(`/api/students?schoolId=${mapleId}`, body)).status).toBe(404);
    expect((await maple.get('/api/students')).body.items).toEqual([expect.objectContaining(mapleStudent)]);
    expect((await maple.get('/api/vehicles')).body.items[0]).toMatchObject({ number: '101', make: 'Maple' });
  });

  it("refuses a cursor into another school's partition", async () => {
    const page = (await maple.get('/api/students?limit=1')).body;
    const key = { pk: `SCHOOL#${mapleId}#STUDENTS`, sk: 'STUDENT#0000000000' };
    const forged = Buffer.from(JSON.stringify(key)).toString('base64url');
    const answer = await admin.get(`/api/students?cursor=${forged}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Invalid cursor');
    expect(page.items).toHaveLength(1);
  });

  it('lets a district admin work on the schools of their district, and no other', async () => {
    const district = await signedIn(server.url, 'district_demo');
    expect((await district.get('/api/students')).status).toBe(400);
    expect((await district.get('/api/students?schoolId=1&limit=1')).body.items).toHaveLength(1);
    const added = await district.post(`/api/students?schoolId=${mapleId}`, {
      firstName: 'D',
      lastName: 'A',
      grade: '1',
    });
    expect(added.status).toBe(201);
    const other = await districts.create(server.db, { name: 'Far District', active: true, sandbox: false });
    const far = await schools.create(server.db, {
      name: 'Far School',
      districtId: other.id,
      active: true,
      sandbox: false,
    });
    expect((await district.get(`/api/students?schoolId=${far.id}`)).status).toBe(404);
    const superAdmin = await signedIn(server.url, 'super_demo');
    expect((await superAdmin.get(`/api/students?schoolId=${far.id}`)).body).toEqual({
      items: [],
      next: null,
    });
  });

  it("refuses a district admin's writes to a sandboxed school of the district", async () => {
    const district = await signedIn(server.url, 'district_demo');
    const riverside = 2;
    expect((await district.get(`/api/students?schoolId=${riverside}`)).status).toBe(200);
    const answer = await district.post(`/api/students?schoolId=${riverside}`, {
      firstName: 'S',
      lastName: 'B',
      grade: '1',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      'Read-only mode: this school is in sandbox mode. Changes are not allowed.',
    );
    expect((await district.get(`/api/students?schoolId=${riverside}`)).body.items).toEqual([]);
  });
});

describe('the school summary', () => {
  it('counts every roster and, in a session, where the students are', async () => {
    const none = (await admin.get('/api/school-summary')).body;
    expect(none.school).toMatchObject({ id: 1, name: 'Lincoln Elementary', sandbox: false, readOnly: false });
    expect(none.counts).toMatchObject({ classrooms: expect.any(Number), teachers: expect.any(Number) });
    expect(none.counts.students).toBe((await allOf(admin, '/api/students')).length);
    expect(none.counts.vehicles).toBe((await allOf(admin, '/api/vehicles')).length);
    expect(none.counts.parents).toBe((await allOf(admin, '/api/parents')).length);
    expect(none.students).toBeNull();

    const session = (await front.post('/api/sessions', sessionBody())).body;
    const car = (n: string) =>
      front.post('/api/queue', { sessionId: session.id, vehicleNumber: n, vehicleType: 'car' });
    const done = (await car('102')).body; // two children (family 1)
    await car('103'); // three children
    await front.put(`/api/queue/${done.id}/status`, { status: 'completed', confirmUnreleased: true });
    const during = (await admin.get(`/api/school-summary?sessionId=${session.id}`)).body;
    expect(during.students).toEqual({
      total: none.counts.students,
      waiting: 3,
      pickedUp: 2,
      inSchool: none.counts.students - 5,
    });
    expect((await maple.get(`/api/school-summary?sessionId=${session.id}`)).status).toBe(404);
    await admin.put(`/api/sessions/${session.id}/end`);
  });

  it('is for school admins and above', async () => {
    expect((await teacher.get('/api/school-summary')).status).toBe(403);
    expect((await maple.get('/api/school-summary')).body.counts).toMatchObject({ students: 2, vehicles: 1 });
  });
});
