import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCsv, importFile } from '../support/csv-import';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Roster rules that once differed between screens (issue 34): a student's
 * unregistered car is registered by Add Student as by the CSV import; a
 * teacher's email is one teacher's; a grade is K–12 (or an SIS year) only.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
});
afterAll(async () => {
  await server?.close();
});

const vehicleNumbered = async (number: string) => {
  const page = (await admin.get(`/api/vehicles?search=${number}&limit=100`)).body as {
    items: Array<{
      number: string;
      type: string;
      parentName: string | null;
      students: Array<{ id: number }>;
    }>;
  };
  return page.items.find((vehicle) => vehicle.number === number);
};

/** A students file of the template's columns, a line of cells per row. */
const studentsFile = (lines: string[]) =>
  importFile(
    'students',
    lines.map((line) => line.split(',')),
  );

describe('a student’s unregistered car', () => {
  it('is registered by Add Student, with the parent as its contact, as the CSV import does', async () => {
    expect(await vehicleNumbered('4401')).toBeUndefined();
    const added = await admin.post('/api/students', {
      firstName: 'Nora',
      lastName: 'Quill',
      grade: '3',
      parentName: 'Sam Quill',
      parentPhone: '(555) 440-1000',
      vehicles: [{ type: 'car', number: '4401' }],
    });
    expect(added.status).toBe(201);
    const car = await vehicleNumbered('4401');
    expect(car).toMatchObject({ type: 'car', parentName: 'Sam Quill' });
    expect(car?.students.map((student) => student.id)).toEqual([added.body.id]);

    const imported = await importCsv(
      admin,
      'students',
      studentsFile(['Owen,Quill,3,Sam Quill,(555) 440-1000,,4402,,']),
    );
    expect(imported.status).toBeLessThan(300);
    expect(await vehicleNumbered('4402')).toMatchObject({ type: 'car', parentName: 'Sam Quill' });
  });

  it('an unknown bus is refused by both', async () => {
    const added = await admin.post('/api/students', {
      firstName: 'Ida',
      lastName: 'Quill',
      grade: '3',
      vehicles: [{ type: 'bus', number: '77' }],
    });
    expect(added.status).toBe(400);
    expect(added.body.message).toBe('No Bus B77 is registered');
    const imported = await importCsv(admin, 'students', studentsFile(['Ida,Quill,3,,,,,Route Z,']));
    expect(imported.status).toBe(400);
  });
});

describe('a teacher’s email', () => {
  it('is refused for a second teacher (409, with who has it), and for an edit onto it', async () => {
    const first = await admin.post('/api/teachers', {
      firstName: 'Lena',
      lastName: 'Park',
      email: 'lena.park@lincoln.example',
    });
    expect(first.status).toBe(201);
    const again = await admin.post('/api/teachers', {
      firstName: 'Other',
      lastName: 'Person',
      email: 'Lena.Park@Lincoln.example',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The email Lena.Park@Lincoln.example is already used by Lena Park');
    const other = await admin.post('/api/teachers', {
      firstName: 'Omar',
      lastName: 'Diaz',
      email: 'omar.diaz@lincoln.example',
    });
    expect(other.status).toBe(201);
    const onto = await admin.put(`/api/teachers/${other.body.teacher.id}`, {
      firstName: 'Omar',
      lastName: 'Diaz',
      email: 'lena.park@lincoln.example',
    });
    expect(onto.status).toBe(409);
    // Saving a teacher with their own email is no conflict.
    const same = await admin.put(`/api/teachers/${first.body.teacher.id}`, {
      firstName: 'Lena',
      lastName: 'Park-Lee',
      email: 'lena.park@lincoln.example',
    });
    expect(same.status).toBe(200);
  });
});

describe('a grade', () => {
  it('is K to 12 (or an SIS year) in Add Student and in the CSV import; 14 is refused', async () => {
    const form = await admin.post('/api/students', { firstName: 'Al', lastName: 'Fourteen', grade: '14' });
    expect(form.status).toBe(400);
    expect(form.body.issues).toEqual([
      { path: 'grade', message: 'Grade must be K or 1 to 12 (or PK, TK, PS, IT, PG)' },
    ]);
    const imported = await importCsv(admin, 'students', studentsFile(['Al,Fourteen,14,,,,,,']));
    expect(imported.status).toBe(400);
    expect(JSON.stringify(imported.body)).toContain('Grade must be K or 1 to 12');
    const kept = await admin.post('/api/students', { firstName: 'Al', lastName: 'Four', grade: '04' });
    expect(kept.status).toBe(201);
    expect(kept.body.grade).toBe('4');
  });
});
