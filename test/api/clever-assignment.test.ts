import { type FakeClever, startFakeClever } from '@curbside/local';
import { districts } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Which Clever district a district admin may import from: the one the super
 * admin assigned to their district, and no other. Until then they see none
 * (no names, no schools, no student preview, no import), so no district admin
 * can bind another district's Clever data to their own.
 */
let clever: FakeClever;
let server: Awaited<ReturnType<typeof startTestServer>>;
let superAdmin: Client;
let districtAdmin: Client;
let otherAdmin: Client;
let otherDistrictId: number;

beforeAll(async () => {
  clever = await startFakeClever({ district: { schools: 1, studentsPerSchool: 12 } });
  server = await startTestServer({ clever });
  const other = await districts.create(server.db, { name: 'Elsewhere USD', active: true, sandbox: false });
  otherDistrictId = other.id;
  await createStaff(server.db, {
    username: 'elsewhere_district_admin',
    role: 'district_admin',
    schoolId: null,
    districtId: other.id,
  });
  [superAdmin, districtAdmin, otherAdmin] = await Promise.all([
    signedIn(server.url, 'super_demo'),
    signedIn(server.url, 'district_demo'),
    signedIn(server.url, 'elsewhere_district_admin'),
  ]);
});

afterAll(async () => {
  await server?.close();
  await clever?.close();
});

const cleverSchoolId = () => clever.data.schools[0]?.id as string;

/** Everything the import page reads or starts for a Clever district, as one district admin sees it. */
const reach = async (client: Client) => ({
  districts: (await client.get('/api/clever/districts')).body,
  schools: (await client.get(`/api/clever/schools?districtId=${clever.districtId}`)).status,
  preview: (await client.get(`/api/clever/preview/students?cleverSchoolId=${cleverSchoolId()}`)).status,
  importDistrict: (await client.post('/api/clever/import/district', { cleverDistrictId: clever.districtId }))
    .status,
});

describe('assigning a Clever district', () => {
  it('a district admin sees no Clever district until the super admin assigns one to their district', async () => {
    expect(await reach(districtAdmin)).toEqual({
      districts: [],
      schools: 404,
      preview: 404,
      importDistrict: 404,
    });
    expect(await reach(otherAdmin)).toEqual({
      districts: [],
      schools: 404,
      preview: 404,
      importDistrict: 404,
    });
    expect((await districts.get(server.db, 1))?.cleverId).toBeUndefined();
  });

  it('the super admin lists what can be assigned and assigns it; then that district admin, only, works with it', async () => {
    const listed = await superAdmin.get('/api/clever/assignments');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: clever.districtId, name: clever.data.district.name, state: 'success', districtId: null },
    ]);
    const assigned = await superAdmin.put('/api/districts/1/clever', { cleverDistrictId: clever.districtId });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ id: 1, cleverId: clever.districtId });
    expect((await superAdmin.get('/api/clever/assignments')).body).toEqual([
      expect.objectContaining({ id: clever.districtId, districtId: 1 }),
    ]);

    const own = await districtAdmin.get('/api/clever/districts');
    expect(own.body).toEqual([{ id: clever.districtId, name: clever.data.district.name, state: 'success' }]);
    expect((await districtAdmin.get(`/api/clever/schools?districtId=${clever.districtId}`)).status).toBe(200);
    expect(await reach(otherAdmin)).toEqual({
      districts: [],
      schools: 404,
      preview: 404,
      importDistrict: 404,
    });
  });

  it('refuses a Clever district assigned elsewhere, one Clever has not shared, and anyone but the super admin', async () => {
    const taken = await superAdmin.put(`/api/districts/${otherDistrictId}/clever`, {
      cleverDistrictId: clever.districtId,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This Clever district is assigned to another district');
    const unknown = await superAdmin.put(`/api/districts/${otherDistrictId}/clever`, {
      cleverDistrictId: 'not-shared',
    });
    expect(unknown.status).toBe(404);
    const again = await superAdmin.put('/api/districts/1/clever', { cleverDistrictId: clever.districtId });
    expect(again.status).toBe(200);
    const self = await otherAdmin.put(`/api/districts/${otherDistrictId}/clever`, {
      cleverDistrictId: clever.districtId,
    });
    expect(self.status).toBe(403);
    expect((await districtAdmin.get('/api/clever/assignments')).status).toBe(403);
    expect((await districts.get(server.db, otherDistrictId))?.cleverId).toBeUndefined();
  });
});
