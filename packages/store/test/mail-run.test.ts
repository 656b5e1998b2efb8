import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db';
import { mailRuns, type NewMailMessage } from '../src/mail-run';
import { testDb } from './fixtures/db';

/**
 * Mail runs (emailed invites): a message is claimed once, settled once (its
 * link removed, counted on the run), and a settling transaction that DynamoDB
 * cancels for a conflict on the run's counters is tried again.
 */
const db = testDb();

const message = (i: number): NewMailMessage => ({
  inviteId: i,
  to: `guardian.${i}@family.example`,
  guardianName: null,
  firstName: 'Ana',
  lastInitial: 'R',
  url: `https://curbside.example/parent/invite?t=token${i}`,
  expiresAt: '2030-01-01T00:00:00.000Z',
});

const newRun = async (count: number, schoolId = 7) => {
  const runId = crypto.randomUUID();
  await mailRuns.create(
    db,
    {
      schoolId,
      runId,
      startedBy: 1,
      schoolName: 'Lincoln',
      createdAt: new Date().toISOString(),
      queued: count,
      skipped: 1,
    },
    Array.from({ length: count }, (_, i) => message(i)),
  );
  return runId;
};

describe('mail runs', () => {
  it('claims a queued message once, settles it once, and counts it on the run without its link', async () => {
    const runId = await newRun(2);
    const { messages } = await mailRuns.unsettled(db, 7, runId, undefined, 10);
    expect(messages.map((m) => [m.to, m.status, m.url])).toEqual([
      ['guardian.0@family.example', 'queued', 'https://curbside.example/parent/invite?t=token0'],
      ['guardian.1@family.example', 'queued', 'https://curbside.example/parent/invite?t=token1'],
    ]);
    const sk = messages[0]?.sk as string;
    expect(await mailRuns.claim(db, 7, runId, sk, 'a')).toBe(true);
    expect(await mailRuns.claim(db, 7, runId, sk, 'b')).toBe(false);
    expect(await mailRuns.settle(db, 7, runId, sk, 'b', 'sent')).toBe(false);
    expect(await mailRuns.settle(db, 7, runId, sk, 'a', 'sent')).toBe(true);
    expect(await mailRuns.settle(db, 7, runId, sk, 'a', 'sent')).toBe(false);
    expect(await mailRuns.get(db, 7, runId)).toMatchObject({ queued: 2, sent: 1, failed: 0, skipped: 1 });
    expect((await mailRuns.unsettled(db, 7, runId, undefined, 10)).messages.map((m) => m.to)).toEqual([
      'guardian.1@family.example',
    ]);
    // Another school's key finds nothing.
    expect(await mailRuns.get(db, 8, runId)).toBeUndefined();
  });

  it('tries a settling transaction again when DynamoDB cancels it for a conflict (DynamoDB Local never does)', async () => {
    const runId = await newRun(1);
    const [only] = (await mailRuns.unsettled(db, 7, runId, undefined, 10)).messages;
    await mailRuns.claim(db, 7, runId, only?.sk as string, 'a');
    let conflicts = 0;
    const send = db.doc.send.bind(db.doc);
    const conflicting: Db = {
      table: db.table,
      doc: {
        send: (command: unknown) => {
          if (command instanceof TransactWriteCommand && conflicts < 2) {
            conflicts += 1;
            return Promise.reject(
              Object.assign(new Error('Transaction cancelled'), {
                name: 'TransactionCanceledException',
                CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
              }),
            );
          }
          return send(command as never);
        },
      } as unknown as Db['doc'],
    };
    expect(await mailRuns.settle(conflicting, 7, runId, only?.sk as string, 'a', 'sent')).toBe(true);
    expect(conflicts).toBe(2);
    expect(await mailRuns.get(db, 7, runId)).toMatchObject({ sent: 1, failed: 0 });
  });
});
