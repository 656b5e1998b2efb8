import { instantIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { expect, vi } from 'vitest';
import { sessionBody } from './fixtures';
import { signedIn, startTestServer } from './server';

/** The school day the car line's read tests hold the clock on (the demo school's zone). */
export const WEDNESDAY = '2026-11-25';

/**
 * A test server with the meter on and the clock on a Wednesday morning in the demo
 * school's zone (10:00, still running), the office and a front tablet signed in, and a
 * session in which a car was queued already: the reads of the next car are those of a
 * warm instance. `stop` puts the clock and the meter back.
 */
export const startMeteredWednesday = async () => {
  process.env.CURBSIDE_METER = '1';
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(DEMO_TIME_ZONE, WEDNESDAY, '10:00'));
  const server = await startTestServer();
  const [admin, front] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
  ]);
  const sessionId = (await front.post('/api/sessions', sessionBody())).body.id as number;
  expect(
    (await front.post('/api/queue', { sessionId, vehicleNumber: 'W1', vehicleType: 'car' })).status,
  ).toBe(201);
  const stop = async () => {
    vi.useRealTimers();
    await server.close();
    delete process.env.CURBSIDE_METER;
  };
  return { server, admin, front, sessionId, stop };
};
