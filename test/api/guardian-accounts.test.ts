import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCsv, importFile } from '../support/csv-import';
import { createSchoolWithStaff } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Who a guardian account belongs to, and who may attach a child to it
 * (docs/adr/0010-guardian-accounts.md): an import attaches children only to
 * accounts the school made; a contact a parent typed in themselves is never
 * a key.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let demoStudents: Array<{ id: number; firstName: string }>;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
  demoStudents = (await admin.get('/api/students?limit=20')).body.items;
});
afterAll(async () => {
  await server?.close();
});

let registered = 0;
/** A parent who registered themselves with someone else's email and phone, and linked one child by code. */
const strangerWith = async (contact: { email: string; phone: string }) => {
  registered += 1;
  const stranger = new Client(server.url);
  const answer = await stranger.post('/api/auth/parent/register', {
    name: `Stranger ${registered}`,
    username: `stranger_${registered}`,
    password: 'secret-pass-1',
    ...contact,
  });
  expect(answer.status).toBe(201);
  const child = demoStudents[registered] as { id: number };
  const code = (await admin.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
  expect((await stranger.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
  return stranger;
};
const childrenOf = async (parent: Client) =>
  ((await parent.get('/api/parent/students')).body as Array<{ firstName: string }>).map((c) => c.firstName);

describe('an import never hands a child to an account the school did not make', () => {
  it('a students file naming a self-registered parent’s email makes its own guardian account', async () => {
    const stranger = await strangerWith({ email: 'real.mother@example.com', phone: '(555) 710-0001' });
    const before = await childrenOf(stranger);
    const answer = await importCsv(
      admin,
      'students',
      importFile('students', [
        ['Victim', 'Child', '2', 'Real Mother', '', 'real.mother@example.com', '', '', ''],
      ]),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.also).toMatchObject({ parentsCreated: 1, parentsUpdated: 0 });
    expect(await childrenOf(stranger)).toEqual(before);
    const listed = (await admin.get('/api/parents?search=real.mother@example.com')).body.items;
    const guardian = listed.find((p: any) => p.students.some((s: any) => s.firstName === 'Victim'));
    expect(guardian).toMatchObject({ name: 'Real Mother', canSignIn: false });
  });

  it('a students file naming a self-registered parent’s phone makes its own guardian account', async () => {
    const stranger = await strangerWith({ email: 'someone.else@example.com', phone: '(555) 710-0002' });
    const before = await childrenOf(stranger);
    const answer = await importCsv(
      admin,
      'students',
      importFile('students', [['Victor', 'Child', '2', 'Real Father', '555-710-0002', '', '', '', '']]),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.also).toMatchObject({ parentsCreated: 1, parentsUpdated: 0 });
    expect(await childrenOf(stranger)).toEqual(before);
  });

  it('a parents file naming a self-registered parent’s email makes its own guardian account', async () => {
    const stranger = await strangerWith({ email: 'real.aunt@example.com', phone: '(555) 710-0003' });
    const before = await childrenOf(stranger);
    const answer = await importCsv(
      admin,
      'parents',
      importFile('parents', [['Real', 'Aunt', 'real.aunt@example.com', '', '', '', '', 'Victim Child']]),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ created: 1, updated: 0 });
    expect(await childrenOf(stranger)).toEqual(before);
  });

  it('an account the school made is still found by its email, and keeps its children', async () => {
    const made = await admin.post('/api/parents', {
      firstName: 'School',
      lastName: 'Made',
      email: 'school.made@example.com',
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      studentIds: [demoStudents[0]?.id],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const answer = await importCsv(
      admin,
      'students',
      importFile('students', [
        ['Sibling', 'Made', '2', 'School Made', '', 'school.made@example.com', '', '', ''],
      ]),
    );
    expect(answer.body.also).toMatchObject({ parentsCreated: 0, parentsUpdated: 1 });
    const [row] = (await admin.get('/api/parents?search=school.made@example.com')).body.items;
    expect(row.students.map((s: any) => s.firstName).sort()).toEqual(
      [demoStudents[0]?.firstName, 'Sibling'].sort(),
    );
  });
});

describe('a school admin gives a parent a new password', () => {
  const profile = (email: string) => ({
    firstName: 'Pat',
    lastName: 'Guardian',
    email,
    phone: null,
    address: null,
    emergencyContact: null,
    emergencyPhone: null,
  });
  const NOT_YOURS =
    'Only the parent can change this password: your school did not make this account, or it follows children at another school.';

  it('only for an account the school made: a self-registered parent who linked a child keeps theirs', async () => {
    const stranger = await strangerWith({ email: 'own.account@example.com', phone: '(555) 710-0004' });
    const { id } = (await stranger.get('/api/me')).body;
    const reset = await admin.put(`/api/parents/${id}`, {
      ...profile('own.account@example.com'),
      resetPassword: true,
    });
    expect(reset).toMatchObject({ status: 403, body: { message: NOT_YOURS } });
    expect((await stranger.get('/api/me')).status).toBe(200);
    const again = await new Client(server.url).post('/api/auth/parent/login', {
      username: `stranger_${registered}`,
      password: 'secret-pass-1',
    });
    expect(again.status).toBe(200);
  });

  it('only while all its children are at the school: an account that also follows a child elsewhere keeps its password', async () => {
    const made = await admin.post('/api/parents', {
      ...profile('two.schools@example.com'),
      studentIds: [demoStudents[5]?.id],
    });
    expect(made.status).toBe(201);
    const parent = new Client(server.url);
    expect((await parent.post('/api/auth/parent/login', made.body.credentials)).status).toBe(200);
    const chosen = { currentPassword: made.body.credentials.password, newPassword: 'two-schools-own' };
    expect((await parent.post('/api/auth/password', chosen)).status).toBe(200);
    // The parent links a child of another school with that school's code.
    await createSchoolWithStaff(server.db, 'elsewhere');
    const otherAdmin = await signedIn(server.url, 'elsewhere_school_admin');
    const child = await otherAdmin.post('/api/students', { firstName: 'Other', lastName: 'Kid', grade: '1' });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    const code = (await otherAdmin.post('/api/pickup-codes/generate', { studentId: child.body.id })).body
      .code;
    expect((await parent.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);

    const reset = await admin.put(`/api/parents/${made.body.parent.id}`, {
      ...profile('two.schools@example.com'),
      resetPassword: true,
    });
    expect(reset).toMatchObject({ status: 403, body: { message: NOT_YOURS } });
    expect((await parent.get('/api/parent/students')).status).toBe(200);
  }, 90_000);

  it('an account the school made, with its children all there, gets a one-time password', async () => {
    const made = await admin.post('/api/parents', {
      ...profile('one.school@example.com'),
      studentIds: [demoStudents[6]?.id],
    });
    const reset = await admin.put(`/api/parents/${made.body.parent.id}`, {
      ...profile('one.school@example.com'),
      resetPassword: true,
    });
    expect(reset.status).toBe(200);
    expect(reset.body.credentials).toMatchObject({ username: 'one.school@example.com' });
  });
});
