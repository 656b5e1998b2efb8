import { ConflictError } from '@curbside/domain';
import { batches } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import {
  activeQueue,
  addCar,
  back,
  carLineServer,
  front,
  newBatch,
  server,
  sessionId,
  useSession,
} from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import type { Answer } from '../support/server';

/** The record's actor and retention for changes this test makes straight in the store. */
const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

/**
 * The messages the queue, batch and alert routes answer for input they
 * refuse: what the front and back queue tablets show as they are.
 */
carLineServer();

/** The whole answer of a refused input: 400, the message, and the one issue behind it. */
const refusedWith = (answer: Answer, path: string, message: string) =>
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 400,
    body: { message, issues: [{ path, message }] },
  });

describe('adding a vehicle', () => {
  it.each([
    ['no vehicle number', {}, 'vehicleNumber', 'Vehicle number is required'],
    [
      'a 13-character number',
      { vehicleNumber: '1234567890123' },
      'vehicleNumber',
      'Vehicle number is too long',
    ],
    [
      'a number with a dash',
      { vehicleNumber: '12-3' },
      'vehicleNumber',
      'Vehicle number can only contain letters and digits',
    ],
    [
      'a number with a space inside',
      { vehicleNumber: '12 3' },
      'vehicleNumber',
      'Vehicle number can only contain letters and digits',
    ],
    ['a boat', { vehicleNumber: '5', vehicleType: 'boat' }, 'vehicleType', 'Vehicle type must be car or bus'],
  ])('refuses %s with its message and queues nothing', async (_, fields, path, message) => {
    const answer = await front.post('/api/queue', { sessionId, ...fields });
    refusedWith(answer, path, message);
    expect(await activeQueue()).toEqual([]);
  });

  it('tells the user a blank vehicle number is required, and nothing else', async () => {
    const answer = await front.post('/api/queue', { sessionId, vehicleNumber: '   ', vehicleType: 'car' });
    refusedWith(answer, 'vehicleNumber', 'Vehicle number is required');
  });

  it.each([
    ['is missing', {}],
    ['is 0', { sessionId: 0 }],
    ['is not a number', { sessionId: 'today' }],
  ])('answers "Session is required" when the session %s', async (_, session) => {
    const answer = await front.post('/api/queue', { ...session, vehicleNumber: '5', vehicleType: 'car' });
    refusedWith(answer, 'sessionId', 'Session is required');
  });

  it('accepts a number of exactly 12 letters and digits, trimmed', async () => {
    const answer = await front.post('/api/queue', { sessionId, vehicleNumber: ' AB3456789012 ' });
    expect(answer.status).toBe(201);
    expect(answer.body.vehicleNumber).toBe('AB3456789012');
  });

  it('refuses a vehicle in a session that has ended', async () => {
    await back.put(`/api/sessions/${sessionId}/end`);
    const answer = await front.post('/api/queue', { sessionId, vehicleNumber: '5', vehicleType: 'car' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'This session has ended. Start a new session first.' });
  });
});

describe('changing a queue entry', () => {
  it.each([
    ['an unknown status', { status: 'flying' }],
    ['no status', {}],
  ])('refuses %s with the list of statuses', async (_, body) => {
    const entry = await addCar('201');
    const answer = await front.put(`/api/queue/${entry.id}/status`, body);
    refusedWith(answer, 'status', 'Status must be waiting, ready, overflow or completed');
    expect((await activeQueue())[0]).toMatchObject({ id: entry.id, status: 'waiting' });
  });

  it('answers "Invalid id" for an entry id longer than 64 characters', async () => {
    const answer = await front.put(`/api/queue/${'x'.repeat(65)}/status`, { status: 'ready' });
    refusedWith(answer, 'id', 'Invalid id');
  });

  it('refuses moving a vehicle to a status other than waiting or overflow', async () => {
    const entry = await addCar('202');
    const answer = await front.put(`/api/queue/${entry.id}`, { batchId: null, status: 'ready' });
    refusedWith(answer, 'status', 'Status must be waiting or overflow');
    expect((await activeQueue())[0]).toMatchObject({ id: entry.id, status: 'waiting' });
  });

  it.each([
    ['missing', { status: 'waiting' }],
    ['0', { batchId: 0, status: 'waiting' }],
    ['not a number', { batchId: 'first', status: 'waiting' }],
  ])('answers "Invalid id" when the batch id is %s', async (_, body) => {
    const entry = await addCar('203');
    const answer = await front.put(`/api/queue/${entry.id}`, body);
    refusedWith(answer, 'batchId', 'Invalid id');
  });

  it('refuses putting a vehicle into a batch as overflow, leaving it waiting outside the batch', async () => {
    const entry = await addCar('204');
    const batch = await newBatch();
    const answer = await front.put(`/api/queue/${entry.id}`, { batchId: batch.id, status: 'overflow' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'A vehicle in a batch has the status waiting' });
    expect((await activeQueue())[0]).toMatchObject({ status: 'waiting', batchId: null });
  });

  it("refuses a batch of an earlier session and leaves that batch's count alone", async () => {
    const oldBatch = await newBatch();
    const oldSessionId = sessionId;
    await back.put(`/api/sessions/${oldSessionId}/end`);
    useSession((await front.post('/api/sessions', sessionBody())).body.id);
    const entry = await addCar('205');
    const answer = await front.put(`/api/queue/${entry.id}`, { batchId: oldBatch.id, status: 'waiting' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'That batch belongs to another session' });
    expect((await activeQueue())[0]).toMatchObject({ batchId: null });
    const [batchNow] = (await front.get(`/api/batches?sessionId=${oldSessionId}&status=loading`)).body;
    expect(batchNow).toMatchObject({ id: oldBatch.id, currentCount: 0 });
  });

  it('refuses a car in a bus batch', async () => {
    const entry = await addCar('206');
    const buses = await newBatch('bus');
    const answer = await front.put(`/api/queue/${entry.id}`, { batchId: buses.id, status: 'waiting' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'Batch #1 is for buses' });
  });

  it('refuses a vehicle in a batch that has been completed', async () => {
    const batch = await newBatch();
    await front.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true });
    const entry = await addCar('207');
    const answer = await front.put(`/api/queue/${entry.id}`, { batchId: batch.id, status: 'waiting' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'Batch #1 is completed and cannot be changed' });
    expect((await activeQueue())[0]).toMatchObject({ status: 'waiting', batchId: null });
  });
});

describe('batches', () => {
  it.each([
    ['no session', { sessionId: undefined, vehicleType: 'car' }, 'sessionId', 'Session is required'],
    ['session 0', { sessionId: 0, vehicleType: 'car' }, 'sessionId', 'Session is required'],
    ['no vehicle type', {}, 'vehicleType', 'Vehicle type must be car or bus'],
    ['a van batch', { vehicleType: 'van' }, 'vehicleType', 'Vehicle type must be car or bus'],
  ])('refuses to create a batch with %s and creates none', async (_, fields, path, message) => {
    const answer = await front.post('/api/batches', { sessionId, ...fields });
    refusedWith(answer, path, message);
    expect((await front.get(`/api/batches/active?sessionId=${sessionId}`)).body).toEqual([]);
  });

  it('refuses a batch in a session that has ended', async () => {
    await back.put(`/api/sessions/${sessionId}/end`);
    const answer = await front.post('/api/batches', { sessionId, vehicleType: 'car' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'This session has ended. Start a new session first.' });
  });

  it.each([
    ['the active batches without a session', 'GET', '/api/batches/active', 'sessionId'],
    ['a batch with a word for an id', 'PUT', '/api/batches/first', 'id'],
    ['the vehicles of batch 0', 'GET', '/api/batches/0/vehicles', 'id'],
    ['add-to-batch on batch 0', 'POST', '/api/batches/0/vehicles', 'id'],
  ])('answers "Invalid id" for %s', async (_, method, path, field) => {
    const answer = await front.request(method, path, method === 'GET' ? undefined : { status: 'completed' });
    refusedWith(answer, field, 'Invalid id');
  });

  it('says what a batch change may contain when it is neither a status nor a count', async () => {
    const batch = await newBatch();
    const message = 'Send a status of loading or completed, or a currentCount of 0 or more';
    for (const change of [{ status: 'parked' }, {}]) {
      const answer = await front.put(`/api/batches/${batch.id}`, change);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    const negative = await front.put(`/api/batches/${batch.id}`, { currentCount: -1 });
    refusedWith(negative, 'currentCount', 'The count cannot be below 0');
    expect((await front.get(`/api/batches/active?sessionId=${sessionId}`)).body[0].status).toBe('loading');
  });

  it('answers which statuses the batch list knows', async () => {
    const answer = await front.get(`/api/batches?sessionId=${sessionId}&status=parked`);
    refusedWith(answer, 'status', 'Status must be loading or completed');
  });

  it('tells a tablet that completes a batch another tablet has just completed that it is already completed', async () => {
    // The same batch as the slower tablet read it, while it was still loading.
    const stale = await newBatch();
    await front.put(`/api/batches/${stale.id}`, { status: 'completed', confirmUnreleased: true });
    const completing = batches.complete(server.db, stale, [], new Date().toISOString(), rec);
    await expect(completing).rejects.toBeInstanceOf(ConflictError);
    await expect(completing).rejects.toThrow('Batch #1 is already completed');
  });
});

describe('alerts', () => {
  it.each([
    [
      'an unknown alert type',
      { type: 'fire', location: 'Front Queue' },
      'type',
      'Alert type must be emergency or help',
    ],
    ['no alert type', { location: 'Front Queue' }, 'type', 'Alert type must be emergency or help'],
    ['a blank location', { type: 'help', location: '   ' }, 'location', 'Location is required'],
    ['no location', { type: 'help' }, 'location', 'Location is required'],
    ['session 0', { type: 'help', location: 'Gate', sessionId: 0 }, 'sessionId', 'Invalid session'],
  ])('refuses %s and raises nothing', async (_, fields, path, message) => {
    const answer = await front.post('/api/alerts', { sessionId, ...fields });
    refusedWith(answer, path, message);
    expect((await front.get(`/api/alerts?sessionId=${sessionId}`)).body).toEqual([]);
  });

  // Without a session the list answers the school's active alerts (issue 27, test/ws/alerts.test.ts).
  it('answers "Invalid id" for the alert list of a session that is not a number', async () => {
    refusedWith(await front.get('/api/alerts?sessionId=abc'), 'sessionId', 'Invalid id');
  });

  it('answers "Invalid id" for dismissing an alert with a word for an id', async () => {
    refusedWith(await front.put('/api/alerts/help/dismiss'), 'id', 'Invalid id');
  });
});
