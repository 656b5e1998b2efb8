import { MAIL_SENDER } from '@curbside/api';
import { CSV_TEMPLATES, type EmailRunProgress, INVITE_GUESS_LIMIT } from '@curbside/domain';
import { sesClient } from '@curbside/functions/lib/mail';
import { invoke } from '@curbside/local';
import { classrooms, mailRuns, type Student, students, throttle, users } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCsv } from '../support/csv-import';
import { createSchoolWithStaff } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Emailed parent invites (issue 29, part B): the school's staff invite the
 * guardians with an email address in one action; the request answers at once
 * with a mail run, whose messages (English and Spanish, one per guardian,
 * with its link) the mail sender sends after it, paced, each once; the office
 * follows the run's progress. The laptop's emulated SES keeps the messages.
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

/** Reads a run's progress until it is done; answers every reading, the last one done. */
const followRun = async (client: Client, runId: string, timeoutMs = 60_000): Promise<EmailRunProgress[]> => {
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
const emailAndWait = async (client: Client, selector: object) => {
  const answer = await client.post('/api/parent-invites/email', selector);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const readings = await followRun(client, answer.body.runId);
  return { answer: answer.body, done: readings.at(-1) as EmailRunProgress, readings };
};

let adminRunId: string;
const linkIn = (text: string) => /https?:\/\/\S+\/parent\/invite\?t=[A-Za-z0-9_-]{43}/.exec(text)?.[0];

describe('emailing invites', () => {
  it('sends one message per guardian with an email, skips the others, and its link accepts', async () => {
    const { answer, done } = await emailAndWait(admin, { allStudents: true });
    // Sofia's record contact and Lucía's imported guardian Rosa; Tomás (no contact) and Luis (no email) skipped.
    expect(answer).toEqual({ runId: expect.stringMatching(/^[0-9a-f-]{36}$/), queued: 2, skipped: 2 });
    expect(done).toEqual({ queued: 2, sent: 2, failed: 0, skipped: 2, done: true });
    adminRunId = answer.runId;

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
      password: 'secret-pass-1',
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
    const own = await emailAndWait(teacher, { classroomId: ownRoom });
    expect(own.answer).toMatchObject({ queued: 1, skipped: 1 });
    expect(own.done).toEqual({ queued: 1, sent: 1, failed: 0, skipped: 1, done: true });
    expect(mailTo('ana.diaz@family.example')).toHaveLength(2);
    // A teacher follows the runs they started, not the office's.
    expect((await teacher.get(`/api/parent-invites/email/${adminRunId}`)).status).toBe(404);
    expect((await admin.get(`/api/parent-invites/email/${own.answer.runId}`)).status).toBe(200);
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

  it("another school's run is 404; a wrangler and a parent may not follow one (403)", async () => {
    const other = await signedIn(server.url, 'admin_demo');
    const progress = `/api/parent-invites/email/${adminRunId}`;
    const refused = await other.get(progress);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: 'Mail run not found' });
    expect((await admin.get('/api/parent-invites/email/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expect((await admin.get(progress)).body).toMatchObject({ sent: 2, done: true });
    const front = await signedIn(server.url, 'mail_a_front_queue_wrangler');
    expect((await front.get(progress)).status).toBe(403);
    expect((await (await signedIn(server.url, 'parent_demo')).get(progress)).status).toBe(403);
    expect((await new Client(server.url).get(progress)).status).toBe(401);
  });
});

describe('whom an invite is emailed to (issue 49)', () => {
  it('never an address a parent typed in themselves: only the contacts the school holds', async () => {
    // Nora's record has her family's address; a stranger registers with their own and links her by a code.
    const nora = await newStudent(sofia.schoolId, 'Nora', 'Vale', otherRoom, 'real.vale@family.example');
    const stranger = new Client(server.url);
    const registered = await stranger.post('/api/auth/parent/register', {
      name: 'Stranger Vale',
      username: 'stranger_vale',
      password: 'secret-pass-1',
      email: 'stranger.vale@elsewhere.example',
      phone: '555-0119',
    });
    expect(registered.status).toBe(201);
    for (const child of [nora, lucia]) {
      const code = (await admin.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
      expect((await stranger.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    }
    const rosaBefore = mailTo('rosa.moreno@family.example').length;

    const { done } = await emailAndWait(admin, { studentIds: [nora.id, lucia.id] });

    // Nora's record contact and Lucía's imported guardian; the stranger's typed address never.
    expect(done).toMatchObject({ queued: 2, sent: 2 });
    expect(mailTo('stranger.vale@elsewhere.example')).toEqual([]);
    expect(mailTo('real.vale@family.example')).toHaveLength(1);
    expect(mailTo('rosa.moreno@family.example')).toHaveLength(rosaBefore + 1);
    const invites = await admin.get(`/api/parent-invites?studentId=${nora.id}`);
    expect(invites.body.map((invite: { email: string | null }) => invite.email)).toEqual([
      'real.vale@family.example',
    ]);
  });
});

describe('a whole school in one action', () => {
  /** `count` students of a new classroom, each with a guardian's email on their record, and one without. */
  const classWithEmails = async (name: string, count: number) => {
    const room = await classrooms.create(server.db, {
      schoolId: sofia.schoolId,
      name,
      grade: '4',
      teacherId: null,
    } as never);
    const addresses: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const address = `${name.toLowerCase().replace(/\W/g, '')}.${i}@family.example`;
      addresses.push(address);
      await newStudent(sofia.schoolId, `Kid${i}`, name.replace(/\W/g, ''), room.id, address);
    }
    await newStudent(sofia.schoolId, 'NoMail', name.replace(/\W/g, ''), room.id, null);
    return { roomId: room.id, addresses };
  };

  it('answers before sending; progress reaches done with every guardian sent exactly one message', async () => {
    const { roomId, addresses } = await classWithEmails('Room Pace', 30);
    const answer = await admin.post('/api/parent-invites/email', { classroomId: roomId });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ queued: 30, skipped: 1 });
    // Paced at 10 a second: the answer does not wait for the 30 messages (3 s at least).
    const sentAtAnswer = addresses.filter((address) => mailTo(address).length > 0).length;
    expect(sentAtAnswer).toBeLessThan(30);

    const readings = await followRun(admin, answer.body.runId);
    expect(readings.at(-1)).toEqual({ queued: 30, sent: 30, failed: 0, skipped: 1, done: true });
    // The office saw it go: counts that only grow, some of them part-way.
    const sent = readings.map((reading) => reading.sent);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(sent.some((n) => n > 0 && n < 30)).toBe(true);
    for (const address of addresses) expect(mailTo(address), address).toHaveLength(1);
  });

  it('a run that reaches its time limit continues in a new invocation and sends each message once', async () => {
    const { roomId, addresses } = await classWithEmails('Room Continue', 12);
    // Each invocation may send for about half a second (5 messages) before it hands over.
    process.env.MAIL_SENDER_TIMEOUT_MS = '1500';
    process.env.MAIL_SENDER_RESERVE_MS = '1000';
    try {
      const { done } = await emailAndWait(admin, { classroomId: roomId });
      expect(done).toEqual({ queued: 12, sent: 12, failed: 0, skipped: 1, done: true });
    } finally {
      delete process.env.MAIL_SENDER_TIMEOUT_MS;
      delete process.env.MAIL_SENDER_RESERVE_MS;
    }
    for (const address of addresses) expect(mailTo(address), address).toHaveLength(1);
  });

  /**
   * The emulator never throttles: SES's client alone is stood in for while `run` runs, refusing
   * each message's first `refusals` tries as SES does over its sending rate
   * (`TooManyRequestsException`, 429), then passing it on to the emulator. Answers the refusals.
   */
  const withThrottledSes = async (refusals: number, run: () => Promise<void>) => {
    const client = sesClient();
    const send = client.send.bind(client);
    const tries = new Map<string, number>();
    let throttled = 0;
    client.send = ((command: Parameters<typeof send>[0]) => {
      const to = String(
        (command.input as { Destination?: { ToAddresses?: string[] } }).Destination?.ToAddresses,
      );
      tries.set(to, (tries.get(to) ?? 0) + 1);
      if ((tries.get(to) as number) <= refusals) {
        throttled += 1;
        const error = Object.assign(new Error('Maximum sending rate exceeded.'), {
          name: 'TooManyRequestsException',
          $metadata: { httpStatusCode: 429 },
        });
        return Promise.reject(error);
      }
      return send(command);
    }) as typeof client.send;
    try {
      await run();
    } finally {
      client.send = send as typeof client.send;
    }
    return throttled;
  };

  it('SES throttling (TooManyRequestsException, 429) is waited out and retried; each message still goes once', async () => {
    const { roomId, addresses } = await classWithEmails('Room Throttled', 10);
    process.env.MAIL_THROTTLE_BACKOFF_MS = '20';
    try {
      const throttled = await withThrottledSes(2, async () => {
        const { done } = await emailAndWait(admin, { classroomId: roomId });
        expect(done).toEqual({ queued: 10, sent: 10, failed: 0, skipped: 1, done: true });
      });
      expect(throttled).toBe(20);
    } finally {
      delete process.env.MAIL_THROTTLE_BACKOFF_MS;
    }
    for (const address of addresses) expect(mailTo(address), address).toHaveLength(1);
  });

  it('a throttled message with no time left to wait goes back to the queue for the next invocation', async () => {
    const { roomId, addresses } = await classWithEmails('Room Late', 2);
    // Each wait (5 s) is longer than an invocation has left (3 s, 1 s kept in reserve).
    process.env.MAIL_THROTTLE_BACKOFF_MS = '5000';
    process.env.MAIL_SENDER_TIMEOUT_MS = '3000';
    process.env.MAIL_SENDER_RESERVE_MS = '1000';
    try {
      const throttled = await withThrottledSes(2, async () => {
        const { done } = await emailAndWait(admin, { classroomId: roomId });
        expect(done).toEqual({ queued: 2, sent: 2, failed: 0, skipped: 1, done: true });
      });
      expect(throttled).toBe(4);
    } finally {
      delete process.env.MAIL_THROTTLE_BACKOFF_MS;
      delete process.env.MAIL_SENDER_TIMEOUT_MS;
      delete process.env.MAIL_SENDER_RESERVE_MS;
    }
    for (const address of addresses) expect(mailTo(address), address).toHaveLength(1);
  });

  describe('never one guardian twice', () => {
    /** A run written straight to the store (as the email route writes it), not yet started. */
    const queuedRun = async (name: string, count: number) => {
      const runId = crypto.randomUUID();
      const addresses = Array.from({ length: count }, (_, i) => `${name}.${i}@family.example`);
      await mailRuns.create(
        server.db,
        {
          schoolId: sofia.schoolId,
          runId,
          startedBy: 0,
          schoolName: 'mail_a School',
          createdAt: new Date().toISOString(),
          queued: count,
          skipped: 0,
        },
        addresses.map((to, i) => ({
          inviteId: 900_000 + i,
          to,
          guardianName: null,
          firstName: 'Kid',
          lastInitial: 'Q',
          url: `${server.url}/parent/invite?t=${'x'.repeat(43)}`,
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        })),
      );
      return { runId, addresses };
    };
    const sender = (runId: string) =>
      invoke(
        'jobs/mail',
        { schoolId: sofia.schoolId, runId },
        { timeoutMs: MAIL_SENDER.access.timeoutSeconds * 1000 },
      );

    it('a message an ended invocation claimed and never settled is not sent again: it counts as failed', async () => {
      const { runId, addresses } = await queuedRun('abandoned', 3);
      const [first] = (await mailRuns.unsettled(server.db, sofia.schoolId, runId, undefined, 10)).messages;
      expect(
        await mailRuns.claim(server.db, sofia.schoolId, runId, first?.sk as string, 'ended-invocation'),
      ).toBe(true);
      expect(await sender(runId)).toEqual({ outcome: 'done' });
      expect((await admin.get(`/api/parent-invites/email/${runId}`)).body).toEqual({
        queued: 3,
        sent: 2,
        failed: 1,
        skipped: 0,
        done: true,
      });
      expect(addresses.map((address) => mailTo(address).length)).toEqual([0, 1, 1]);
      // Settled messages keep no link.
      expect((await mailRuns.unsettled(server.db, sofia.schoolId, runId, undefined, 10)).messages).toEqual(
        [],
      );
    });

    it('two invocations of the same run at once (a duplicated event) send each message at most once', async () => {
      const { runId, addresses } = await queuedRun('duplicated', 8);
      await Promise.all([sender(runId), sender(runId)]);
      const progress = (await admin.get(`/api/parent-invites/email/${runId}`)).body;
      expect(progress).toMatchObject({ queued: 8, done: true });
      expect(progress.sent + progress.failed).toBe(8);
      for (const address of addresses) expect(mailTo(address).length, address).toBeLessThanOrEqual(1);
      // (One of them may count a message the other sent as failed: in AWS they never run at once.)
      expect(addresses.filter((address) => mailTo(address).length === 1).length).toBeGreaterThanOrEqual(
        progress.sent,
      );
    });
  });
});
