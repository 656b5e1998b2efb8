import { instantIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { classrooms, type Student, students } from '@curbside/store';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStaff, parentThroughInvite } from '../support/fixtures';
import { type LiveClient, openLive, settled, subscribeClassrooms } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Who hears about a child's way home (issue 51): an approved change for today
 * reaches the child's teacher (a screen subscribed to the child's classroom)
 * and the office's screen, not a teacher of another classroom; the parent
 * hears the office's decision.
 */
type Screen = LiveClient;
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
const screens: Screen[] = [];
let kid: Student;
let otherRoom: number;

const screenOf = async (client: Client) => {
  const screen = await openLive(server.url, { cookie: client.cookie });
  screens.push(screen);
  return screen;
};

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
  const rooms = (await classrooms.listAll(server.db, 1)).filter((room) => room.active);
  const roster = await students.listBySchool(server.db, 1);
  kid = roster.find((student) => student.classroomId === rooms[0]?.id) as Student;
  otherRoom = (rooms[1] as { id: number }).id;
  await createStaff(server.db, { username: 'ways_teacher_b', role: 'teacher', schoolId: 1, districtId: 1 });
});
afterAll(async () => {
  for (const screen of screens) await screen.close();
  await server?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a change of a way home', () => {
  it("reaches the child's teacher and the office, not another classroom's teacher; the parent hears the decision", async () => {
    const settings = (await admin.get('/api/schools/1/settings')).body;
    await admin.put('/api/schools/1/settings', { ...settings, changeApproval: 'office' });
    // Wednesday morning at the school.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(instantIn(DEMO_TIME_ZONE, '2026-11-25', '10:00'));

    const parent = await parentThroughInvite(server.url, admin, kid.id, 'ways_ws_parent');

    const [teacherA, teacherB] = await Promise.all([
      signedIn(server.url, 'teacher_demo'),
      signedIn(server.url, 'ways_teacher_b'),
    ]);
    const office = await screenOf(admin);
    const childsTeacher = await screenOf(teacherA);
    const otherTeacher = await screenOf(teacherB);
    const family = await screenOf(parent);
    await subscribeClassrooms(childsTeacher, [kid.classroomId as number]);
    await subscribeClassrooms(otherTeacher, [otherRoom]);

    const asked = await parent.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: '2026-11-25',
      way: { mode: 'walker' },
    });
    expect(asked.body.change.status).toBe('pending');
    // The office's list hears the request at once; no teacher hears a pending request.
    const request = await office.next('DISMISSAL_CHANGE_UPDATED', 10_000);
    expect(request.data.change).toMatchObject({
      id: asked.body.change.id,
      status: 'pending',
      student: { id: kid.id },
    });

    expect((await admin.post(`/api/dismissal-changes/${asked.body.change.id}/approve`)).status).toBe(200);
    const told = await childsTeacher.next('DISMISSAL_PLAN_CHANGED', 10_000);
    expect(told.data).toMatchObject({
      date: '2026-11-25',
      students: [
        { studentId: kid.id, way: { mode: 'walker' }, source: 'change', changeId: asked.body.change.id },
      ],
      change: { status: 'approved' },
    });
    const decision = await vi.waitFor(
      () => {
        const found = family.messages.find(
          (message) =>
            message.type === 'DISMISSAL_CHANGE_UPDATED' && message.data.change.status === 'approved',
        );
        expect(found).toBeDefined();
        return found;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(decision?.data.change).toMatchObject({ id: asked.body.change.id, studentId: kid.id });
    await office.next('DISMISSAL_PLAN_CHANGED', 10_000);

    await settled(otherTeacher);
    expect(otherTeacher.messages.filter((message) => message.type.startsWith('DISMISSAL_'))).toEqual([]);
    await settled(childsTeacher);
    expect(childsTeacher.messages.filter((message) => message.type === 'DISMISSAL_CHANGE_UPDATED')).toEqual(
      [],
    );
    // The family hears only about its own child.
    expect(
      family.messages.filter(
        (message) => message.type.startsWith('DISMISSAL_') && message.data.change?.studentId !== kid.id,
      ),
    ).toEqual([]);
    await admin.put('/api/schools/1/settings', settings);
  });

  it('a change for another day reaches no teacher', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(instantIn(DEMO_TIME_ZONE, '2026-11-25', '10:00'));
    const teacher = await signedIn(server.url, 'teacher_demo');
    const screen = await screenOf(teacher);
    await subscribeClassrooms(screen, [kid.classroomId as number]);
    const made = await admin.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: '2026-11-26',
      way: { mode: 'absent' },
    });
    expect(made.status).toBe(201);
    await settled(screen);
    expect(screen.messages.filter((message) => message.type.startsWith('DISMISSAL_'))).toEqual([]);
  });
});
