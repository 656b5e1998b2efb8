import { classrooms, type Student, students, vehicles } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, createStaff, parentThroughInvite, sessionBody } from '../support/fixtures';
import { type LiveClient, openLive, settled, subscribeClassrooms } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Who hears a family's arrival (issue 53): the school's front screens and the
 * children's teachers; not a teacher of another classroom, not the announcing
 * parent nor another parent, not another school's screens.
 */
type Screen = LiveClient;
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
const screens: Screen[] = [];
let kid: Student;
let classmate: Student;
let otherRoom: number;

const screenOf = async (client: Client) => {
  const screen = await openLive(server.url, { cookie: client.cookie });
  screens.push(screen);
  return screen;
};

const arrivalsOf = (screen: Screen) =>
  screen.messages.filter((message) => message.type === 'ARRIVAL_ANNOUNCED');

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
  const rooms = (await classrooms.listAll(server.db, 1)).filter((room) => room.active);
  const carried = new Set(
    (await vehicles.listBySchool(server.db, 1))
      .filter((vehicle) => vehicle.type === 'car' && vehicle.active)
      .flatMap((vehicle) => vehicle.studentIds),
  );
  const roster = await students.listBySchool(server.db, 1);
  const riders = roster.filter((student) => student.classroomId === rooms[0]?.id && carried.has(student.id));
  [kid, classmate] = riders as [Student, Student];
  otherRoom = (rooms[1] as { id: number }).id;
  await createStaff(server.db, {
    username: 'arrival_teacher_b',
    role: 'teacher',
    schoolId: 1,
    districtId: 1,
  });
  const everyDay = {
    plan: {
      mon: { mode: 'car' },
      tue: { mode: 'car' },
      wed: { mode: 'car' },
      thu: { mode: 'car' },
      fri: { mode: 'car' },
    },
  };
  expect((await admin.put(`/api/students/${kid.id}/dismissal-plan`, everyDay)).status).toBe(200);
  const settings = (await admin.get('/api/schools/1/settings')).body;
  expect(
    (
      await admin.put('/api/schools/1/settings', {
        ...settings,
        arrival: { mode: 'confirm', geofence: null },
      })
    ).status,
  ).toBe(200);
  const active = (await admin.get('/api/sessions/active')).body;
  if (active) await admin.put(`/api/sessions/${active.id}/end`);
  expect((await admin.post('/api/sessions', sessionBody())).status).toBe(201);
});
afterAll(async () => {
  for (const screen of screens) await screen.close();
  await server?.close();
});

describe('an arrival', () => {
  it("reaches the school's front screens and the children's teachers, and no parent, other classroom or other school", async () => {
    const [parent, otherParent] = await Promise.all([
      parentThroughInvite(server.url, admin, kid.id, 'arrival_ws_parent'),
      parentThroughInvite(server.url, admin, classmate.id, 'arrival_ws_other_parent'),
    ]);
    await createSchoolWithStaff(server.db, 'arrival_ws_other');
    const [front, teacherA, teacherB, elsewhere] = await Promise.all([
      signedIn(server.url, 'front_demo'),
      signedIn(server.url, 'teacher_demo'),
      signedIn(server.url, 'arrival_teacher_b'),
      signedIn(server.url, 'arrival_ws_other_front_queue_wrangler'),
    ]);
    const frontScreen = await screenOf(front);
    const childsTeacher = await screenOf(teacherA);
    const otherTeacher = await screenOf(teacherB);
    const family = await screenOf(parent);
    const otherFamily = await screenOf(otherParent);
    const otherSchool = await screenOf(elsewhere);
    await subscribeClassrooms(childsTeacher, [kid.classroomId as number]);
    await subscribeClassrooms(otherTeacher, [otherRoom]);

    const announced = await parent.post('/api/parent/arrivals', { state: 'here' });
    expect(announced.status).toBe(201);
    const heard = await frontScreen.next('ARRIVAL_ANNOUNCED', 10_000);
    expect(heard.data.arrival).toMatchObject({
      id: announced.body.arrival.id,
      state: 'here',
      studentIds: [kid.id],
      schoolId: 1,
    });
    const teacherHeard = await childsTeacher.next('ARRIVAL_ANNOUNCED', 10_000);
    expect(teacherHeard.data.arrival.studentIds).toEqual([kid.id]);

    for (const screen of [otherTeacher, family, otherFamily, otherSchool]) {
      await settled(screen);
      expect(arrivalsOf(screen)).toEqual([]);
    }
    // Nothing of it in anyone's messages but staff's: no parent's socket carries a position or the arrival.
    expect(JSON.stringify([...family.messages, ...otherFamily.messages])).not.toContain(
      announced.body.arrival.id,
    );
  });
});
