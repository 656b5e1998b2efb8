import { ConflictError } from '@curbside/domain';
import { eventSequence, meter } from '@curbside/store';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../packages/store/test/fixtures/db';
import { addVehicle } from '../src/services/queue';
import { schoolWithSession } from './fixtures';

// The meter on before the table handles are made (they count calls only when made metered).
vi.hoisted(() => {
  process.env.CURBSIDE_METER = '1';
});
afterAll(() => {
  meter.reset();
  delete process.env.CURBSIDE_METER;
});

describe('queueing a car that is in the line already', () => {
  it('is refused from the first read (409): no transaction, and no event number taken', async () => {
    const { user, session } = await schoolWithSession(db, 'Twice Queued School', 'front_queue_wrangler');
    const car = { sessionId: session.id, vehicleNumber: '77', vehicleType: 'car' as const };
    await addVehicle(user, car);
    const numbered = await eventSequence.next(db, session.id);

    meter.reset();
    const refused = await meter.run('twice', () => addVehicle(user, car)).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toBe('Vehicle 77 is already in the queue');
    const calls = meter.snapshot().twice ?? {};
    expect(calls['ddb.TransactWriteItems.calls'] ?? 0).toBe(0);
    expect(calls['ddb.UpdateItem.calls'] ?? 0).toBe(0);
    // The line's screens see no gap: the next change takes the next number.
    expect(await eventSequence.next(db, session.id)).toBe(numbered + 1);
  });
});
