import { dateIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { type Student, students } from '@curbside/store';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parentThroughInvite } from '../support/fixtures';
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
/** A new parent following `student`, through an invite. */
const parentOf = async (student: Student) => {
  accounts += 1;
  return parentThroughInvite(server.url, admin, student.id, `pickups_parent_${accounts}`);
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
    expect(next.body).toEqual({ pickups: [], text: null });
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
