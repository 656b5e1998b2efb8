import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DEFAULT_RETENTION_DAYS, everyDay, type Vehicle, type WeeklyPlan } from '@curbside/domain';
import { runAdmin } from '@curbside/local/admin';
import { dismissalPlans, keyedReads, meter, type Student, students, vehicles } from '@curbside/store';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMeteredWednesday, WEDNESDAY } from '../support/metered-wednesday';
import type { Client } from '../support/server';
import { newVehicle } from '../support/vehicles';

/**
 * Queueing a bus after issue 54's riders by key: a bus reads its riders item
 * (the students whose weekly plan names it on some day) and the changes naming
 * it, then those students' plans, items and day's changes by key, never the
 * school's plans; so its read units do not grow with the school. The riders
 * item follows every write of a plan (the office's, an import, an erasure) and
 * `npm run admin -- index-bus-riders` fills it for plans written before.
 * The school's clock is a Wednesday morning in Chicago (the demo school's zone).
 */
let server: Awaited<ReturnType<typeof startMeteredWednesday>>['server'];
let admin: Client;
let front: Client;
let sessionId: number;
let pupils = 0;
let numbers = 0;

let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, admin, front, sessionId, stop } = await startMeteredWednesday());
});
afterAll(() => stop?.());

/** A new bus of the demo school (a number of 3 digits: every bus's items are the same size). */
const newBus = async () => vehicles.create(server.db, newVehicle(1, String(700 + numbers++), 'bus'));
/** A new student of the demo school (names of the same length: every student's item is the same size). */
const newStudent = async () =>
  students.create(server.db, {
    schoolId: 1,
    firstName: `Rider${String(pupils++).padStart(3, '0')}`,
    lastName: 'Keyed',
    grade: '3',
    classroomId: null,
  });
/** The office sets a student's weekly plan, as its screen does. */
const setPlan = async (student: Student, plan: WeeklyPlan) =>
  expect((await admin.put(`/api/students/${student.id}/dismissal-plan`, { plan })).status).toBe(200);
const byBus = (bus: Vehicle) => everyDay({ mode: 'bus', vehicleId: bus.id });
/** The students a bus's riders item lists. */
const listed = async (bus: Vehicle) =>
  [...(await keyedReads.run(server.db, dismissalPlans.keyedBusRiders(1, bus.id))).keys()].sort(
    (a, b) => a - b,
  );

/** Queues the bus; answers whom it calls and the read units and calls of its request. */
const queueBus = async (bus: Vehicle) => {
  meter.reset();
  const answer = await front.post('/api/queue', { sessionId, vehicleNumber: bus.number, vehicleType: 'bus' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const of = meter.snapshot()['http/addToQueue'] ?? {};
  return {
    called: (answer.body.students as Array<{ id: number }>).map((student) => student.id),
    notCalled: (answer.body.notCalled ?? []) as Array<{ id: number; reason: string }>,
    readUnits: of['ddb.readUnits'] ?? 0,
    calls: of['ddb.calls'] ?? 0,
  };
};

it("reads the same read units with 2,000 other students' plans as with none", async () => {
  const measured = async () => {
    const bus = await newBus();
    const riders = [await newStudent(), await newStudent(), await newStudent()];
    for (const rider of riders) await setPlan(rider, byBus(bus));
    return { riders, queued: await queueBus(bus) };
  };
  const before = await measured();
  expect(before.queued.called).toEqual(before.riders.map((rider) => rider.id));

  // 2,000 other students' plans: walkers, and riders of another bus.
  const other = await newBus();
  await dismissalPlans.setMany(
    server.db,
    Array.from({ length: 2000 }, (_, i) => ({
      schoolId: 1,
      studentId: 900_000 + i,
      plan: i % 2 === 0 ? everyDay({ mode: 'walker' }) : byBus(other),
      before: undefined,
    })),
    { id: 1, username: 'admin_demo', role: 'school_admin' },
    DEFAULT_RETENTION_DAYS,
  );
  const after = await measured();

  expect(after.queued.called).toEqual(after.riders.map((rider) => rider.id));
  expect(after.queued.readUnits).toBe(before.queued.readUnits);
  expect(after.queued.calls).toBe(before.queued.calls);
}, 120_000);

it("follows a plan's change: the student leaves the old bus's riders and joins the new one's", async () => {
  const [first, second] = [await newBus(), await newBus()];
  const rider = await newStudent();
  await setPlan(rider, byBus(first));
  expect(await listed(first)).toEqual([rider.id]);

  await setPlan(rider, { ...byBus(second), fri: { mode: 'walker' } });

  expect(await listed(first)).toEqual([]);
  expect(await listed(second)).toEqual([rider.id]);
  const riders = await keyedReads.run(server.db, dismissalPlans.keyedBusRiders(1, second.id));
  expect(riders.get(rider.id)?.days).toEqual(['mon', 'tue', 'wed', 'thu']);
  expect((await queueBus(first)).called).toEqual([]);
  expect((await queueBus(second)).called).toEqual([rider.id]);
});

it('follows an import: a bus named in the dismissal column lists its riders, a new column takes them off', async () => {
  const bus = await newBus();
  const header =
    'firstName,lastName,grade,parentName,parentPhone,parentEmail,vehicleNumber,busRoute,notes,dismissal';
  const importCsv = async (rows: string[]) => {
    const answer = await fetch(`${server.url}/api/import/students`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', cookie: admin.cookie as string, origin: server.url },
      body: [header, ...rows].join('\n'),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
  };
  await importCsv([
    `Ivy,Imported,3,,,,,,,bus:${bus.number}`,
    `Jon,Imported,3,,,,,,,walker|${Array(4).fill(`bus:${bus.number}`).join('|')}`,
  ]);
  const made = (await students.listBySchool(server.db, 1)).filter((s) => s.lastName === 'Imported');
  const ids = made.map((student) => student.id).sort((a, b) => a - b);
  expect(ids).toHaveLength(2);
  expect(await listed(bus)).toEqual(ids);
  // Jon rides it on Tuesday to Friday: called on a Wednesday.
  expect((await queueBus(bus)).called).toEqual(ids);

  await importCsv(['Ivy,Imported,3,,,,,,,walker', `Jon,Imported,3,,,,,,,bus:${bus.number}`]);

  const jon = made.find((student) => student.firstName === 'Jon') as Student;
  expect(await listed(bus)).toEqual([jon.id]);
});

it("follows an erasure: an erased student leaves their bus's riders", async () => {
  const bus = await newBus();
  const [kept, erased] = [await newStudent(), await newStudent()];
  for (const rider of [kept, erased]) await setPlan(rider, byBus(bus));
  expect(await listed(bus)).toEqual([kept.id, erased.id]);

  const answer = await admin.post(`/api/students/${erased.id}/erase`, {
    confirm: `${erased.firstName} ${erased.lastName}`,
  });

  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(await listed(bus)).toEqual([kept.id]);
  expect((await queueBus(bus)).called).toEqual([kept.id]);
});

it('calls a child changed to the bus today while its changes are read by Query (its item overflowed)', async () => {
  const bus = await newBus();
  const [rider, changed] = [await newStudent(), await newStudent()];
  await setPlan(rider, byBus(bus));
  expect(
    (
      await admin.post('/api/dismissal-changes', {
        studentId: changed.id,
        date: WEDNESDAY,
        way: { mode: 'bus', vehicleId: bus.id },
      })
    ).status,
  ).toBe(201);
  // The bus's item of the changes naming it, grown too big: the overflow mark alone.
  await server.db.doc.send(
    new PutItemCommand({
      TableName: server.db.table,
      Item: {
        pk: { S: `SCHOOL#1#CAR#${bus.id}#CHANGES` },
        sk: { S: 'UPCOMING' },
        entity: { S: 'upcomingChanges' },
        schoolId: { N: '1' },
        overflow: { BOOL: true },
      },
    }),
  );

  expect((await queueBus(bus)).called).toEqual([rider.id, changed.id]);
});

it('is filled by `npm run admin -- index-bus-riders` for plans written before it', async () => {
  const bus = await newBus();
  const rider = await newStudent();
  await setPlan(rider, byBus(bus));
  // As written before issue 54's riders: the plan alone.
  await server.db.doc.send(
    new DeleteItemCommand({
      TableName: server.db.table,
      Key: { pk: { S: `SCHOOL#1#BUS#${bus.id}#RIDERS` }, sk: { S: 'RIDERS' } },
    }),
  );
  expect(await listed(bus)).toEqual([]);
  const out: string[] = [];

  const code = await runAdmin(['index-bus-riders'], {
    env: { ...process.env, TABLE_NAME: server.db.table },
    stdout: (line) => out.push(line),
    stderr: () => {},
  });

  expect(code).toBe(0);
  expect(Number(out.at(-1))).toBeGreaterThanOrEqual(1);
  expect(await listed(bus)).toEqual([rider.id]);
  expect((await queueBus(bus)).called).toEqual([rider.id]);
  // The laptop's start runs it once, under a mark.
  expect(await dismissalPlans.fillBusRiders(server.db, { once: true })).toBeGreaterThanOrEqual(1);
  expect(await dismissalPlans.fillBusRiders(server.db, { once: true })).toBe(0);
});
