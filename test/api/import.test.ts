import { CSV_TEMPLATES } from '@curbside/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, importCsv } from '../support/csv-import';
import { sessionBody } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * CSV import over HTTP (`POST /api/import/{kind}`, `text/csv`): a file with
 * any bad row writes nothing and names every bad row; a good file creates,
 * and the same file again changes nothing.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
  front = await signedIn(server.url, 'front_demo');
});
afterAll(async () => {
  await server?.close();
});

const count = async (path: string) => {
  let total = 0;
  let cursor: string | null = null;
  do {
    const page: any = (await admin.get(`${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
    total += page.items.length;
    cursor = page.next;
  } while (cursor);
  return total;
};

/** 30 students of grade 3 in ten families, cars 801–810, some on bus route B. */
const thirty = () =>
  Array.from({ length: 30 }, (_, i) => {
    const family = Math.floor(i / 3);
    return [
      `Kid${i}`,
      `Family${family}`,
      '3',
      `Parent${family} Family${family}`,
      `(555) 300-${String(1000 + family)}`,
      `family${family}@example.com`,
      String(801 + family),
      i % 10 === 0 ? 'Route B' : '',
      i === 5 ? '"Pick up at side door, not front"' : '',
    ];
  });

describe('importing students', () => {
  it('writes nothing from a file with bad rows, and names every bad row', async () => {
    const before = await count('/api/students');
    const rows = thirty();
    (rows[4] as string[])[2] = ''; // no grade
    (rows[17] as string[])[6] = '80-1'; // not a vehicle number
    const answer = await importCsv(admin, 'students', csv([[...CSV_TEMPLATES.students], ...rows]));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: '2 rows have problems; nothing was imported. Fix them and import the file again.',
      errors: [
        { row: 6, column: 'grade', message: 'Grade is required' },
        { row: 19, column: 'vehicleNumber', message: 'Vehicle number can only contain letters and digits' },
      ],
    });
    expect(await count('/api/students')).toBe(before);
    expect((await admin.get('/api/vehicles?type=car&number=801')).body.items).toEqual([]);
    expect((await admin.get('/api/parents?search=family0@example.com')).body.items).toEqual([]);
  });

  it('creates 30 students, their cars and parents; the same file again changes nothing', async () => {
    const before = await count('/api/students');
    const file = csv([[...CSV_TEMPLATES.students], ...thirty()]);
    const first = await importCsv(admin, 'students', file);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      created: 30,
      updated: 0,
      unchanged: 0,
      also: { vehiclesCreated: 10, vehiclesUpdated: 1, parentsCreated: 10, classroomsCreated: 0 },
    });
    expect(await count('/api/students')).toBe(before + 30);

    const again = await importCsv(admin, 'students', file);
    expect(again.body).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 30,
      also: { vehiclesCreated: 0, vehiclesUpdated: 0, parentsCreated: 0, parentsUpdated: 0 },
    });
    expect(await count('/api/students')).toBe(before + 30);

    // Grade 3 has one classroom (Room 15): the new students join it.
    const [kid] = (await admin.get('/api/students?search=kid5 family1')).body.items;
    expect(kid).toMatchObject({
      classroom: { name: 'Room 15' },
      notes: 'Pick up at side door, not front',
      vehicles: [{ type: 'car', number: '802' }],
    });
    const [parent] = (await admin.get('/api/parents?search=family1@example.com')).body.items;
    expect(parent.students.map((s: any) => s.firstName).sort()).toEqual(['Kid3', 'Kid4', 'Kid5']);
    expect(parent.canSignIn).toBe(false);
    const [bus] = (await admin.get('/api/vehicles?type=bus&number=2')).body.items;
    expect(bus.students.map((s: any) => s.firstName)).toEqual(
      expect.arrayContaining(['Kid0', 'Kid10', 'Kid20']),
    );
  });

  it('puts a new car on the front queue with its children', async () => {
    const session = (await front.post('/api/sessions', sessionBody())).body;
    const entry = (
      await front.post('/api/queue', { sessionId: session.id, vehicleNumber: '803', vehicleType: 'car' })
    ).body;
    expect(entry.vehicle).toMatchObject({ parentName: 'Parent2 Family2', parentPhone: '(555) 300-1002' });
    expect(entry.students.map((s: any) => s.firstName).sort()).toEqual(['Kid6', 'Kid7', 'Kid8']);
    await admin.put(`/api/sessions/${session.id}/end`);
  });

  it('updates only the rows that changed', async () => {
    const rows = thirty();
    (rows[0] as string[])[8] = 'Now walks home';
    const answer = await importCsv(admin, 'students', csv([[...CSV_TEMPLATES.students], ...rows]));
    expect(answer.body).toMatchObject({ created: 0, updated: 1, unchanged: 29 });
  });

  it('refuses a file without the template’s columns, and an unknown bus route', async () => {
    const columns = await importCsv(admin, 'students', 'First Name,Surname\r\nAva,Smith');
    expect(columns.status).toBe(400);
    expect(columns.body.errors).toEqual(
      expect.arrayContaining([
        { row: 1, column: 'lastName', message: 'The header row has no lastName column' },
        { row: 1, column: 'grade', message: 'The header row has no grade column' },
      ]),
    );
    const route = await importCsv(
      admin,
      'students',
      csv([[...CSV_TEMPLATES.students], ['Zed', 'Zee', '1', '', '', '', '', 'Route Q', '']]),
    );
    expect(route.body.errors).toEqual([
      {
        row: 2,
        column: 'busRoute',
        message: 'No bus runs route Route Q. Add the bus in the Vehicles tab first.',
      },
    ]);
  });

  it('matches header names loosely and takes a classroom column, creating the classroom', async () => {
    const file =
      'First Name,Last Name,Grade,Parent Name,Parent Phone,Parent Email,Vehicle Number,Bus Route,Notes,Classroom\r\nOwen,Park,6,,,,,,,Room 40\r\n';
    const answer = await importCsv(admin, 'students', file);
    expect(answer.body).toMatchObject({ created: 1, also: { classroomsCreated: 1 } });
    const [owen] = (await admin.get('/api/students?search=owen park')).body.items;
    expect(owen.classroom.name).toBe('Room 40');
  });
});

describe('importing teachers, parents and vehicles', () => {
  it('creates teachers (without a password) and their classrooms; again: unchanged', async () => {
    const file = csv([
      [...CSV_TEMPLATES.teachers],
      ['Hana', 'Ito', 'hana.ito@lincoln.example', '', '6', 'Room 41', ''],
      ['Omar', 'Diaz', 'omar.diaz@lincoln.example', '(555) 777-1234', 'K', 'Room 4', 'odiaz'],
    ]);
    const first = await importCsv(admin, 'teachers', file);
    expect(first.body).toMatchObject({ created: 2, unchanged: 0, also: { classroomsCreated: 1 } });
    expect(first.body.credentials).toEqual([]);
    const rooms = (await admin.get('/api/classrooms')).body;
    const omar = (await admin.get('/api/teachers?search=odiaz')).body.items[0];
    expect(rooms.find((r: any) => r.name === 'Room 4').teacherId).toBe(omar.id);
    const again = await importCsv(admin, 'teachers', file);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2, credentials: [] });
    const taken = await importCsv(
      admin,
      'teachers',
      csv([[...CSV_TEMPLATES.teachers], ['A', 'B', '', '', '', '', 'front_demo']]),
    );
    expect(taken.body.errors).toEqual([
      { row: 2, column: 'username', message: 'Username front_demo is already taken' },
    ]);
  });

  it('imports 80 teachers in one answer; each signs in once the school gives them a password', async () => {
    const rows = Array.from({ length: 80 }, (_, i) => [
      'Bulk',
      `Teacher${i}`,
      `bulk.teacher${i}@lincoln.example`,
      '',
      '',
      '',
      '',
    ]);
    const answer = await importCsv(admin, 'teachers', csv([[...CSV_TEMPLATES.teachers], ...rows]));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ created: 80, updated: 0, unchanged: 0, credentials: [] });
    const [teacher] = (await admin.get('/api/teachers?search=bulk.teacher7@')).body.items;
    const refused = await new Client(server.url).post('/api/login', {
      username: teacher.username,
      password: 'x',
    });
    expect(refused.status).toBe(401);
    const given = await admin.put(`/api/teachers/${teacher.id}`, {
      firstName: 'Bulk',
      lastName: 'Teacher7',
      resetPassword: true,
    });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    const signIn = await new Client(server.url).post('/api/login', given.body.credentials);
    expect(signIn.status).toBe(200);
    expect(signIn.body.mustChangePassword).toBe(true);
  }, 120_000);

  it('links parents to students by name, and names a student it cannot find', async () => {
    const bad = await importCsv(
      admin,
      'parents',
      csv([
        [...CSV_TEMPLATES.parents],
        ['Lee', 'Family0', 'lee@example.com', '', '', '', '', 'Kid0 Family0; Nobody Here'],
      ]),
    );
    expect(bad.body.errors).toEqual([
      { row: 2, column: 'studentNames', message: 'No student named Nobody Here' },
    ]);
    const file = csv([
      [...CSV_TEMPLATES.parents],
      [
        'Lee',
        'Family0',
        'lee@example.com',
        '',
        '1 Elm St',
        'Gran',
        '555-000-1111',
        'Kid0 Family0; Kid1 Family0 (3)',
      ],
      ['Parent1', 'Family1', 'FAMILY1@example.com', '', '', '', '', 'Kid9 Family3'],
    ]);
    const first = await importCsv(admin, 'parents', file);
    expect(first.body).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
    const [lee] = (await admin.get('/api/parents?search=lee@example.com')).body.items;
    expect(lee).toMatchObject({ address: '1 Elm St', emergencyContact: 'Gran' });
    expect(lee.students.map((s: any) => s.firstName).sort()).toEqual(['Kid0', 'Kid1']);
    const [p1] = (await admin.get('/api/parents?search=family1@example.com')).body.items;
    expect(p1.students.map((s: any) => s.firstName).sort()).toEqual(['Kid3', 'Kid4', 'Kid5', 'Kid9']);
    expect((await importCsv(admin, 'parents', file)).body).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
    });
  });

  it('gives an imported parent a sign-in only when the school makes a password', async () => {
    const [lee] = (await admin.get('/api/parents?search=lee@example.com')).body.items;
    expect(lee).toMatchObject({ username: 'lee@example.com', canSignIn: false });
    const refused = await new Client(server.url).post('/api/auth/parent/login', {
      username: 'lee@example.com',
      password: 'anything',
    });
    expect(refused.status).toBe(401);
    const reset = await admin.put(`/api/parents/${lee.id}`, {
      firstName: 'Lee',
      lastName: 'Family0',
      email: 'lee@example.com',
      resetPassword: true,
    });
    expect(reset.body.parent.canSignIn).toBe(true);
    expect(reset.body.credentials.username).toBe('lee@example.com');
    const signIn = await new Client(server.url).post('/api/auth/parent/login', reset.body.credentials);
    expect(signIn.status).toBe(200);
    // A second password replaces the first; the username stays.
    const again = await admin.put(`/api/parents/${lee.id}`, {
      firstName: 'Lee',
      lastName: 'Family0',
      email: 'lee@example.com',
      resetPassword: true,
    });
    expect(again.body.credentials.username).toBe('lee@example.com');
  });

  it('creates and updates vehicles on type and number', async () => {
    const file = csv([
      [...CSV_TEMPLATES.vehicles],
      ['801', 'car', 'Honda', 'Pilot', 'Red', 'ABC123', 'Parent0 Family0', '(555) 300-1000', ''],
      ['6', 'bus', 'Blue Bird', 'Vision', 'Yellow', 'BUS-6', 'Route F', '', ''],
    ]);
    const first = await importCsv(admin, 'vehicles', file);
    expect(first.body).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
    const [car] = (await admin.get('/api/vehicles?type=car&number=801')).body.items;
    expect(car).toMatchObject({ make: 'Honda', model: 'Pilot' });
    expect(car.students).toHaveLength(3);
    expect((await importCsv(admin, 'vehicles', file)).body).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
    });
    const typo = await importCsv(
      admin,
      'vehicles',
      csv([[...CSV_TEMPLATES.vehicles], ['7', 'van', '', '', '', '', '', '', '']]),
    );
    expect(typo.body.errors).toEqual([{ row: 2, column: 'type', message: 'Type must be car or bus' }]);
  });
});

describe('who may import', () => {
  it('refuses front queue staff and a sandboxed school, and accepts a district admin naming a school', async () => {
    const file = csv([[...CSV_TEMPLATES.vehicles], ['901', 'car', '', '', '', '', '', '', '']]);
    expect((await importCsv(front, 'vehicles', file)).status).toBe(403);
    const district = await signedIn(server.url, 'district_demo');
    expect((await importCsv(district, 'vehicles', file, '?schoolId=2')).status).toBe(403);
    expect((await importCsv(district, 'vehicles', file, '?schoolId=1')).body).toMatchObject({ created: 1 });
    expect((await importCsv(admin, 'nonsense', file)).status).toBe(400);
  });
});
