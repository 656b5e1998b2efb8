import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { addDays, dateIn, isSchoolDay } from '@curbside/domain';
import { localDynamoClient } from '@curbside/local';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { arrivals, parentLinks, students, users, wayEvents } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parentThroughInvite, sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * A family's data, kept and erased as the law says (issue 55):
 * `GET /api/students/{id}/export` hands over everything Curbside holds about a
 * student; `POST /api/students/{id}/erase` removes it everywhere, and a read
 * of the whole table afterwards finds their name nowhere.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
let teacher: Client;

/** Names no seed or other test uses: found anywhere in the table, they are this student's. */
const FIRST = 'Zephyrine';
const LAST = 'Quillfeather';
/** The guardian's address: the school's roster keeps it, and the parents' own accounts (which stay theirs). */
const GUARDIAN_EMAIL = 'marigold.q@example.com';
const ADULT = 'Ottoline Brackwater';
const NOTE = 'Aunt Rosalind collects her';

let studentId: number;
let otherChildId: number;
let onlyParent: Client;
let onlyParentId: number;
let sharedParent: Client;
let sharedParentId: number;
let sessionId: number;

/** A weekday of the plan that is not today at the school (Monday, or Tuesday on a Monday). */
const WALKING_DAY: 'mon' | 'tue' =
  new Date(`${dateIn(DEMO_TIME_ZONE)}T12:00:00Z`).getUTCDay() === 1 ? 'tue' : 'mon';

/** The next school day at least a week away (a change the school's cutoff cannot refuse). */
const schoolDayAhead = () => {
  let day = addDays(dateIn(DEMO_TIME_ZONE), 7);
  while (!isSchoolDay(day)) day = addDays(day, 1);
  return day;
};

/** Every item of the table, as JSON text (DynamoDB's whole content). */
const wholeTable = async (): Promise<string[]> => {
  const items: string[] = [];
  const client = localDynamoClient(inject('dynamoEndpoint'));
  try {
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: server.db.table, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []).map((item) => JSON.stringify(item)));
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return items;
};
const holding = (items: string[], text: string) =>
  items.filter((item) => item.toLowerCase().includes(text.toLowerCase()));

beforeAll(async () => {
  server = await startTestServer();
  [admin, front, teacher] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'teacher_demo'),
  ]);
  // A child of teacher_demo's class, with the guardian's contacts the school keeps.
  const classmates = (await teacher.get('/api/teacher/students')).body as Array<{
    id: number;
    classroomId: number;
  }>;
  const classroomId = classmates[0]?.classroomId as number;
  otherChildId = classmates[1]?.id as number;
  const created = await admin.post('/api/students', {
    firstName: FIRST,
    lastName: LAST,
    grade: '2',
    classroomId,
    parentName: `Marigold ${LAST}`,
    parentPhone: '555-0199',
    parentEmail: GUARDIAN_EMAIL,
    notes: `${FIRST} has a peanut allergy`,
  });
  expect(created.status).toBe(201);
  studentId = created.body.id;
  expect(
    (await admin.post('/api/vehicles', { number: '9191', type: 'car', studentIds: [studentId] })).status,
  ).toBe(201);
  // Two parents: one follows only this child, the other a classmate too.
  onlyParent = await parentThroughInvite(server.url, admin, studentId, 'erase_parent_only');
  onlyParentId = (await onlyParent.get('/api/me')).body.id;
  sharedParent = await parentThroughInvite(server.url, admin, studentId, 'erase_parent_shared');
  sharedParentId = (await sharedParent.get('/api/me')).body.id;
  await parentLinks.link(server.db, sharedParentId, 1, otherChildId);
  expect(
    (await onlyParent.post('/api/parent/authorized-pickups', { studentId, name: ADULT, phone: '555-0177' }))
      .status,
  ).toBe(201);
  // A weekly plan and a dated change with a note. The plan walks one weekday that is not today
  // (the car is queued below, today: on the walking day it is refused, 'goes home another way').
  const week = {
    mon: { mode: 'car' },
    tue: { mode: 'car' },
    wed: { mode: 'car' },
    thu: { mode: 'car' },
    fri: { mode: 'car' },
  };
  week[WALKING_DAY] = { mode: 'walker' };
  expect((await admin.put(`/api/students/${studentId}/dismissal-plan`, { plan: week })).status).toBe(200);
  const change = await onlyParent.post('/api/dismissal-changes', {
    studentId,
    date: schoolDayAhead(),
    way: { mode: 'walker' },
    note: NOTE,
  });
  expect(change.status).toBe(201);
  // A dismissal: the car queued, the child released by the teacher, picked up; the session ended.
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  const entry = await front.post('/api/queue', { sessionId, vehicleNumber: '9191', vehicleType: 'car' });
  expect(entry.status).toBe(201);
  // The family announced its arrival (issue 53): the item names the child until its session's TTL.
  await arrivals.announce(server.db, {
    sessionId,
    schoolId: 1,
    parentId: onlyParentId,
    parentName: 'Erase Parent',
    state: 'here',
    students: [{ id: studentId, firstName: FIRST, lastName: LAST, classroomId }],
    vehicleNumber: '9191',
    vehicleType: 'car',
    at: new Date().toISOString(),
    sessionEndsAt: new Date(Date.now() + 60 * 60_000).toISOString(),
  });
  expect((await teacher.put(`/api/teacher/students/${studentId}/release`)).status).toBe(200);
  expect((await front.request('DELETE', `/api/queue/${entry.body.id}`, { reason: 'picked_up' })).status).toBe(
    200,
  );
  expect((await admin.put(`/api/sessions/${sessionId}/end`)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await server?.close();
});

describe("a student's export", () => {
  it('holds the roster fields, parents, vehicle, authorized adults, plan, changes and every record event naming them', async () => {
    const answer = await admin.get(`/api/students/${studentId}/export`);
    expect(answer.status).toBe(200);
    const data = answer.body;
    expect(data.student).toMatchObject({
      id: studentId,
      firstName: FIRST,
      lastName: LAST,
      parentEmail: GUARDIAN_EMAIL,
      parentPhone: '555-0199',
    });
    expect(data.classroom).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
    expect(data.parents.map((parent: { username: string }) => parent.username).sort()).toEqual([
      'erase_parent_only',
      'erase_parent_shared',
    ]);
    expect(data.vehicles.map((vehicle: { number: string }) => vehicle.number)).toEqual(['9191']);
    expect(data.authorizedPickups).toMatchObject([{ name: ADULT, phone: '555-0177' }]);
    expect(data.plan[WALKING_DAY]).toEqual({ mode: 'walker' });
    expect(data.changes).toMatchObject([{ note: NOTE, way: { mode: 'walker' } }]);
    expect(data.wayEvents.map((event: { kind: string }) => event.kind)).toEqual(
      expect.arrayContaining(['plan_set', 'change_requested']),
    );
    expect(data.invites).toHaveLength(2);
    const kinds = data.dismissalEvents.map((event: { kind: string }) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['vehicle_queued', 'student_released', 'picked_up']));
    expect(data.dismissalEvents.every((event: { sessionId: number }) => event.sessionId === sessionId)).toBe(
      true,
    );
  });

  it('is refused below school admin and 404 for a student of no school of the caller', async () => {
    expect((await front.get(`/api/students/${studentId}/export`)).status).toBe(403);
    expect((await admin.get('/api/students/999999/export')).status).toBe(404);
  });
});

describe("a student's erasure", () => {
  it('needs the first and last name typed: another text is 400 and changes nothing', async () => {
    for (const confirm of [FIRST, `${LAST} ${FIRST}`, '', 'erase']) {
      const answer = await admin.post(`/api/students/${studentId}/erase`, { confirm });
      expect(answer.status, confirm).toBe(400);
      expect(answer.body.message).toBe("Type the student's first and last name exactly to erase them");
    }
    expect((await admin.post(`/api/students/${studentId}/erase`, {})).status).toBe(400);
    expect((await students.get(server.db, 1, studentId))?.firstName).toBe(FIRST);
  });

  it('removes their name and data everywhere: a read of the whole table finds none of it', async () => {
    const before = await wholeTable();
    // What the test looks for is there before (else the check below proves nothing).
    for (const text of [FIRST, LAST, GUARDIAN_EMAIL, ADULT, NOTE])
      expect(holding(before, text).length, text).toBeGreaterThan(0);

    const answer = await admin.post(`/api/students/${studentId}/erase`, {
      confirm: ` ${FIRST.toLowerCase()}  ${LAST} `,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      studentId,
      parentsUnlinked: 2,
      parentsDeactivated: 1,
      recordItemsRewritten: expect.any(Number),
    });

    const after = await wholeTable();
    for (const text of [FIRST, LAST, ADULT, NOTE, '555-0199', '555-0177']) {
      expect(holding(after, text), text).toEqual([]);
    }
    // The guardian's address stays on the parents' own accounts only (their data, not the child's).
    const keyOf = (item: string) => JSON.parse(item).pk.S as string;
    expect(holding(after, GUARDIAN_EMAIL).map(keyOf).sort()).toEqual(
      [`USER#${onlyParentId}`, `USER#${sharedParentId}`].sort(),
    );
  });

  it('keeps in the record that a release happened, naming "Erased student #id"', async () => {
    const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items as Array<{
      kind: string;
      [key: string]: unknown;
    }>;
    const erased = `Erased student #${studentId}`;
    const naming = events.filter((event) => JSON.stringify(event).includes(erased));
    expect(naming.map((event) => event.kind)).toEqual(
      expect.arrayContaining(['vehicle_queued', 'student_released', 'picked_up']),
    );
    const report = (await admin.get(`/api/sessions/${sessionId}/report`)).body;
    expect(JSON.stringify(report)).toContain(erased);
  });

  it('is an event with its actor; the student is gone from the roster and their export', async () => {
    const [event] = await wayEvents.ofStudent(server.db, 1, studentId);
    expect(event).toMatchObject({
      kind: 'student_erased',
      actor: { username: 'admin_demo', role: 'school_admin' },
    });
    expect((await admin.get(`/api/students/${studentId}/export`)).status).toBe(404);
    expect(
      (await admin.post(`/api/students/${studentId}/erase`, { confirm: `${FIRST} ${LAST}` })).status,
    ).toBe(404);
  });

  it('takes the child from their parents: one left with no child is deactivated and signed out, the other keeps theirs', async () => {
    expect((await onlyParent.get('/api/me')).status).toBe(401);
    expect((await users.get(server.db, onlyParentId))?.active).toBe(false);
    expect((await sharedParent.get('/api/me')).status).toBe(200);
    expect(await parentLinks.childrenOf(server.db, sharedParentId)).toEqual([
      { schoolId: 1, studentId: otherChildId },
    ]);
    expect((await users.get(server.db, sharedParentId))?.studentIds ?? []).not.toContain(studentId);
  });
});
