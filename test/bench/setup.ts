/**
 * The benchmark's setup and teardown: DynamoDB Local and the table, the
 * seeded school, Curbside in a child process (meter on), the staff signed in,
 * and the screens' connections (staff and anonymous).
 */
import { ensureTable, startDynamoLocal } from '@curbside/local';
import { createDb, type MeterCounters, type MeterSnapshot } from '@curbside/store';
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
  server: ServerProcess;
  meterNow: () => Promise<MeterSnapshot>;
  recorder: Recorder;
  clients: BenchClient[];
  front: BenchClient[];
  back: BenchClient[];
  teachers: BenchClient[];
  staff: StaffMember[];
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
  setupMs: number;
  stop: () => Promise<void>;
}

/** Starts everything the rush needs; `stop` tears it down (also after a failure half-way). */
export const startBench = async (options: BenchOptions): Promise<BenchContext> => {
  const log = options.log ?? (() => {});
  const plan = planFor(options.scale);
  const arrivalWindowSec =
    options.durationSec ?? Math.min(300, Math.max(15, Math.round(180 * options.scale)));
  const anonymousCount = Math.max(5, Math.round(100 * options.scale));
  const dynamo = options.endpoint ? undefined : await startDynamoLocal({ inMemory: true });
  const endpoint = options.endpoint ?? (dynamo?.endpoint as string);
  const tableName = options.tableName ?? `bench-${Date.now()}`;
  const clients: BenchClient[] = [];
  const screens: Screen[] = [];
  let server: ServerProcess | undefined;
  const phones: ParentPhone[] = [];
  const stop = async () => {
    await Promise.all(phones.map((phone) => phone.stop()));
    await Promise.all(screens.map((screen) => screen.close()));
    for (const client of clients) client.close();
    await server?.stop();
    await dynamo?.stop();
  };
  try {
    await ensureTable({ endpoint, tableName });
    log(
      `Seeding ${plan.students} students, ${plan.cars} cars, ${plan.front + plan.back + plan.teachers} staff…`,
    );
    const school = await seedSchool(createDb({ table: tableName, endpoint, meter: false }), plan, 'bench');
    log(`  seeded in ${(school.ms / 1000).toFixed(1)} s`);
    server = await startServerProcess({
      tableName,
      dynamoEndpoint: endpoint,
      logLevel: options.logLevel ?? 'silent',
      cpuProfileDir: options.cpuProfileDir,
      workers: options.workers,
    });
    const srv = server;
    const meterNow = () => srv.ask({ type: 'meter' });
    log(`Curbside is running at ${srv.url} (pid ${srv.pid})`);

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
      return { ...person, screen };
    });
    const anonymous = await mapBounded(Array.from({ length: anonymousCount }), 8, async () => {
      const screen = await Screen.open(srv.url, { kind: 'anonymous' });
      screens.push(screen);
      return screen;
    });
    const parentLatency = new Samples();
    const parents = await mapBounded(school.parents, 8, async (account) => {
      const cookie = `curbside_session=${account.token}`;
      const screen = await Screen.open(srv.url, { kind: 'parent', cookie, latency: parentLatency });
      screens.push(screen);
      const client = new BenchClient(srv.url, recorder);
      client.cookie = cookie;
      clients.push(client);
      const phone = new ParentPhone(screen, client, account.studentId);
      phones.push(phone);
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
      server: srv,
      meterNow,
      recorder,
      clients,
      front,
      back,
      teachers,
      staff,
      anonymous,
      parents,
      parentLatency,
      latency,
      connected,
      connects: diff(connected, beforeConnect)['ws/connect'],
      setupMs: performance.now() - setupStarted,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
