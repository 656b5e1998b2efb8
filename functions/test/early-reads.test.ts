import type { User } from '@curbside/domain';
import { createDb, schools } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { addVehicle, listQueue } from '../src/services/queue';
import { createSession } from '../src/services/sessions';

/**
 * A route's early reads (`EarlyReads`, ADR 0020) only start what the route
 * would read anyway: when one fails (a throttled read, a dropped
 * connection), the route reads again instead of failing the request.
 */
const db = createDb({
  table: process.env.TABLE_NAME as string,
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
});

describe("a screen's poll of the queue", () => {
  it('answers the queue when the read started with the sign-in failed', async () => {
    const school = await schools.create(db, {
      name: 'Early Reads Elementary',
      districtId: 1,
      active: true,
      sandbox: false,
    });
    const user: User = {
      id: 1,
      name: 'Tester',
      username: 'tester',
      email: null,
      phone: null,
      role: 'front_queue_wrangler',
      active: true,
      schoolId: school.id,
      districtId: 1,
    };
    const now = Date.now();
    const session = await createSession(user, {
      name: 'Afternoon Pickup',
      type: 'afternoon_pickup',
      startTime: new Date(now).toISOString(),
      endTime: new Date(now + 3_600_000).toISOString(),
    });
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '417', vehicleType: 'car' });
    const failed = Promise.reject(new Error('ProvisionedThroughputExceededException'));
    const list = await listQueue(user, session.id, undefined, failed);
    expect(list.map((entry) => entry.vehicleNumber)).toEqual(['417']);
  });
});
