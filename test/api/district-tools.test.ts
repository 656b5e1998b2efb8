import { parseCsvRows } from '@curbside/domain/csv';
import { districts, schools } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The district's tools that were placeholders (issue 50, item 13): Edit
 * District (its name and the time zone new schools take) and Export Data (a
 * school's rosters and dismissals as CSV files, for its admins and its
 * district's).
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let district: Client;
let admin: Client;
let otherDistrictAdmin: Client;
let otherSchoolId: number;

beforeAll(async () => {
  server = await startTestServer();
  [district, admin] = await Promise.all([
    signedIn(server.url, 'district_demo'),
    signedIn(server.url, 'admin_demo'),
  ]);
  const other = await districts.create(server.db, { name: 'Far Away USD', active: true, sandbox: false });
  otherSchoolId = (
    await schools.create(server.db, {
      name: 'Far School',
      districtId: other.id,
      active: true,
      sandbox: false,
    })
  ).id;
  await createStaff(server.db, {
    username: 'far_district',
    role: 'district_admin',
    schoolId: null,
    districtId: other.id,
  });
  otherDistrictAdmin = await signedIn(server.url, 'far_district');
});
afterAll(async () => {
  await server?.close();
});

const csvRows = parseCsvRows;

describe('Edit District', () => {
  it('renames the district and sets the time zone its new schools take', async () => {
    const saved = await district.put('/api/districts/1', {
      name: 'Demo Unified',
      timeZone: 'america/denver',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: 1, name: 'Demo Unified', timeZone: 'America/Denver' });
    expect((await district.get('/api/districts/1')).body).toMatchObject({
      name: 'Demo Unified',
      timeZone: 'America/Denver',
    });
    const made = await district.post('/api/schools', { name: 'Mountain School', districtId: 1 });
    expect(made.body.timeZone).toBe('America/Denver');
    // A school keeps its own zone.
    expect((await admin.get('/api/schools/1/settings')).body.timeZone).toBe('America/Chicago');
    // Without a zone, the zone stays.
    expect(
      (await district.put('/api/districts/1', { name: 'Demo Unified School District' })).body.timeZone,
    ).toBe('America/Denver');
  });

  it('refuses a blank name and an unknown zone, and another district (404)', async () => {
    const blank = await district.put('/api/districts/1', { name: '  ' });
    expect(blank.body.issues).toEqual([{ path: 'name', message: 'District name is required' }]);
    const zone = await district.put('/api/districts/1', { name: 'X', timeZone: 'Nowhere/Land' });
    expect(zone.body.issues).toEqual([
      { path: 'timeZone', message: 'Time zone must be an IANA time zone name, such as America/Chicago' },
    ]);
    expect((await otherDistrictAdmin.put('/api/districts/1', { name: 'Mine' })).status).toBe(404);
    expect((await district.get('/api/districts/1')).body.name).toBe('Demo Unified School District');
  });
});

describe('Export Data', () => {
  it("gives a school's rosters and dismissals as CSV files", async () => {
    const front = await signedIn(server.url, 'front_demo');
    const active = (await front.get('/api/sessions/active')).body;
    if (active) await admin.put(`/api/sessions/${active.id}/end`);
    const session = (await front.post('/api/sessions', sessionBody())).body;
    await front.post('/api/queue', { sessionId: session.id, vehicleNumber: '101', vehicleType: 'car' });
    await admin.put(`/api/sessions/${session.id}/end`);
    const bus = (await admin.get('/api/ways-home/options')).body.buses[0];
    const ava = (await admin.get('/api/students?search=ava%20martinez')).body.items[0];
    const car = { mode: 'car' };
    await admin.put(`/api/students/${ava.id}/dismissal-plan`, {
      plan: { mon: { mode: 'bus', vehicleId: bus.id }, tue: car, wed: car, thu: car, fri: car },
    });

    const answer = await admin.get('/api/schools/1/export');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      schoolId: 1,
      schoolName: 'Lincoln Elementary',
      timeZone: 'America/Chicago',
    });
    const files = Object.fromEntries(
      (answer.body.files as Array<{ name: string; csv: string }>).map((file) => [
        file.name,
        csvRows(file.csv),
      ]),
    );
    expect(Object.keys(files)).toEqual([
      'students.csv',
      'classrooms.csv',
      'teachers.csv',
      'parents.csv',
      'vehicles.csv',
      'programs.csv',
      'dismissals.csv',
    ]);
    const students = files['students.csv'] as string[][];
    expect(students[0]).toContain('Way Home');
    expect(students.length).toBe(61);
    const avaRow = students.find((row) => row[0] === String(ava.id)) as string[];
    expect(avaRow.slice(1, 3)).toEqual(['Ava', 'Martinez']);
    expect(avaRow[6]).toBe(`Car rider; Mon: Bus B${bus.number}`);
    expect(avaRow[7]).toContain('Car 101');
    const dismissals = files['dismissals.csv'] as string[][];
    expect(dismissals[0]?.[4]).toBe('Start (America/Chicago)');
    const row = dismissals.find((found) => found[0] === String(session.id)) as string[];
    expect(row).toBeDefined();
    expect(row[6]).toBe('1');
  });

  it("is for the school's admins and its district's; another district's school is 404; a bad range 400", async () => {
    expect((await district.get('/api/schools/1/export')).status).toBe(200);
    expect((await otherDistrictAdmin.get('/api/schools/1/export')).status).toBe(404);
    expect((await admin.get(`/api/schools/${otherSchoolId}/export`)).status).toBe(404);
    const backwards = await admin.get('/api/schools/1/export?from=2026-05-01&to=2026-04-01');
    expect(backwards.status).toBe(400);
  });
});
