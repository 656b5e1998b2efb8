import { meter } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The teacher's student lists are read per classroom: the call reads the
 * classrooms' students, the school's vehicles (each student's ride), the
 * active queue and the classrooms' release marks, not the whole school's
 * students.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let teacher: Client;
let front: Client;
let sessionId: number;
let roomId: number;
beforeAll(async () => {
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
  teacher = await signedIn(server.url, 'teacher_demo');
  front = await signedIn(server.url, 'front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  const me = (await teacher.get('/api/me')).body;
  roomId = ((await teacher.get('/api/classrooms')).body as any[]).find((room) => room.teacherId === me.id).id;
});
afterAll(async () => {
  await server?.close();
  delete process.env.CURBSIDE_METER;
});

const metered = async (path: string) => {
  meter.reset();
  const answer = await teacher.get(path);
  return { answer, counters: meter.snapshot()['http/teacherStudents'] ?? {} };
};

describe("the teacher's students of some classrooms", () => {
  it('lists only those classrooms, with rides, queue state and versions as the whole-school list shows them', async () => {
    const entry = (await front.post('/api/queue', { sessionId, vehicleNumber: '101', vehicleType: 'car' }))
      .body;
    const mine = (await teacher.get(`/api/teacher/students?sessionId=${sessionId}&classroomIds=${roomId}`))
      .body;
    expect(mine).toHaveLength(10);
    expect(mine.every((student: any) => student.classroomId === roomId)).toBe(true);
    const all = (await teacher.get(`/api/teacher/students?sessionId=${sessionId}`)).body as any[];
    expect(mine).toEqual(all.filter((student) => student.classroomId === roomId));
    const ava = mine.find((student: any) => student.firstName === 'Ava' && student.lastName === 'Martinez');
    expect(ava).toMatchObject({
      inQueue: true,
      entryId: entry.id,
      entryVersion: 1,
      vehicle: { type: 'car', number: '101' },
      classroom: { id: roomId, name: 'Room 12' },
    });
    const walker = mine.find((student: any) => !student.inQueue && student.vehicle);
    expect(walker.vehicle).toEqual({
      type: expect.any(String),
      number: expect.any(String),
      parentName: expect.any(String),
    });
    const ready = (
      await teacher.get(`/api/teacher/students/ready?sessionId=${sessionId}&classroomIds=${roomId}`)
    ).body;
    expect(ready.map((student: any) => student.id)).toEqual([ava.id]);
  });

  it('reads one Query per classroom, fewer units than the whole school', async () => {
    const one = await metered(`/api/teacher/students?sessionId=${sessionId}&classroomIds=${roomId}`);
    expect(one.answer.status).toBe(200);
    // The school's classrooms, the classroom's students, the school's vehicles, the active queue,
    // the classroom's release marks; and the changes that may fall on the day (issue 52's ways
    // home: the dated ones and the repeating ones in one Query since issue 54).
    expect(one.counters['ddb.Query.calls']).toBe(6);
    // Two BatchGetItems: the caller's sign-in and user; the classroom's students' weekly plans
    // (issue 52), by key. No student read by key.
    expect(one.counters['ddb.BatchGetItem.calls']).toBe(2);
    const school = await metered(`/api/teacher/students?sessionId=${sessionId}`);
    expect(one.counters['ddb.readUnits']).toBeLessThan(school.counters['ddb.readUnits'] ?? 0);
  });

  it('answers 400 for classroom ids that are not numbers', async () => {
    const bad = await teacher.get(`/api/teacher/students?sessionId=${sessionId}&classroomIds=1,x`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Classroom ids must be numbers separated by commas');
  });
});
