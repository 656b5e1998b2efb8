import { ConflictError } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { CONFLICT_ATTEMPTS } from '../src/db';
import { isConditionFailure } from '../src/query';
import { queue } from '../src/queue';
import { arrivingCar, rec } from './arrivals';
import { testDb } from './fixtures/db';

/**
 * A client on DynamoDB Local whose next `conflicts` transactions DynamoDB
 * cancels for a conflicting transaction before they reach it, as AWS does when
 * two transactions touch one item at once (DynamoDB Local runs them one at a
 * time and never does). Counts every transaction sent.
 */
type Args = { input: { TransactItems?: unknown[] } };

const conflictingDb = (conflicts: number) => {
  const db = testDb();
  const sent = { transactions: 0, cancelled: 0 };
  db.doc.middlewareStack.add(
    ((next: (args: Args) => Promise<unknown>, context: { commandName?: string }) => async (args: Args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      sent.transactions += 1;
      if (sent.cancelled >= conflicts) return next(args);
      sent.cancelled += 1;
      const items = (args.input.TransactItems ?? []).map((_, i) => ({
        Code: i === 0 ? 'TransactionConflict' : 'None',
      }));
      throw Object.assign(
        new Error('Transaction cancelled, please refer cancellation reasons for specific reasons'),
        {
          name: 'TransactionCanceledException',
          CancellationReasons: items,
        },
      );
    }) as never,
    { step: 'finalizeRequest', name: 'testConflict' },
  );
  return { db, sent };
};

describe('a car-line write that meets another transaction (TransactionConflict)', () => {
  it('is sent again and applied once, not refused as a duplicate', async () => {
    const { db, sent } = conflictingDb(2);
    const entry = await queue.add(db, arrivingCar(9401, '501'), rec);
    expect(sent).toEqual({ transactions: 3, cancelled: 2 });
    const line = await queue.listActive(db, 9401);
    expect(line.map((e) => [e.id, e.vehicleNumber])).toEqual([[entry.id, '501']]);
  });

  it('is not sent again when a condition failed (the car is already queued): one send, a 409', async () => {
    const { db, sent } = conflictingDb(0);
    await queue.add(db, arrivingCar(9402, '502'), rec);
    sent.transactions = 0;
    await expect(queue.add(db, arrivingCar(9402, '502'), rec)).rejects.toBeInstanceOf(ConflictError);
    expect(sent.transactions).toBe(1);
  });

  it(`fails as an error, never as a condition failure, when the conflict outlasts ${CONFLICT_ATTEMPTS} sends`, async () => {
    const { db, sent } = conflictingDb(CONFLICT_ATTEMPTS);
    const error = await queue.add(db, arrivingCar(9403, '503'), rec).catch((e: unknown) => e);
    expect(sent.transactions).toBe(CONFLICT_ATTEMPTS);
    expect((error as Error).name).toBe('TransactionCanceledException');
    expect(isConditionFailure(error)).toBe(false);
    expect(await queue.listActive(db, 9403)).toEqual([]);
  });
});
