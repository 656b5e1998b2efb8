import { MAIL_SENDER } from '@curbside/api';
import { sesClient } from '@curbside/functions/lib/mail';
import { invoke } from '@curbside/local';
import { classrooms, mailRuns, type Student, students } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import {
  admin,
  emailAndWait,
  followRun,
  inviteEmailServer,
  mailTo,
  newStudent,
  server,
  sofia,
} from '../support/parent-invite-email';

/**
 * Emailed parent invites for a whole school in one action (issue 29, part B): each guardian
 * once, paced, resumable (the setup: test/support/parent-invite-email.ts).
 */
inviteEmailServer();

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

  it('an address SES refuses three times is given up: the run counts it failed and its invite says not delivered', async () => {
    const { roomId, addresses } = await classWithEmails('Room Refused', 3);
    const [refused, flaky] = addresses as [string, string, string];
    const client = sesClient();
    const send = client.send.bind(client);
    const tries = new Map<string, number>();
    // The first address is refused every time; the second twice, then accepted.
    client.send = ((command: Parameters<typeof send>[0]) => {
      const to = String(
        (command.input as { Destination?: { ToAddresses?: string[] } }).Destination?.ToAddresses,
      );
      tries.set(to, (tries.get(to) ?? 0) + 1);
      if (to === refused || (to === flaky && (tries.get(to) as number) <= 2)) {
        const error = Object.assign(new Error('Email address is not verified.'), {
          name: 'MessageRejected',
          $metadata: { httpStatusCode: 400 },
        });
        return Promise.reject(error);
      }
      return send(command);
    }) as typeof client.send;
    process.env.MAIL_THROTTLE_BACKOFF_MS = '20';
    try {
      const { done } = await emailAndWait(admin, { classroomId: roomId });
      expect(done).toEqual({ queued: 3, sent: 2, failed: 1, skipped: 1, done: true });
    } finally {
      client.send = send as typeof client.send;
      delete process.env.MAIL_THROTTLE_BACKOFF_MS;
    }
    expect(tries.get(refused)).toBe(3);
    expect(tries.get(flaky)).toBe(3);
    expect(mailTo(refused)).toHaveLength(0);
    expect(mailTo(flaky)).toHaveLength(1);
    const studentOf = async (address: string) =>
      (await students.listAll(server.db, sofia.schoolId)).find((s) => s.parentEmail === address) as Student;
    const invitesOf = async (address: string) =>
      (await admin.get(`/api/parent-invites?studentId=${(await studentOf(address)).id}`)).body;
    expect(await invitesOf(refused)).toMatchObject([{ status: 'pending', notDelivered: true }]);
    expect(await invitesOf(flaky)).toMatchObject([{ status: 'pending', notDelivered: false }]);
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
