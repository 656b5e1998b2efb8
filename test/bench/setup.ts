/**
 * The benchmark's setup and teardown: DynamoDB Local and the table, the
 * seeded school, Curbside in a child process (meter on), the staff signed in,
 * and the screens' connections (staff and anonymous).
 */
import { busIdOf } from '@curbside/domain';
import { ensureTable, startDynamoLocal } from '@curbside/local';
import { createDb, type MeterCounters, type MeterSnapshot } from '@curbside/store';
import { belongsTo, type SchoolIds } from './belongs';
import { busPlanFor } from './buses';
import { BenchClient, Recorder } from './http';
import { diff } from './meter-window';
import { ParentPhone } from './parent-screen';
import { BENCH_PASSWORD, type BenchSchool, planFor, seedSchool } from './school';
import { Screen } from './screens';
import { type ServerProcess, startServerProcess } from './server-process';
import { mapBounded, Samples } from './stats';
import type { BenchOptions, SchoolPlan, ScreenKind } from './types';

export interface StaffMember {
  kind: ScreenKind;
  client: BenchClient;
  /** The staff member's screen connection. */
  screen: Screen;
  /** The classrooms a teacher follows (their own). */
  classroomIds: number[];
}

export interface BenchContext {
  options: BenchOptions;
  log: (line: string) => void;
  plan: SchoolPlan;
  arrivalWindowSec: number;
  endpoint: string;
  tableName: string;
  school: BenchSchool;
  /** The school's own ids: every message its people receive is checked against them. */
  ids: SchoolIds;
  /** The school's bus numbers (ids `B{number}`). */
  busNumbers: string[];
  server: ServerProcess;
  meterNow: () => Promise<MeterSnapshot>;
  recorder: Recorder;
  clients: BenchClient[];
  front: BenchClient[];
  back: BenchClient[];
  teachers: BenchClient[];
  staff: StaffMember[];
  /** A whole-line staff screen (the first front one) that logs every event's concern. */
  reference: Screen | undefined;
  anonymous: Screen[];
  /** Parents on the dashboard, one child each. */
  parents: ParentPhone[];
  /** Delivery latency of every parent message (arrival minus sentAt). */
  parentLatency: Samples;
  /** Delivery latency of every staff event (arrival minus sentAt), with arrival times. */
  latency: Samples;
  /** The meter after every screen connected; events published since are expected on every staff screen. */
  connected: MeterSnapshot;
  connects: MeterCounters | undefined;
  /** The meter of the teachers' subscriptions to their classrooms (`$default`, pings of those moments included). */
  subscribes: MeterCounters | undefined;
  setupMs: number;
  stop: () => Promise<void>;
}

/** DynamoDB Local (in memory, unless one is given), the table, and Curbside in a child process (meter on). */
export interface Runtime {
  endpoint: string;
  tableName: string;
  server: ServerProcess;
  meterNow: () => Promise<MeterSnapshot>;
  stop: () => Promise<void>;
}

export const startRuntime = async (options: BenchOptions): Promise<Runtime> => {
  const log = options.log ?? (() => {});
  const dynamo = options.endpoint
    ? undefined
    : await startDynamoLocal({
        inMemory: true,
        javaOptions: process.env.BENCH_JAVA_OPTIONS?.split(' ').filter(Boolean),
      });
  const endpoint = options.endpoint ?? (dynamo?.endpoint as string);
  const tableName = options.tableName ?? `bench-${Date.now()}`;
  let server: ServerProcess | undefined;
  const stop = async () => {
    await server?.stop();
    await dynamo?.stop();
  };
  try {
    await ensureTable({ endpoint, tableName });
    server = await startServerProcess({
      tableName,
      dynamoEndpoint: endpoint,
      logLevel: options.logLevel ?? 'silent',
      cpuProfileDir: options.cpuProfileDir,
      workers: options.workers,
      testHashCost: options.testHashCost,
    });
    const srv = server;
    log(`Curbside is running at ${srv.url} (pid ${srv.pid})`);
    return { endpoint, tableName, server: srv, meterNow: () => srv.ask({ type: 'meter' }), stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/**
 * The bus numbers of a school: 1…n alone; school k of many, k-1…k-n (bus ids
 * differ between schools, and never equal a car's number).
 */
export const busNumbersOf = (count: number, schoolIndex: number | undefined) =>
  Array.from({ length: count }, (_, i) =>
    schoolIndex === undefined ? String(i + 1) : `${schoolIndex + 1}-${i + 1}`,
  );

/** Starts everything the rush needs; `stop` tears it down (also after a failure half-way). */
export const startBench = async (options: BenchOptions): Promise<BenchContext> => {
  const runtime = await startRuntime(options);
  try {
    const ctx = await openSchool(runtime, options, { prefix: 'bench' });
    return {
      ...ctx,
      stop: async () => {
        await ctx.stop();
        await runtime.stop();
      },
    };
  } catch (error) {
    await runtime.stop();
    throw error;
  }
};

/**
 * Seeds one school on a running runtime and connects its people: staff signed
 * in, their screens (teachers subscribed to their classrooms), anonymous
 * screens, parents' phones. `stop` closes this school's connections only.
 */
export const openSchool = async (
  runtime: Runtime,
  options: BenchOptions,
  where: { prefix: string; schoolIndex?: number },
): Promise<BenchContext> => {
  const log = options.log ?? (() => {});
  const plan = planFor(options.scale);
  const arrivalWindowSec =
    options.durationSec ?? Math.min(300, Math.max(15, Math.round(180 * options.scale)));
  const anonymousCount = Math.max(5, Math.round(100 * options.scale));
  const { endpoint, tableName, server: srv, meterNow } = runtime;
  const clients: BenchClient[] = [];
  const screens: Screen[] = [];
  const phones: ParentPhone[] = [];
  const stop = async () => {
    await Promise.all(phones.map((phone) => phone.stop()));
    await Promise.all(screens.map((screen) => screen.close()));
    for (const client of clients) client.close();
  };
  try {
    log(
      `Seeding ${plan.students} students, ${plan.cars} cars, ${plan.front + plan.back + plan.teachers} staff (${where.prefix})…`,
    );
    const school = await seedSchool(
      createDb({ table: tableName, endpoint, meter: false }),
      plan,
      where.prefix,
    );
    log(`  seeded in ${(school.ms / 1000).toFixed(1)} s`);
    const busNumbers = busNumbersOf(busPlanFor(options.scale).buses, where.schoolIndex);
    const ids: SchoolIds = {
      schoolId: school.schoolId,
      studentIds: new Set(school.classroomOf.keys()),
      classroomIds: new Set(school.classroomOf.values()),
      busIds: new Set(busNumbers.map(busIdOf)),
    };
    const belongs = belongsTo(ids);

    const setupStarted = performance.now();
    const recorder = new Recorder();
    const signIn = async (username: string) => {
      const client = new BenchClient(srv.url, recorder);
      clients.push(client);
      await client.login(username, BENCH_PASSWORD);
      return client;
    };
    const front = await mapBounded(school.front, 4, (account) => signIn(account.username));
    const back = await mapBounded(school.back, 4, (account) => signIn(account.username));
    const teachers = await mapBounded(school.teachers, 4, (account) => signIn(account.username));

    const beforeConnect = await meterNow();
    const latency = new Samples();
    const people = [
      ...front.map((client) => ({ kind: 'front' as const, client, classroomIds: [] as number[] })),
      ...back.map((client) => ({ kind: 'back' as const, client, classroomIds: [] as number[] })),
      ...teachers.map((client, i) => ({
        kind: 'teacher' as const,
        client,
        classroomIds: school.teachers[i]?.classroomIds ?? [],
      })),
    ];
    const staff = await mapBounded(people, 8, async (person) => {
      const screen = await Screen.open(srv.url, {
        kind: 'staff',
        cookie: person.client.cookie as string,
        latency,
      });
      screens.push(screen);
      screen.belongs = belongs;
      screen.classroomOf = (studentId) => school.classroomOf.get(studentId);
      return { ...person, screen };
    });
    // As the web's teacher screen: once its connection is open, it follows its classrooms (ADR 0018).
    const beforeSubscribe = await meterNow();
    await mapBounded(
      staff.filter((member) => member.kind === 'teacher'),
      8,
      (member) => member.screen.subscribe(member.classroomIds),
    );
    const subscribes = diff(await meterNow(), beforeSubscribe)['ws/default'];
    // The first front screen follows the whole line: what each teacher should get is counted from it.
    const reference = staff.find((member) => member.kind === 'front')?.screen;
    if (reference) reference.concernLog = [];
    const anonymous = await mapBounded(Array.from({ length: anonymousCount }), 8, async () => {
      const screen = await Screen.open(srv.url, { kind: 'anonymous' });
      screen.belongs = belongs;
      screens.push(screen);
      return screen;
    });
    const parentLatency = new Samples();
    const parents = await mapBounded(school.parents, 8, async (account) => {
      const cookie = `curbside_session=${account.token}`;
      const screen = await Screen.open(srv.url, { kind: 'parent', cookie, latency: parentLatency });
      screen.belongs = belongs;
      screens.push(screen);
      const client = new BenchClient(srv.url, recorder);
      client.cookie = cookie;
      clients.push(client);
      const phone = new ParentPhone(screen, client, account.studentId);
      phones.push(phone);
      // The dashboard reads the children's status as it opens (its polls follow, at the phone's phase).
      await phone.read();
      return phone;
    });
    // `$connect` writes the connection rows before the upgrade completes, so every screen is subscribed now.
    const connected = await meterNow();
    return {
      options,
      log,
      plan,
      arrivalWindowSec,
      endpoint,
      tableName,
      school,
      ids,
      busNumbers,
      server: srv,
      meterNow,
      recorder,
      clients,
      front,
      back,
      teachers,
      staff,
      reference,
      anonymous,
      parents,
      parentLatency,
      latency,
      connected,
      connects: diff(connected, beforeConnect)['ws/connect'],
      subscribes,
      setupMs: performance.now() - setupStarted,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
