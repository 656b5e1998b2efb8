import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { instantIn, type Vehicle } from '@curbside/domain';
import { runAdmin } from '@curbside/local/admin';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { vehicles } from '@curbside/store';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * A deployment upgraded to issue 54 (the changes that may fall on a day in one
 * Query, every change on gsi1 by its last day): a family's change made before
 * the upgrade still decides whom the car calls once
 * `npm run admin -- index-dismissal-changes` has run. The school's clock is a
 * Wednesday morning in Chicago (the demo school's zone).
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
const WEDNESDAY = '2026-11-25';

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(DEMO_TIME_ZONE, WEDNESDAY, '10:00'));
  server = await startTestServer();
  [admin, front] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
  ]);
});
afterAll(async () => {
  vi.useRealTimers();
  await server?.close();
});

it('a child made absent today before the upgrade is not called by their car once the changes were moved', async () => {
  const car = (await vehicles.listBySchool(server.db, 1)).find(
    (vehicle) => vehicle.type === 'car' && vehicle.studentIds.length >= 2,
  ) as Vehicle;
  const [absentId, comingId] = car.studentIds as [number, number];
  const made = await admin.post('/api/dismissal-changes', {
    studentId: absentId,
    date: WEDNESDAY,
    way: { mode: 'absent' },
  });
  expect(made.status).toBe(201);
  const change = made.body.change as { id: number; createdAt: string };
  // Where the code before issue 54 kept a single change: in its day's partition.
  await server.db.doc.send(
    new UpdateItemCommand({
      TableName: server.db.table,
      Key: { pk: { S: `DCHANGE#${change.id}` }, sk: { S: 'DCHANGE' } },
      UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
      ExpressionAttributeValues: {
        ':pk': { S: `SCHOOL#1#CHANGES#${WEDNESDAY}` },
        ':sk': { S: `${change.createdAt}#${String(change.id).padStart(10, '0')}` },
      },
    }),
  );
  const out: string[] = [];

  const code = await runAdmin(['index-dismissal-changes'], {
    env: { ...process.env, TABLE_NAME: server.db.table },
    stdout: (line) => out.push(line),
    stderr: () => {},
  });

  expect(code).toBe(0);
  expect(Number(out.at(-1))).toBe(1);
  const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  const queued = await front.post('/api/queue', { sessionId, vehicleNumber: car.number, vehicleType: 'car' });
  expect(queued.status).toBe(201);
  expect(queued.body.students.map((student: { id: number }) => student.id)).toContain(comingId);
  expect(queued.body.notCalled).toEqual([expect.objectContaining({ id: absentId, reason: 'Absent today' })]);
});
