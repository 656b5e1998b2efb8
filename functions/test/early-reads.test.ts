import { describe, expect, it } from 'vitest';
import { db } from '../../packages/store/test/fixtures/db';
import { addVehicle, listQueue } from '../src/services/queue';
import { schoolWithSession } from './fixtures';

/**
 * A route's early reads (`EarlyReads`, ADR 0020) only start what the route
 * would read anyway: when one fails (a throttled read, a dropped
 * connection), the route reads again instead of failing the request.
 */

describe("a screen's poll of the queue", () => {
  it('answers the queue when the read started with the sign-in failed', async () => {
    const { user, session } = await schoolWithSession(db, 'Early Reads Elementary', 'front_queue_wrangler');
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '417', vehicleType: 'car' });
    const failed = Promise.reject(new Error('ProvisionedThroughputExceededException'));
    const list = await listQueue(user, session.id, undefined, failed);
    expect(list.map((entry) => entry.vehicleNumber)).toEqual(['417']);
  });
});
