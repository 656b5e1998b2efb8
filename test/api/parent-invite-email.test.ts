import { describe, expect, it } from 'vitest';
import {
  admin,
  emailAndWait,
  inviteEmailServer,
  linkIn,
  lucia,
  mailTo,
  newStudent,
  otherRoom,
  ownRoom,
  server,
  sofia,
  teacher,
  tomas,
} from '../support/parent-invite-email';
import { Client, signedIn } from '../support/server';

/**
 * Emailed parent invites (issue 29, part B): the school's staff invite the
 * guardians with an email address in one action; the request answers at once
 * with a mail run, whose messages (English and Spanish, one per guardian,
 * with its link) the mail sender sends after it, paced, each once; the office
 * follows the run's progress. The laptop's emulated SES keeps the messages.
 */
inviteEmailServer();

let adminRunId: string;

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
