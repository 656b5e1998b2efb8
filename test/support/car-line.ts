import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { sessionBody } from './fixtures';
import { type Client, signedIn, startTestServer } from './server';

/**
 * The shared prologue of the car-line API tests: the laptop runtime on the file's tables, the
 * demo school's front and back queue staff signed in, and a fresh pickup session for every
 * test (an empty queue, no batches, no alerts). The bindings are live: a test file calls
 * `carLineServer()` once at its top, and reads them in its tests.
 */
export let server: Awaited<ReturnType<typeof startTestServer>>;
export let front: Client;
export let back: Client;
/** The session of the running test. */
export let sessionId: number;

/** Ends the school's running session, if any, and starts a new one: its id. */
export const startFreshSession = async (client: Client) => {
  const running = (await client.get('/api/sessions/active')).body;
  if (running) await client.put(`/api/sessions/${running.id}/end`);
  return (await client.post('/api/sessions', sessionBody())).body.id as number;
};

/** Makes `id` the session of the running test (a test that starts another one itself). */
export const useSession = (id: number) => {
  sessionId = id;
};

export const carLineServer = () => {
  beforeAll(async () => {
    server = await startTestServer();
    front = await signedIn(server.url, 'front_demo');
    back = await signedIn(server.url, 'back_demo');
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    sessionId = await startFreshSession(back);
  });
};

/** Queues a car in the running test's session (as the front queue does): the entry answered. */
export const addCar = async (vehicleNumber: string, client = front) =>
  (await client.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' })).body;

/**
 * Queues a car in `session` from `client` (as the front queue does) and checks it was queued
 * (201): the entry answered. For files with their own server and session.
 */
export const queueCar = async <Entry = any>(client: Client, session: number, vehicleNumber: string) => {
  const answer = await client.post('/api/queue', { sessionId: session, vehicleNumber, vehicleType: 'car' });
  expect(answer.status).toBe(201);
  return answer.body as Entry;
};

/** The session's active queue entries (waiting, batched, overflow): the running test's by default. */
export const activeQueue = async (client = front, session = sessionId) =>
  (await client.get(`/api/queue?sessionId=${session}`)).body as any[];

/** A new empty batch of the session (as the back queue's New Batch does). */
export const newBatch = async (vehicleType = 'car', client = back) =>
  (await client.post('/api/batches', { sessionId, vehicleType })).body;
