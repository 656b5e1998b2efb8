import { dateIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { type Student, students } from '@curbside/store';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSchoolWithStaff, parentThroughInvite } from '../support/fixtures';
import { openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The other adults a family allows to collect a child (issue 29): the family
 * keeps the list, every staff screen of the school reads it, no other family
 * sees it, and a one-day delegate is gone the next day.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let roster: Student[];
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
  roster = await students.listBySchool(server.db, 1);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

let accounts = 0;
/** A new parent following `student`, through an invite of `office` (the demo school's admin by default). */
const parentOf = async (student: Pick<Student, 'id'>, office = admin) => {
  accounts += 1;
  return parentThroughInvite(server.url, office, student.id, `pickups_parent_${accounts}`);
};
const today = () => dateIn(DEMO_TIME_ZONE);
const child = (i: number) => roster[i + 10] as Student;

describe('authorized pickups', () => {
  it('round-trip: added by the parent, listed, read by staff with the curb line, removed', async () => {
    const kid = child(0);
    const parent = await parentOf(kid);
    const rosa = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Grandma Rosa',
      relationship: 'Grandmother',
      phone: '555-0199',
    });
    expect(rosa.status).toBe(201);
    const ana = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Ana Ruiz',
      relationship: 'Neighbour',
      phone: '555-0198',
      onDate: today(),
    });
    expect(ana.status).toBe(201);
    const mine = await parent.get('/api/parent/authorized-pickups');
    expect(mine.body.map((p: { name: string }) => p.name)).toEqual(['Grandma Rosa', 'Ana Ruiz']);

    for (const staff of ['front_demo', 'back_demo', 'teacher_demo', 'admin_demo']) {
      const seen = await (await signedIn(server.url, staff)).get(
        `/api/students/${kid.id}/authorized-pickups`,
      );
      expect(seen.status).toBe(200);
      expect(seen.body.text).toBe('Also allowed: Grandma Rosa; today: Ana Ruiz');
    }

    expect((await parent.request('DELETE', `/api/parent/authorized-pickups/${rosa.body.id}`)).status).toBe(
      200,
    );
    const after = await admin.get(`/api/students/${kid.id}/authorized-pickups`);
    expect(after.body.pickups.map((p: { name: string }) => p.name)).toEqual(['Ana Ruiz']);
    expect(after.body.text).toBe('Today: Ana Ruiz');
  });

  it("another family cannot read or change a child's list (404)", async () => {
    const kid = child(1);
    const parent = await parentOf(kid);
    const other = await parentOf(child(2));
    const added = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Uncle Tom',
    });
    expect(added.status).toBe(201);
    expect((await other.get('/api/parent/authorized-pickups')).body).toEqual([]);
    expect(
      (await other.post('/api/parent/authorized-pickups', { studentId: kid.id, name: 'Stranger' })).status,
    ).toBe(404);
    expect((await other.request('DELETE', `/api/parent/authorized-pickups/${added.body.id}`)).status).toBe(
      404,
    );
    const still = await admin.get(`/api/students/${kid.id}/authorized-pickups`);
    expect(still.body.pickups.map((p: { name: string }) => p.name)).toEqual(['Uncle Tom']);
  });

  it('a one-day delegate is gone the next day', async () => {
    const kid = child(3);
    const parent = await parentOf(kid);
    await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Ana Ruiz',
      onDate: today(),
    });
    expect((await admin.get(`/api/students/${kid.id}/authorized-pickups`)).body.pickups).toHaveLength(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 24 * 3600_000);
    const front = await signedIn(server.url, 'front_demo');
    const next = await front.get(`/api/students/${kid.id}/authorized-pickups`);
    expect(next.body).toMatchObject({ pickups: [], text: null });
  });

  it("counts a one-day delegate's day in the school's own time zone, whatever the server's", async () => {
    const kid = child(5);
    const parent = await parentOf(kid);
    const settings = (await admin.get('/api/schools/1/settings')).body;
    // Noon UTC: still the morning of day D in Chicago, already day D+1 on Kiritimati (UTC+14).
    const noon = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(noon);
    const chicagoDay = dateIn('America/Chicago');
    expect(dateIn('Pacific/Kiritimati')).not.toBe(chicagoDay);
    const previousTz = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(
        (await admin.put('/api/schools/1/settings', { ...settings, timeZone: 'Pacific/Kiritimati' })).status,
      ).toBe(200);
      const answer = await parent.post('/api/parent/authorized-pickups', {
        studentId: kid.id,
        name: 'Late Larry',
        onDate: chicagoDay,
      });
      expect({ status: answer.status, message: answer.body.message }).toEqual({
        status: 400,
        message: 'The date is in the past',
      });
    } finally {
      if (previousTz === undefined) delete process.env.TZ;
      else process.env.TZ = previousTz;
      await admin.put('/api/schools/1/settings', settings);
    }
  });

  it('bad input is 400 with the field named', async () => {
    const kid = child(4);
    const parent = await parentOf(kid);
    const empty = await parent.post('/api/parent/authorized-pickups', { studentId: kid.id, name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors ?? empty.body.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'name' })]),
    );
    const past = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Late Larry',
      onDate: '2020-01-01',
    });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('onDate');
    for (let i = 0; i < 20; i++) {
      expect(
        (await parent.post('/api/parent/authorized-pickups', { studentId: kid.id, name: `Adult ${i}` }))
          .status,
      ).toBe(201);
    }
    const tooMany = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'One more',
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('At most 20 people can be allowed to pick up one child');
  });
});

describe('what the curb sees of an authorized adult (issue 49)', () => {
  it('who added each adult and when, for every staff role', async () => {
    const kid = child(5);
    const parent = await parentOf(kid);
    const { name } = (await parent.get('/api/me')).body;
    const before = Date.now();
    const added = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Grandpa Joe',
      relationship: 'Grandfather',
    });
    expect(added.status).toBe(201);
    for (const staff of ['front_demo', 'teacher_demo', 'admin_demo']) {
      const seen = (
        await (await signedIn(server.url, staff)).get(`/api/students/${kid.id}/authorized-pickups`)
      ).body;
      expect(seen.pickups).toEqual([
        expect.objectContaining({ name: 'Grandpa Joe', relationship: 'Grandfather', addedBy: name }),
      ]);
      expect(Date.parse(seen.pickups[0].createdAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    // The family's own list does not carry who added whom.
    expect((await parent.get('/api/parent/authorized-pickups')).body[0]).not.toHaveProperty('addedBy');
  });
});

describe("several children's lists in one read (issue 57, h57r)", () => {
  it('answers each asked child of the school with the list its own route answers; another school sees none of them', async () => {
    const [kid, plain, another] = [child(20), child(21), child(22)];
    const parent = await parentOf(kid);
    await parent.post('/api/parent/authorized-pickups', { studentId: kid.id, name: 'Grandma Rosa' });
    await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Ana Ruiz',
      onDate: today(),
    });
    const ids = [kid.id, plain.id, another.id];
    for (const staff of ['front_demo', 'back_demo', 'teacher_demo', 'admin_demo']) {
      const client = await signedIn(server.url, staff);
      const read = await client.get(`/api/authorized-pickups?studentIds=${ids.join(',')}`);
      expect(read.status).toBe(200);
      const alone = await Promise.all(
        ids.map(async (id) => ({
          studentId: id,
          ...(await client.get(`/api/students/${id}/authorized-pickups`)).body,
        })),
      );
      expect(read.body.lists).toEqual(alone);
    }
    expect((await admin.get(`/api/authorized-pickups?studentIds=${kid.id}`)).body.lists[0].text).toBe(
      'Also allowed: Grandma Rosa; today: Ana Ruiz',
    );

    // A parent, even the child's own, is refused; another school's staff get nothing of these children.
    expect((await parent.get(`/api/authorized-pickups?studentIds=${kid.id}`)).status).toBe(403);
    await createSchoolWithStaff(server.db, 'pickups_read_elsewhere');
    const stranger = await signedIn(server.url, 'pickups_read_elsewhere_front_queue_wrangler');
    expect((await stranger.get(`/api/students/${kid.id}/authorized-pickups`)).status).toBe(404);
    const theirs = await stranger.get(`/api/authorized-pickups?studentIds=${ids.join(',')}`);
    expect([theirs.status, theirs.body]).toEqual([200, { lists: [] }]);
  });

  it('refuses what is not a list of ids, and more than 100 children', async () => {
    for (const query of ['', '?studentIds=', '?studentIds=1,,2', '?studentIds=a', '?studentIds=1;2']) {
      expect((await admin.get(`/api/authorized-pickups${query}`)).status, query).toBe(400);
    }
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect((await admin.get(`/api/authorized-pickups?studentIds=${many}`)).status).toBe(400);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1).join(',');
    expect((await admin.get(`/api/authorized-pickups?studentIds=${hundred}`)).status).toBe(200);
  });
});

describe('a sandboxed school (issue 49)', () => {
  it("is read-only for parents' authorized adults too: adding and removing are 403, nothing changes", async () => {
    const school = await createSchoolWithStaff(server.db, 'pickups_sandbox');
    const office = await signedIn(server.url, 'pickups_sandbox_school_admin');
    const kid = (await office.post('/api/students', { firstName: 'Sam', lastName: 'Sand', grade: '1' })).body;
    const parent = await parentOf(kid, office);
    const kept = await parent.post('/api/parent/authorized-pickups', { studentId: kid.id, name: 'Aunt May' });
    expect(kept.status).toBe(201);
    const superAdmin = await signedIn(server.url, 'super_demo');
    expect((await superAdmin.put(`/api/schools/${school.id}/sandbox`, { sandbox: true })).status).toBe(200);

    const add = await parent.post('/api/parent/authorized-pickups', { studentId: kid.id, name: 'Mr Nobody' });
    const remove = await parent.request('DELETE', `/api/parent/authorized-pickups/${kept.body.id}`);

    const READ_ONLY = { message: 'Read-only mode: this school is in sandbox mode. Changes are not allowed.' };
    expect([add.status, add.body]).toEqual([403, READ_ONLY]);
    expect([remove.status, remove.body]).toEqual([403, READ_ONLY]);
    const list = (await parent.get('/api/parent/authorized-pickups')).body;
    expect(list.map((pickup: { name: string }) => pickup.name)).toEqual(['Aunt May']);
  });
});

describe('open staff screens (issue 50)', () => {
  it("hear of a child's authorized adults as a parent adds and removes them; no one else does", async () => {
    const kid = child(6);
    const parent = await parentOf(kid);
    const front = await signedIn(server.url, 'front_demo');
    const teacher = await signedIn(server.url, 'teacher_demo');
    await createSchoolWithStaff(server.db, 'pickups_elsewhere');
    const elsewhere = await signedIn(server.url, 'pickups_elsewhere_front_queue_wrangler');
    const [frontLive, teacherLive, otherRoomLive, otherLive, anonymous, parentLive] = await Promise.all([
      openLive(server.url, { cookie: front.cookie }),
      openLive(server.url, { cookie: teacher.cookie }),
      openLive(server.url, { cookie: teacher.cookie }),
      openLive(server.url, { cookie: elsewhere.cookie }),
      openLive(server.url),
      openLive(server.url, { cookie: parent.cookie }),
    ]);
    // A teacher's screen follows its classrooms only (issue 31): the child's classroom hears of it, another does not.
    const otherRoom = roster.find((student) => student.classroomId !== kid.classroomId)?.classroomId;
    teacherLive.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [kid.classroomId] }));
    otherRoomLive.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [otherRoom] }));
    await Promise.all([teacherLive.next('subscribed'), otherRoomLive.next('subscribed')]);

    const added = await parent.post('/api/parent/authorized-pickups', {
      studentId: kid.id,
      name: 'Cousin Vinny',
      relationship: 'Cousin',
    });
    expect(added.status).toBe(201);
    for (const screen of [frontLive, teacherLive]) {
      const event = await screen.next('AUTHORIZED_PICKUPS_CHANGED');
      expect(event.data).toMatchObject({
        schoolId: 1,
        studentId: kid.id,
        text: 'Also allowed: Cousin Vinny',
        pickups: [
          expect.objectContaining({
            name: 'Cousin Vinny',
            relationship: 'Cousin',
            addedBy: expect.any(String),
          }),
        ],
      });
    }
    frontLive.messages.length = 0;
    expect((await parent.request('DELETE', `/api/parent/authorized-pickups/${added.body.id}`)).status).toBe(
      200,
    );
    const removed = await frontLive.next('AUTHORIZED_PICKUPS_CHANGED');
    expect(removed.data).toMatchObject({ studentId: kid.id, pickups: [], text: null });

    // Another classroom's screen, another school's staff, an anonymous screen and the parent's own phone heard nothing.
    for (const other of [otherRoomLive, otherLive, anonymous, parentLive])
      expect(other.messages.filter((message) => message.type === 'AUTHORIZED_PICKUPS_CHANGED')).toEqual([]);
    await Promise.all(
      [frontLive, teacherLive, otherRoomLive, otherLive, anonymous, parentLive].map((screen) =>
        screen.close(),
      ),
    );
  });
});
