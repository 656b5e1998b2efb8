import { DomainError } from '@curbside/domain';
import { batches, queue } from '@curbside/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { db } from '../../packages/store/test/fixtures/db';
import { addNextToBatch, createBatch, updateBatch } from '../src/services/batches';
import { addVehicle, removeEntry, setEntryStatus, updateEntry } from '../src/services/queue';
import { schoolWithSession } from './fixtures';

/**
 * Random rounds of queue and batch operations, each round several tablets
 * pressing at once (the round's operations run together with Promise.all,
 * each picking its entry or batch from what the screens showed before the
 * round). After every round the invariants hold: no car twice in the
 * session's queue, no batch over capacity, every loading batch's count equal
 * to its members and to the entries that name it, no id ever given twice.
 */

const type = fc.constantFrom('car' as const, 'bus' as const);
const pick = fc.nat(1000);
const operation = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ op: fc.constant('add' as const), number: fc.integer({ min: 1, max: 12 }), type }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('status' as const),
      pick,
      status: fc.constantFrom(
        'waiting' as const,
        'ready' as const,
        'overflow' as const,
        'completed' as const,
      ),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('batch' as const), type }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('addToBatch' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('place' as const), pick, pick2: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('out' as const),
      pick,
      status: fc.constantFrom('waiting' as const, 'overflow' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('complete' as const), pick }) },
);

const checkInvariants = async (sessionId: number, seen: Map<string, string>) => {
  const active = await queue.listActive(db, sessionId);
  const all = await batches.listBySession(db, sessionId);
  for (const batch of all.filter((b) => b.status === 'loading')) {
    const inside = active.filter((e) => e.batchId === batch.id);
    const members = (await batches.withMembers(db, batch.id))?.memberIds ?? [];
    expect(batch.currentCount).toBe(inside.length);
    expect([...members].sort()).toEqual(inside.map((e) => e.id).sort());
    expect(batch.currentCount).toBeLessThanOrEqual(batch.maxCapacity);
    expect(inside.every((e) => e.vehicleType === batch.vehicleType && e.status !== 'overflow')).toBe(true);
  }
  // An id names one visit for life: never two cars, never two visits of one car.
  for (const entry of [...active, ...(await queue.listCompleted(db, sessionId, 1000))]) {
    const car = `${entry.vehicleType}#${entry.vehicleNumber}#${entry.entryTime}`;
    expect(seen.get(entry.id) ?? car).toBe(car);
    seen.set(entry.id, car);
  }
  // No entry in two places: one active entry per vehicle, never in a completed
  // batch, and overflow entries are in no batch.
  const keys = active.map((e) => `${e.vehicleType}#${e.vehicleNumber}`);
  expect(new Set(keys).size).toBe(keys.length);
  const completedIds = new Set(all.filter((b) => b.status === 'completed').map((b) => b.id));
  expect(active.some((e) => e.batchId !== null && completedIds.has(e.batchId))).toBe(false);
  expect(active.filter((e) => e.status === 'overflow').every((e) => e.batchId === null)).toBe(true);
  for (const t of ['car', 'bus'] as const) {
    const positions = active.filter((e) => e.vehicleType === t).map((e) => e.position);
    expect(positions).toEqual(positions.map((_, i) => i + 1));
  }
};

let run = 0;

/** One round: two to four tablets pressing at the same moment. */
const round = fc.array(operation, { minLength: 2, maxLength: 4 });

describe('queue and batch invariants', () => {
  it('hold after every round of operations several tablets send at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 10, maxLength: 16 }), async (rounds) => {
        const { user, session } = await schoolWithSession(db, `Property ${run++}`, 'back_queue_wrangler', {
          car: 3,
          bus: 2,
        });
        const seen = new Map<string, string>();
        for (const tablets of rounds) {
          // What every tablet's screen shows before the round.
          const active = await queue.listActive(db, session.id);
          const loading = (await batches.listBySession(db, session.id)).filter((b) => b.status === 'loading');
          await Promise.all(
            tablets.map(async (step) => {
              const entry = active.length
                ? active[('pick' in step ? step.pick : 0) % active.length]
                : undefined;
              const batch = loading.length
                ? loading[('pick2' in step ? step.pick2 : 'pick' in step ? step.pick : 0) % loading.length]
                : undefined;
              try {
                if (step.op === 'add')
                  await addVehicle(user, {
                    sessionId: session.id,
                    vehicleNumber: String(step.number),
                    vehicleType: step.type,
                  });
                if (step.op === 'remove' && entry) await removeEntry(user, entry.id);
                if (step.op === 'status' && entry) await setEntryStatus(user, entry.id, step.status);
                if (step.op === 'batch') await createBatch(user, session.id, step.type);
                if (step.op === 'addToBatch' && batch) await addNextToBatch(user, batch.id);
                if (step.op === 'place' && entry && batch)
                  await updateEntry(user, entry.id, { batchId: batch.id, status: 'waiting' });
                if (step.op === 'out' && entry)
                  await updateEntry(user, entry.id, { batchId: null, status: step.status });
                if (step.op === 'complete' && batch)
                  await updateBatch(user, batch.id, { status: 'completed' });
              } catch (error) {
                // Refusals (409, 404) are answers; anything else is a bug.
                if (!(error instanceof DomainError)) throw error;
              }
            }),
          );
          await checkInvariants(session.id, seen);
        }
      }),
      { numRuns: 12 },
    );
  }, 180_000);
});
