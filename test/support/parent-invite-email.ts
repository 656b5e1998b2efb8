import { type EmailRunProgress, INVITE_GUESS_LIMIT } from '@curbside/domain';
import { classrooms, type Student, students, throttle, users } from '@curbside/store';
import { afterAll, beforeAll, expect } from 'vitest';
import { importCsv, importFile } from './csv-import';
import { createSchoolWithStaff } from './fixtures';
import { type Client, signedIn, startTestServer } from './server';

/**
 * The shared setup of the emailed parent invite tests (issue 29, part B): a school (mail_a)
 * with its admin and teacher signed in, a classroom of the teacher's and another, and three
 * students: Sofia (her record's contact has an email), Tomás (no contact) and Lucía (two
 * guardians from a parents CSV, one with an email). The laptop's emulated SES keeps the
 * messages. The bindings are live: a test file calls `inviteEmailServer()` once at its top.
 */
export let server: Awaited<ReturnType<typeof startTestServer>>;
export let admin: Client;
export let teacher: Client;
export let ownRoom: number;
export let otherRoom: number;
export let sofia: Student;
export let tomas: Student;
export let lucia: Student;

export const newStudent = (
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

export const inviteEmailServer = () => {
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
      importFile('parents', [
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
};

export const mailTo = (address: string) => server.mail.list().filter((mail) => mail.to.includes(address));

/** Reads a run's progress until it is done; answers every reading, the last one done. */
export const followRun = async (
  client: Client,
  runId: string,
  timeoutMs = 60_000,
): Promise<EmailRunProgress[]> => {
  const readings: EmailRunProgress[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const answer = await client.get(`/api/parent-invites/email/${runId}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    readings.push(answer.body);
    if (answer.body.done) return readings;
    if (Date.now() > until) throw new Error(`mail run ${runId} not done: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Emails invites and waits for the run: the POST's answer and the run's last progress. */
export const emailAndWait = async (client: Client, selector: object) => {
  const answer = await client.post('/api/parent-invites/email', selector);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const readings = await followRun(client, answer.body.runId);
  return { answer: answer.body, done: readings.at(-1) as EmailRunProgress, readings };
};

export const linkIn = (text: string) => /https?:\/\/\S+\/parent\/invite\?t=[A-Za-z0-9_-]{43}/.exec(text)?.[0];
