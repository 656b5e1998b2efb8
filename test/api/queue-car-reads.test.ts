import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Vehicle } from '@curbside/domain';
import { runAdmin } from '@curbside/local/admin';
import { meter, vehicles } from '@curbside/store';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMeteredWednesday, WEDNESDAY } from '../support/metered-wednesday';
import type { Client } from '../support/server';

/**
 * Queueing a car after issue 54's reads: it reads what its children's ways
 * today name, and no more (a child absent today costs no read of its own, a
 * child on a bus today one BatchGetItem for the bus's name; before, a Query of
 * the school's buses and one of its programs for any child not called), counted
 * by the meter; and a family's change made before the upgrade still decides
 * whom the car calls once `npm run admin -- index-dismissal-changes` has run
 * (it moves the change and puts it in its student's upcoming item).
 * The school's clock is a Wednesday morning in Chicago (the demo school's zone).
 */
let server: Awaited<ReturnType<typeof startMeteredWednesday>>['server'];
let admin: Client;
let front: Client;
let sessionId: number;
let cars: Vehicle[];
let bus: Vehicle;

let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, admin, front, sessionId, stop } = await startMeteredWednesday());
  const fleet = await vehicles.listBySchool(server.db, 1);
  cars = fleet.filter((vehicle) => vehicle.type === 'car' && vehicle.studentIds.length >= 2);
  bus = fleet.find((vehicle) => vehicle.type === 'bus') as Vehicle;
});
afterAll(() => stop?.());

const changeToday = async (studentId: number, way: object) =>
  expect((await admin.post('/api/dismissal-changes', { studentId, date: WEDNESDAY, way })).status).toBe(201);

/** Queues the car and answers its entry and the DynamoDB calls its request made. */
const queueCounted = async (car: Vehicle) => {
  meter.reset();
  const answer = await front.post('/api/queue', { sessionId, vehicleNumber: car.number, vehicleType: 'car' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { entry: answer.body, calls: meter.snapshot()['http/addToQueue']?.['ddb.calls'] ?? 0 };
};

it('reads no more for a child absent today, and one BatchGetItem for the name of the bus a child takes today', async () => {
  const [everyone, withAbsent, withBusRider] = cars as [Vehicle, Vehicle, Vehicle];
  await changeToday(withAbsent.studentIds[0] as number, { mode: 'absent' });
  await changeToday(withBusRider.studentIds[0] as number, { mode: 'bus', vehicleId: bus.id });

  const all = await queueCounted(everyone);
  const absent = await queueCounted(withAbsent);
  const onBus = await queueCounted(withBusRider);

  expect(all.entry.notCalled ?? []).toEqual([]);
  expect(absent.entry.notCalled).toEqual([expect.objectContaining({ reason: 'Absent today' })]);
  expect(onBus.entry.notCalled).toEqual([expect.objectContaining({ reason: `Bus B${bus.number} today` })]);
  expect(absent.calls).toBe(all.calls);
  expect(onBus.calls).toBe(all.calls + 1);
});

it('a child made absent today before the upgrade is not called by their car once the changes were moved and kept', async () => {
  const car = cars[3] as Vehicle;
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
  // Nor had the student's upcoming item (issue 54: the day's changes a car reads by key) a copy of it.
  await server.db.doc.send(
    new UpdateItemCommand({
      TableName: server.db.table,
      Key: { pk: { S: `SCHOOL#1#STUDENT#${absentId}#CHANGES` }, sk: { S: 'UPCOMING' } },
      UpdateExpression: 'REMOVE #change',
      ExpressionAttributeNames: { '#change': `c${change.id}` },
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
  const queued = await front.post('/api/queue', { sessionId, vehicleNumber: car.number, vehicleType: 'car' });
  expect(queued.status).toBe(201);
  expect(queued.body.students.map((student: { id: number }) => student.id)).toContain(comingId);
  expect(queued.body.notCalled).toEqual([expect.objectContaining({ id: absentId, reason: 'Absent today' })]);
});
