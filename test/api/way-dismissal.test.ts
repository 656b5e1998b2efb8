import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { instantIn, type Vehicle } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { classrooms, releases, type Student, students, vehicles } from '@curbside/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';
import { newVehicle } from '../support/vehicles';

/**
 * The whole dismissal by way home (issue 52, ADR 0022): walkers released in
 * one press, a bus's riders and a program's list that follow the day's
 * changes, and a car line that calls only the children going home in the
 * car today. The school's clock is a Wednesday morning in Chicago (the demo
 * school's zone), set by faking the server's clock (it shares the process).
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
let teacher: Client;
let sessionId: number;
let roomId: number;
let room: Student[];
let fleet: Vehicle[];

const WEDNESDAY = '2026-11-25';

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(DEMO_TIME_ZONE, WEDNESDAY, '10:00'));
  server = await startTestServer();
  [admin, front, teacher] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'teacher_demo'),
  ]);
  const rooms = await classrooms.listBySchool(server.db, 1);
  roomId = (rooms.find((candidate) => candidate.name === 'Room 12') as { id: number }).id;
  room = (await students.listByClassroom(server.db, 1, roomId)).sort((a, b) => a.id - b.id);
  fleet = await vehicles.listBySchool(server.db, 1);
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});
afterAll(async () => {
  vi.useRealTimers();
  await server?.close();
});

/** A new classroom of the school with three children of one family name: Ada, Ben and Cy. */
const roomOf = async (name: string, lastName: string, grade: string) => {
  const { id: classroomId } = await classrooms.create(server.db, {
    schoolId: 1,
    name,
    grade,
    teacherId: null,
  });
  const kids = await Promise.all(
    ['Ada', 'Ben', 'Cy'].map((firstName) =>
      students.create(server.db, { schoolId: 1, firstName, lastName, grade, classroomId }),
    ),
  );
  return { classroomId, kids };
};
const walk = { mode: 'walker' } as const;
const everyDay = (way: object) => ({ mon: way, tue: way, wed: way, thu: way, fri: way });
const setPlan = async (student: Student, way: object) =>
  expect(
    (await admin.put(`/api/students/${student.id}/dismissal-plan`, { plan: everyDay(way) })).status,
  ).toBe(200);
/** The office's change of a child's way home today (approved at once). */
const changeToday = async (student: Student, way: object, note?: string) => {
  const answer = await admin.post('/api/dismissal-changes', {
    studentId: student.id,
    date: WEDNESDAY,
    way,
    ...(note ? { note } : {}),
  });
  expect(answer.status).toBe(201);
  return answer.body.change;
};
/** A car none of whose children is in Room 12 (whose children the other tests change). */
const outsideRoom = (vehicle: Vehicle) =>
  vehicle.type === 'car' && vehicle.studentIds.every((id) => !room.some((student) => student.id === id));
const carOf = (student: Student) =>
  fleet.find((vehicle) => vehicle.type === 'car' && vehicle.studentIds.includes(student.id)) as Vehicle;
const busOf = (student: Student) =>
  fleet.find((vehicle) => vehicle.type === 'bus' && vehicle.studentIds.includes(student.id));
/** The Room 12 children who ride a car of their family (as the seed registers them). */
const carRiders = () => room.filter((student) => carOf(student) && !busOf(student));
const teacherList = async () =>
  (await teacher.get(`/api/teacher/students?sessionId=${sessionId}`)).body as Array<{
    id: number;
    classroomId: number | null;
    releasedAt: string | null;
    today: { way: { mode: string }; source: string; usual?: { mode: string }; note?: string };
  }>;

describe('walkers', () => {
  let walkers: Student[];
  beforeAll(async () => {
    // Two of Room 12's car riders walk every day; a third walks but is absent today.
    const [a, b, c] = carRiders().slice(-3) as [Student, Student, Student];
    walkers = [a, b];
    await Promise.all([setPlan(a, walk), setPlan(b, walk), setPlan(c, walk)]);
    await changeToday(c, { mode: 'absent' });
  });

  it('are released in one press, each once, recorded with their actor; an absent walker is not released', async () => {
    const before = await teacherList();
    const present = before
      .filter((student) => student.classroomId === roomId && student.today.way.mode === 'walker')
      .map((s) => s.id);
    expect(present).toEqual(expect.arrayContaining(walkers.map((walker) => walker.id)));
    // As the teacher's tablet sends it: with an Idempotency-Key, claimed in the release's own transaction.
    const press = { classroomIds: [roomId] };
    const key = { 'idempotency-key': 'walkers-press-room-12' };
    const first = await teacher.request('POST', '/api/walkers/release', press, key);
    expect(first.status).toBe(200);
    expect([...first.body.released].sort()).toEqual([...present].sort());
    // Its answer lost, the same press again: the first answer, nobody released twice.
    const retry = await teacher.request('POST', '/api/walkers/release', press, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const second = await teacher.post('/api/walkers/release', { classroomIds: [roomId] });
    expect(second.body).toEqual({ released: [] });

    const after = await teacherList();
    for (const id of present) expect(after.find((s) => s.id === id)?.releasedAt).toEqual(expect.any(String));
    const absent = after.filter(
      (student) => student.classroomId === roomId && student.today.way.mode === 'absent',
    );
    expect(absent.length).toBeGreaterThan(0);
    for (const student of absent) expect(student.releasedAt).toBeNull();
    // Car riders are not released by the walkers' press.
    for (const student of after.filter((s) => s.today.way.mode === 'car'))
      expect(student.releasedAt).toBeNull();

    const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items as any[];
    const released = events.filter((event) => event.kind === 'students_released');
    expect(released).toHaveLength(1);
    expect(released[0]).toMatchObject({
      actor: { role: 'teacher', name: expect.any(String) },
      way: { mode: 'walker', name: 'Walker' },
    });
    expect(released[0].students.map((s: { id: number }) => s.id).sort()).toEqual([...present].sort());

    const report = (await admin.get(`/api/sessions/${sessionId}/report`)).body;
    expect(report.summary.releasesByWay.walker).toBe(present.length);
  });

  it('refuses another school’s classroom and an empty list', async () => {
    expect((await teacher.post('/api/walkers/release', { classroomIds: [987654] })).status).toBe(404);
    expect((await teacher.post('/api/walkers/release', { classroomIds: [] })).status).toBe(400);
  });

  it('a press that meets a child released meanwhile answers, and answers again to its retry, only those it released', async () => {
    const { classroomId, kids } = await roomOf('Room 98', 'Racer', '3');
    await Promise.all(kids.map((kid) => setPlan(kid, walk)));
    const [taken, ...others] = kids as [Student, ...Student[]];
    // Another tablet released Ada a moment ago, after this press read the marks (their read is eventually
    // consistent): as this press sees them, nobody is released yet.
    await releases.release(server.db, { schoolId: 1, sessionId }, taken, {
      actor: { id: 1, username: 'admin_demo', role: 'school_admin' },
      retentionDays: 30,
    });
    const marks = vi.spyOn(releases, 'keyedReleaseMarks').mockImplementation(() => ({
      keys: [],
      from: () => new Map(),
    }));
    const press = { classroomIds: [classroomId] };
    const key = { 'idempotency-key': 'walkers-press-room-98' };
    const first = await teacher
      .request('POST', '/api/walkers/release', press, key)
      .finally(() => marks.mockRestore());
    const released = others.map((kid) => kid.id).sort((a, b) => a - b);
    expect(first.status).toBe(200);
    expect([...first.body.released].sort((a, b) => a - b)).toEqual(released);
    // Its answer lost: the retry gets the first answer (kept by the transaction that released them), not Ada.
    const retry = await teacher.request('POST', '/api/walkers/release', press, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    // The record names each child once: Ada by her own release, the others by this press.
    const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items as any[];
    const named = events
      .filter((event) => event.kind === 'students_released' && event.way?.mode === 'walker')
      .flatMap((event) => event.students.map((s: { id: number }) => s.id))
      .filter((id: number) => kids.some((kid) => kid.id === id));
    expect(named.sort((a: number, b: number) => a - b)).toEqual(released);
  });

  it('follow today’s change of a child whose upcoming item overflowed (read by Query then)', async () => {
    const { id: classroomId } = await classrooms.create(server.db, {
      schoolId: 1,
      name: 'Room 99',
      grade: '3',
      teacherId: null,
    });
    const [kept, overflowed] = await Promise.all(
      ['Kept', 'Overflowed'].map((firstName) =>
        students.create(server.db, { schoolId: 1, firstName, lastName: 'Walker', grade: '3', classroomId }),
      ),
    );
    // As a student's upcoming item past 200 KB stands: the overflow mark alone (a safety; none should grow so).
    await server.db.doc.send(
      new PutItemCommand({
        TableName: server.db.table,
        Item: {
          pk: { S: `SCHOOL#1#STUDENT#${overflowed?.id}#CHANGES` },
          sk: { S: 'UPCOMING' },
          entity: { S: 'upcomingChanges' },
          schoolId: { N: '1' },
          overflow: { BOOL: true },
        },
      }),
    );
    await Promise.all([changeToday(kept as Student, walk), changeToday(overflowed as Student, walk)]);
    const answer = await teacher.post('/api/walkers/release', { classroomIds: [classroomId] });
    expect(answer.status).toBe(200);
    expect([...answer.body.released].sort((a, b) => a - b)).toEqual(
      [kept?.id, overflowed?.id].sort((a, b) => (a as number) - (b as number)),
    );
  });
});

describe('the car line', () => {
  it('does not call a car’s absent child: struck through with the reason, not in the teacher’s list', async () => {
    const car = fleet.find((vehicle) => outsideRoom(vehicle) && vehicle.studentIds.length >= 2) as Vehicle;
    const [absentId, comingId] = car.studentIds as [number, number];
    const absent = (await students.getMany(server.db, 1, [absentId]))[0] as Student;
    await changeToday(absent, { mode: 'absent' });
    const queued = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: car.number,
      vehicleType: 'car',
    });
    expect(queued.status).toBe(201);
    expect(queued.body.students.map((s: { id: number }) => s.id)).toContain(comingId);
    expect(queued.body.students.map((s: { id: number }) => s.id)).not.toContain(absentId);
    expect(queued.body.notCalled).toEqual([
      expect.objectContaining({ id: absentId, reason: 'Absent today' }),
    ]);
    const batch = (await front.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    await front.post(`/api/batches/${batch.id}/vehicles`);
    const office = await signedIn(server.url, 'admin_demo');
    const ready = (await office.get(`/api/teacher/students/ready?sessionId=${sessionId}`)).body as Array<{
      id: number;
    }>;
    expect(ready.map((s) => s.id)).toContain(comingId);
    expect(ready.map((s) => s.id)).not.toContain(absentId);
    const recorded = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items.find(
      (event: any) => event.kind === 'vehicle_queued' && event.entries[0]?.vehicleNumber === car.number,
    );
    expect(recorded.entries[0].notCalled).toEqual([
      expect.objectContaining({ id: absentId, reason: 'Absent today' }),
    ]);
  });

  it('warns of a car whose every child is elsewhere today, and queues it when the staff say so', async () => {
    const outside = fleet.filter((vehicle) => outsideRoom(vehicle) && vehicle.studentIds.length > 0);
    // Neither the car of the test before nor the friend's car of the next one.
    const used = [
      outside.find((v) => v.studentIds.length >= 2),
      outside.filter((v) => v.studentIds.length >= 2).at(-1),
    ];
    const car = outside.find((vehicle) => !used.includes(vehicle)) as Vehicle;
    const kids = await students.getMany(server.db, 1, car.studentIds);
    const only = kids[0] as Student;
    const bus = fleet.find((vehicle) => vehicle.type === 'bus') as Vehicle;
    await Promise.all(kids.map((kid) => changeToday(kid, { mode: 'bus', vehicleId: bus.id })));
    const refused = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: car.number,
      vehicleType: 'car',
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      message: expect.stringContaining(
        `Nobody in Car ${car.number} goes home in it today (${only.firstName} ${only.lastName}: Bus B${bus.number} today`,
      ),
      notComing: kids.map((kid) =>
        expect.objectContaining({ id: kid.id, reason: `Bus B${bus.number} today` }),
      ),
    });
    const anyway = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: car.number,
      vehicleType: 'car',
      queueAnyway: true,
    });
    expect(anyway.status).toBe(201);
    expect(anyway.body.students).toEqual([]);
  });

  it('calls a child changed to another family’s car today with that car, and not with their own', async () => {
    const [guest] = carRiders() as [Student];
    const own = carOf(guest);
    const friend = fleet
      .filter((vehicle) => outsideRoom(vehicle) && vehicle.studentIds.length >= 2)
      .at(-1) as Vehicle;
    const change = await changeToday(guest, { mode: 'car', vehicleNumber: friend.number }, 'With the Lees');
    expect(change.way).toEqual({ mode: 'car', vehicleId: friend.id, vehicleNumber: friend.number });
    const withFriend = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: friend.number,
      vehicleType: 'car',
    });
    expect(withFriend.status).toBe(201);
    expect(withFriend.body.students.map((s: { id: number }) => s.id)).toContain(guest.id);
    const withOwn = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: own.number,
      vehicleType: 'car',
      queueAnyway: true,
    });
    expect(withOwn.body.students.map((s: { id: number }) => s.id)).not.toContain(guest.id);
    expect(withOwn.body.notCalled).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: guest.id, reason: `Car ${friend.number} today` }),
      ]),
    );
    // Picked up with the friend's car: the child's history names that day's way home.
    const done = await front.put(`/api/queue/${withFriend.body.id}/status`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(done.status).toBe(200);
    const history = (await admin.get(`/api/students/${guest.id}/pickups`)).body;
    expect(history[0]).toMatchObject({ vehicleNumber: friend.number, wayHome: `Car ${friend.number}` });
    const listed = (await teacherList()).find((student) => student.id === guest.id);
    expect(listed?.today).toMatchObject({ source: 'change', way: { mode: 'car' }, note: 'With the Lees' });
    expect(
      (
        await admin.post('/api/dismissal-changes', {
          studentId: guest.id,
          date: WEDNESDAY,
          way: { mode: 'car', vehicleNumber: 'NOPE9' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('bus riders', () => {
  it('follow today’s changes: a rider who walks today is not riding, a child changed to the bus is', async () => {
    const rider = (await students.listBySchool(server.db, 1)).find((student) => busOf(student)) as Student;
    const bus = busOf(rider) as Vehicle;
    const before = (await front.get(`/api/buses/${bus.id}/riders`)).body;
    expect(before).toMatchObject({ date: WEDNESDAY, vehicleId: bus.id, number: bus.number });
    expect(before.riders.map((s: { id: number }) => s.id)).toContain(rider.id);
    const [newcomer] = carRiders().slice(1) as [Student];
    await Promise.all([changeToday(rider, walk), changeToday(newcomer, { mode: 'bus', vehicleId: bus.id })]);
    const after = (await front.get(`/api/buses/${bus.id}/riders`)).body;
    expect(after.riders.map((s: { id: number }) => s.id)).not.toContain(rider.id);
    expect(after.riders).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: newcomer.id, classroom: 'Room 12' })]),
    );
    expect(after.notRiding).toEqual([expect.objectContaining({ id: rider.id, reason: 'Walker today' })]);
    // Another day: the weekly plans alone.
    const thursday = (await front.get(`/api/buses/${bus.id}/riders?date=2026-11-26`)).body;
    expect(thursday.riders.map((s: { id: number }) => s.id)).toContain(rider.id);
    expect(thursday.riders.map((s: { id: number }) => s.id)).not.toContain(newcomer.id);
    // A day with no plan day (a Saturday event): the bus's registered riders ride it.
    const saturday = (await front.get(`/api/buses/${bus.id}/riders?date=2026-11-28`)).body;
    expect(saturday.riders.map((s: { id: number }) => s.id).sort()).toEqual([...bus.studentIds].sort());
    const car = fleet.find((vehicle) => vehicle.type === 'car') as Vehicle;
    expect((await front.get(`/api/buses/${car.id}/riders`)).status).toBe(404);

    // Released in one tap by the newcomer's teacher: once.
    const released = await teacher.post(`/api/buses/${bus.id}/release`, { classroomIds: [roomId] });
    const ofRoom = after.riders.filter((s: { classroomId: number }) => s.classroomId === roomId);
    expect([...released.body.released].sort()).toEqual(ofRoom.map((s: { id: number }) => s.id).sort());
    expect(released.body.released).toContain(newcomer.id);
    expect((await teacher.post(`/api/buses/${bus.id}/release`, { classroomIds: [roomId] })).body).toEqual({
      released: [],
    });
  });
});

describe("a bus's riders released before their riders item was filled", () => {
  it('are found by their plans all the same (every child of the classroom read, as before)', async () => {
    const bus = await vehicles.create(server.db, newVehicle(1, 'M1', 'bus'));
    const { classroomId, kids } = await roomOf('Room M', 'Moss', '2');
    const [ada, ben, cy] = kids as [Student, Student, Student];
    await Promise.all([
      setPlan(ada, { mode: 'bus', vehicleId: bus.id }),
      setPlan(ben, { mode: 'bus', vehicleId: bus.id }),
      setPlan(cy, walk),
    ]);
    // As on a table whose riders the migration (`index-bus-riders`) has not listed yet.
    await server.db.doc.send(
      new DeleteItemCommand({
        TableName: server.db.table,
        Key: { pk: { S: `SCHOOL#1#BUS#${bus.id}#RIDERS` }, sk: { S: 'RIDERS' } },
      }),
    );
    const released = await teacher.post(`/api/buses/${bus.id}/release`, { classroomIds: [classroomId] });
    expect(released.status).toBe(200);
    expect([...released.body.released].sort()).toEqual([ada.id, ben.id].sort());
  });
});

describe('programs', () => {
  let program: { id: number; name: string };
  beforeEach(async () => {
    if (program) return;
    program = (await admin.post('/api/programs', { name: 'Kids Club', kind: 'after_care', location: 'Gym' }))
      .body;
  });

  it('list today’s children by their plans and changes, are sent in one press, and check each child in', async () => {
    const [planned, changed, leaving] = carRiders().slice(2, 5) as [Student, Student, Student];
    await Promise.all([
      setPlan(planned, { mode: 'program', programId: program.id }),
      setPlan(leaving, { mode: 'program', programId: program.id }),
    ]);
    await Promise.all([
      changeToday(changed, { mode: 'program', programId: program.id }, 'Mom works late'),
      changeToday(leaving, { mode: 'absent' }),
    ]);
    const list = (await front.get(`/api/programs/${program.id}/students`)).body;
    expect(list).toMatchObject({
      date: WEDNESDAY,
      program: { id: program.id, name: 'Kids Club', location: 'Gym' },
    });
    const ids = list.students.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([planned.id, changed.id]));
    expect(ids).not.toContain(leaving.id);
    expect(list.students.find((s: { id: number }) => s.id === changed.id)).toMatchObject({
      note: 'Mom works late',
      classroom: 'Room 12',
      releasedAt: null,
      checkedInAt: null,
    });

    const sent = await teacher.post(`/api/programs/${program.id}/release`, { classroomIds: [roomId] });
    expect([...sent.body.released].sort()).toEqual([planned.id, changed.id].sort());
    const checked = await front.put(`/api/students/${changed.id}/program-check-in`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({
      programId: program.id,
      studentId: changed.id,
      checkedInAt: expect.any(String),
    });
    const again = await front.put(`/api/students/${changed.id}/program-check-in`);
    expect(again.body.checkedInAt).toBe(checked.body.checkedInAt);
    const seen = (await admin.get(`/api/programs/${program.id}/students`)).body.students.find(
      (s: { id: number }) => s.id === changed.id,
    );
    expect(seen).toMatchObject({
      releasedAt: expect.any(String),
      releasedBy: expect.any(String),
      checkedInAt: checked.body.checkedInAt,
      checkedInBy: expect.any(String),
    });
    const undone = await front.request('DELETE', `/api/students/${changed.id}/program-check-in`);
    expect(undone.body.checkedInAt).toBeNull();
    expect((await front.put(`/api/students/${leaving.id}/program-check-in`)).status).toBe(404);
    const history = (await admin.get(`/api/students/${changed.id}/way-history`)).body as Array<{
      kind: string;
    }>;
    expect(history.map((event) => event.kind)).toEqual(
      expect.arrayContaining(['program_checked_in', 'program_check_in_undone']),
    );
  });
});
