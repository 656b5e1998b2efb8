import { randomUUID } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { activeQueue, back, carLineServer, front, server, sessionId } from '../support/car-line';
import { createSchoolWithStaff } from '../support/fixtures';
import { openLive, settled } from '../support/live';
import { type Client, signedIn } from '../support/server';

carLineServer();
let teacher: Client;
beforeAll(async () => {
  teacher = await signedIn(server.url, 'teacher_demo');
});

const keyed = (key: string) => ({ 'Idempotency-Key': key });
const addCar = (client: Client, vehicleNumber: string, key: string) =>
  client.request('POST', '/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' }, keyed(key));

describe('a mutation sent twice with the same Idempotency-Key', () => {
  it('queues a car once and answers both sends with the same 201', async () => {
    const key = randomUUID();
    const first = await addCar(front, '101', key);
    const again = await addCar(front, '101', key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await activeQueue()).filter((entry) => entry.vehicleNumber === '101')).toHaveLength(1);
  });

  it("answers a car's retry with its entry as first answered and its place in line as it is now", async () => {
    const ahead = (await addCar(front, '119', randomUUID())).body;
    const key = randomUUID();
    const first = await addCar(front, '120', key);
    expect(first.status).toBe(201);
    expect(first.body.position).toBeGreaterThan(1);
    // The car ahead of it leaves before the tablet, whose answer was lost, sends the add again.
    expect((await front.request('DELETE', `/api/queue/${ahead.id}`, { reason: 'left' })).status).toBe(200);
    const again = await addCar(front, '120', key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, position: first.body.position - 1 });
    expect((await activeQueue()).filter((entry) => entry.vehicleNumber === '120')).toHaveLength(1);
  });

  it('queues a car once when both sends race', async () => {
    const key = randomUUID();
    const answers = await Promise.all([
      addCar(front, '102', key),
      addCar(front, '102', key),
      addCar(front, '102', key),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(answers[1]?.body).toEqual(answers[0]?.body);
    expect(answers[2]?.body).toEqual(answers[0]?.body);
    expect((await activeQueue()).filter((entry) => entry.vehicleNumber === '102')).toHaveLength(1);
  });

  it('removes an entry once and answers the retry as the first time, not with a 409', async () => {
    const entry = (await addCar(front, '103', randomUUID())).body;
    const key = randomUUID();
    const remove = () =>
      front.request(
        'DELETE',
        `/api/queue/${entry.id}`,
        { reason: 'picked_up', confirmUnreleased: true },
        keyed(key),
      );
    const first = await remove();
    const again = await remove();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const unkeyed = await front.request('DELETE', `/api/queue/${entry.id}`, {
      reason: 'picked_up',
      confirmUnreleased: true,
    });
    expect(unkeyed.status).toBe(409);
  });

  it('adds one car to a batch, not two, when the add is retried', async () => {
    await addCar(front, '104', randomUUID());
    await addCar(front, '105', randomUUID());
    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    const key = randomUUID();
    const [first, again] = await Promise.all([
      back.request('POST', `/api/batches/${batch.id}/vehicles`, {}, keyed(key)),
      back.request('POST', `/api/batches/${batch.id}/vehicles`, {}, keyed(key)),
    ]);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.body.currentCount).toBe(1);
    const inBatch = (await back.get(`/api/batches/${batch.id}/vehicles`)).body;
    expect(inBatch.map((entry: any) => entry.vehicleNumber)).toEqual(['104']);
  });

  it('releases a student once and answers the retry with the first release', async () => {
    await addCar(front, '101', randomUUID());
    const [student] = (await teacher.get(`/api/teacher/students/ready?sessionId=${sessionId}`)).body;
    const key = randomUUID();
    const release = () =>
      teacher.request('PUT', `/api/teacher/students/${student.id}/release`, undefined, keyed(key));
    const first = await release();
    const again = await release();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it("tells the line's screens of a release and of a new batch once when each is retried (h54ze: told beside the transaction)", async () => {
    const screen = await openLive(server.url, { cookie: front.cookie });
    try {
      await addCar(front, '119', randomUUID());
      const [student] = (await teacher.get(`/api/teacher/students/ready?sessionId=${sessionId}`)).body;
      const releaseKey = randomUUID();
      const release = () =>
        teacher.request('PUT', `/api/teacher/students/${student.id}/release`, undefined, keyed(releaseKey));
      const batchKey = randomUUID();
      const create = () =>
        back.request('POST', '/api/batches', { sessionId, vehicleType: 'car' }, keyed(batchKey));
      const [first, again] = [await release(), await release()];
      const [made, madeAgain] = [await create(), await create()];
      expect([first.status, again.status, made.status, madeAgain.status]).toEqual([200, 200, 201, 201]);
      expect(madeAgain.body).toEqual(made.body);
      await settled(screen);
      const released = screen.messages.filter(
        (message) => message.type === 'STUDENT_STATUS_UPDATE' && message.data.studentId === student.id,
      );
      expect(released.map((message) => message.data.releasedAt)).toEqual([first.body.releasedAt]);
      const created = screen.messages.filter(
        (message) => message.type === 'QUEUE_STATUS_UPDATED' && message.data.batch?.id === made.body.id,
      );
      expect(created).toHaveLength(1);
    } finally {
      await screen.close();
    }
  });

  it('refuses the same key with another body with 422, applying nothing', async () => {
    const key = randomUUID();
    expect((await addCar(front, '106', key)).status).toBe(201);
    const other = await addCar(front, '107', key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ message: 'This Idempotency-Key was already used for a different request' });
    expect((await activeQueue()).map((entry) => entry.vehicleNumber)).toEqual(['106']);
  });

  it('refuses the same key and body with another query string with 422, applying nothing (issue 49)', async () => {
    // A super admin names the school in the query: the same vehicle for school 1, then for another.
    const other = await createSchoolWithStaff(server.db, 'idempotent_query');
    const office = await signedIn(server.url, 'super_demo');
    const key = randomUUID();
    const create = (schoolId: number) =>
      office.request(
        'POST',
        `/api/vehicles?schoolId=${schoolId}`,
        { number: '9041', type: 'car' },
        keyed(key),
      );
    expect((await create(1)).status).toBe(201);

    const elsewhere = await create(other.id);

    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual({
      message: 'This Idempotency-Key was already used for a different request',
    });
    const listed = (await office.get(`/api/vehicles?schoolId=${other.id}&search=9041`)).body.items;
    expect(listed).toEqual([]);
  });

  it('refuses the same key on another route with 422, applying nothing', async () => {
    const key = randomUUID();
    const entry = (await addCar(front, '113', key)).body;
    const removal = await front.request(
      'DELETE',
      `/api/queue/${entry.id}`,
      { reason: 'picked_up', confirmUnreleased: true },
      keyed(key),
    );
    expect(removal.status).toBe(422);
    expect(removal.body).toEqual({
      message: 'This Idempotency-Key was already used for a different request',
    });
    expect((await activeQueue()).map((queued) => queued.vehicleNumber)).toEqual(['113']);
  });

  it('restores a car once when Undo is retried, answering the retry as the first time, not with a 409', async () => {
    const entry = (await addCar(front, '114', randomUUID())).body;
    await front.request(
      'DELETE',
      `/api/queue/${entry.id}`,
      { reason: 'picked_up', confirmUnreleased: true },
      keyed(randomUUID()),
    );
    const key = randomUUID();
    const undo = () => front.request('POST', `/api/queue/${entry.id}/restore`, undefined, keyed(key));
    const first = await undo();
    const again = await undo();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await activeQueue()).map((queued) => [queued.id, queued.vehicleNumber])).toEqual([
      [entry.id, '114'],
    ]);
    // Without the key, a second Undo of a car already back is refused.
    expect((await front.request('POST', `/api/queue/${entry.id}/restore`)).status).toBe(409);
  });

  it("applies another user's key as that user's own request, never answering with the first user's body", async () => {
    const key = randomUUID();
    const mine = await addCar(front, '108', key);
    expect(mine.status).toBe(201);
    const theirs = await addCar(back, '108', key);
    expect(theirs.status).toBe(409);
    expect(theirs.body).toEqual({ message: 'Vehicle 108 is already in the queue' });
    const otherKey = randomUUID();
    expect((await addCar(front, '112', otherKey)).status).toBe(201);
    const theirsElsewhere = await addCar(back, '109', otherKey);
    expect(theirsElsewhere.status).toBe(201);
    expect(theirsElsewhere.body.vehicleNumber).toBe('109');
  });

  it('leaves requests without a key as they were: a second add is refused', async () => {
    const add = () => front.post('/api/queue', { sessionId, vehicleNumber: '110', vehicleType: 'car' });
    expect((await add()).status).toBe(201);
    expect((await add()).status).toBe(409);
  });

  it('refuses a malformed key with 400 before applying anything', async () => {
    const answer = await addCar(front, '111', 'no');
    expect(answer.status).toBe(400);
    expect(await activeQueue()).toEqual([]);
  });
});

/**
 * Issue 54: the key of a car-line change is claimed by the change's own
 * transaction (ADR 0027), and its answer kept beside the change's fan-out.
 */
describe("an Idempotency-Key claimed in its change's transaction", () => {
  const setStatus = (entryId: string, status: string, key: string) =>
    front.request('PUT', `/api/queue/${entryId}/status`, { status }, keyed(key));

  it("answers a retry of a status change with the first answer and the replay header, never 'cannot go from ready to ready'", async () => {
    const entry = (await addCar(front, '115', randomUUID())).body;
    const key = randomUUID();
    const first = await setStatus(entry.id, 'ready', key);
    const again = await setStatus(entry.id, 'ready', key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('applies a status change once when two sends race, both answered with the same 200', async () => {
    const entry = (await addCar(front, '116', randomUUID())).body;
    const key = randomUUID();
    const answers = await Promise.all([setStatus(entry.id, 'ready', key), setStatus(entry.id, 'ready', key)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[1]?.body).toEqual(answers[0]?.body);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
  });

  it('keeps no refusal: a completion refused with 409 goes through when sent again with its key once its children are released', async () => {
    const entry = (await addCar(front, '117', randomUUID())).body;
    const key = randomUUID();
    const complete = () =>
      front.request('DELETE', `/api/queue/${entry.id}`, { reason: 'picked_up' }, keyed(key));
    const refused = await complete();
    expect(refused.status).toBe(409);
    expect(refused.body.unreleased.length).toBeGreaterThan(0);
    for (const child of refused.body.unreleased as Array<{ id: number }>) {
      expect((await teacher.put(`/api/teacher/students/${child.id}/release`)).status).toBe(200);
    }
    const done = await complete();
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: entry.id, status: 'completed' });
    expect((await activeQueue()).some((queued) => queued.id === entry.id)).toBe(false);
  });

  it("answers 409 'already made' to a retry whose first attempt committed and died before its answer was kept, applying nothing twice", async () => {
    const entry = (await addCar(front, '118', randomUUID())).body;
    const key = randomUUID();
    expect((await setStatus(entry.id, 'ready', key)).status).toBe(200);
    // As the record stands when the change committed with its key and the invocation died a minute ago.
    const me = (await front.get('/api/me')).body;
    await server.db.doc.send(
      new UpdateItemCommand({
        TableName: server.db.table,
        Key: { pk: { S: `IDEMPOTENCY#USER#${me.id}#${key}` }, sk: { S: 'IDEMPOTENCY' } },
        UpdateExpression: 'SET #state = :applied, appliedAt = :at REMOVE statusCode, headers, bodyBr',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':applied': { S: 'applied' },
          ':at': { N: String(Date.now() - 60_000) },
        },
      }),
    );
    const again = await setStatus(entry.id, 'ready', key);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: 'This change was already made. The screen shows where it stands now.',
    });
    expect((await activeQueue()).find((queued) => queued.id === entry.id)?.status).toBe('ready');
  });
});
