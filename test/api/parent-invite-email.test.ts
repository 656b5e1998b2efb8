import { CSV_TEMPLATES, INVITE_GUESS_LIMIT } from '@curbside/domain';
import { classrooms, type Student, students, throttle, users } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCsv } from '../support/csv-import';
import { createSchoolWithStaff } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Emailed parent invites (issue 29, part B): the school's staff invite the
 * guardians with an email address in one action; each gets one message
 * (English and Spanish) with its link, kept by the laptop's emulated SES.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let teacher: Client;
let ownRoom: number;
let otherRoom: number;
let sofia: Student;
let tomas: Student;
let lucia: Student;

const newStudent = (
  schoolId: number,
  firstName: string,
  lastName: string,
  classroomId: number,
  email: string | null,
) =>
  students.create(server.db, {
    schoolId,
    firstName,
    lastName,
    grade: '2',
    classroomId,
    parentName: email ? `Parent of ${firstName}` : null,
    parentPhone: null,
    parentEmail: email,
    notes: null,
  } as never);

const csv = (kind: keyof typeof CSV_TEMPLATES, rows: string[][]) =>
  [[...CSV_TEMPLATES[kind]], ...rows].map((row) => row.join(',')).join('\r\n');

beforeAll(async () => {
  server = await startTestServer();
  const school = await createSchoolWithStaff(server.db, 'mail_a');
  const staff = await users.listBySchool(server.db, school.id);
  const teacherId = staff.find((user) => user.username === 'mail_a_teacher')?.id as number;
  ownRoom = (
    await classrooms.create(server.db, {
      schoolId: school.id,
      name: 'Room 1',
      grade: '2',
      teacherId,
    } as never)
  ).id;
  otherRoom = (
    await classrooms.create(server.db, {
      schoolId: school.id,
      name: 'Room 2',
      grade: '2',
      teacherId: null,
    } as never)
  ).id;
  // Sofia: the contact on her record has an email; Tomás: no contact at all.
  sofia = await newStudent(school.id, 'Sofia', 'Diaz', ownRoom, 'ana.diaz@family.example');
  tomas = await newStudent(school.id, 'Tomas', 'Reyes', ownRoom, null);
  // Lucía: two guardians imported from a parents CSV, one with an email, one without.
  lucia = await newStudent(school.id, 'Lucia', 'Moreno', otherRoom, null);
  admin = await signedIn(server.url, 'mail_a_school_admin');
  teacher = await signedIn(server.url, 'mail_a_teacher');
  const imported = await importCsv(
    admin,
    'parents',
    csv('parents', [
      ['Rosa', 'Moreno', 'rosa.moreno@family.example', '555-0111', '', '', '', 'Lucia Moreno'],
      ['Luis', 'Moreno', '', '555-0112', '', '', '', 'Lucia Moreno'],
    ]),
  );
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  await throttle.clear(server.db, 'invite#ip#127.0.0.1', INVITE_GUESS_LIMIT.windowMs);
});
afterAll(async () => {
  await server?.close();
});

const mailTo = (address: string) => server.mail.list().filter((mail) => mail.to.includes(address));
const linkIn = (text: string) => /https?:\/\/\S+\/parent\/invite\?t=[A-Za-z0-9_-]{43}/.exec(text)?.[0];

describe('emailing invites', () => {
  it('sends one message per guardian with an email, skips the others, and its link accepts', async () => {
    const answer = await admin.post('/api/parent-invites/email', { allStudents: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // Sofia's record contact and Lucía's imported guardian Rosa; Tomás (no contact) and Luis (no email) skipped.
    expect(answer.body).toEqual({ sent: 2, skipped: 2, failed: 0 });

    const [toAna] = mailTo('ana.diaz@family.example');
    const [toRosa] = mailTo('rosa.moreno@family.example');
    expect(mailTo('ana.diaz@family.example')).toHaveLength(1);
    expect(toRosa?.subject).toContain('Lucia M.');
    expect(toRosa?.text).toContain('Hello Rosa Moreno');
    expect(toAna?.subject).toContain('mail_a School');
    expect(toAna?.subject).toContain('Sofia D.');
    expect(toAna?.text).not.toContain('Diaz');
    expect(toAna?.text).toContain('valid for 30 days');
    expect(toAna?.text).toContain('válido por 30 días');
    expect(toAna?.from).toMatch(/no-reply@/);
    const link = linkIn(toAna?.text ?? '');
    expect(link).toBeDefined();
    expect(toAna?.html).toContain(`<a href="${link}">`);

    // The stored invites: only those with an email, listed pending.
    const listed = await admin.get(`/api/parent-invites?studentId=${lucia.id}`);
    expect(listed.body.map((i: { email: string | null; status: string }) => [i.email, i.status])).toEqual([
      ['rosa.moreno@family.example', 'pending'],
    ]);
    expect((await admin.get(`/api/parent-invites?studentId=${tomas.id}`)).body).toEqual([]);

    const token = new URL(link as string).searchParams.get('t');
    const parent = new Client(server.url);
    const accepted = await parent.post('/api/parent-invites/accept', {
      token,
      username: 'emailed_parent_1',
      password: 'secret1',
      firstName: 'Ana',
      lastName: 'Diaz',
      phone: '555-0110',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect((await parent.get('/api/parent/students')).body.map((c: { id: number }) => c.id)).toEqual([
      sofia.id,
    ]);
  });

  it('a teacher emails their own classroom only', async () => {
    const own = await teacher.post('/api/parent-invites/email', { classroomId: ownRoom });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ sent: 1, skipped: 1, failed: 0 });
    expect(mailTo('ana.diaz@family.example')).toHaveLength(2);
    expect((await teacher.post('/api/parent-invites/email', { classroomId: otherRoom })).status).toBe(403);
    expect((await teacher.post('/api/parent-invites/email', { studentIds: [lucia.id] })).status).toBe(403);
    expect((await teacher.post('/api/parent-invites/email', { allStudents: true })).status).toBe(403);
    expect(mailTo('rosa.moreno@family.example')).toHaveLength(1);
  });

  it("another school's admin gets 404 and sends nothing; a wrangler and a parent get 403", async () => {
    const before = server.mail.list().length;
    const other = await signedIn(server.url, 'admin_demo');
    expect((await other.post('/api/parent-invites/email', { studentIds: [sofia.id] })).status).toBe(404);
    expect((await other.post('/api/parent-invites/email', { classroomId: ownRoom })).status).toBe(404);
    const front = await signedIn(server.url, 'mail_a_front_queue_wrangler');
    expect((await front.post('/api/parent-invites/email', { allStudents: true })).status).toBe(403);
    const parent = await signedIn(server.url, 'parent_demo');
    expect((await parent.post('/api/parent-invites/email', { allStudents: true })).status).toBe(403);
    expect((await admin.post('/api/parent-invites/email', {})).status).toBe(400);
    expect(server.mail.list().length).toBe(before);
  });
});
