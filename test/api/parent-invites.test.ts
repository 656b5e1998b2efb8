import { INVITE_GUESS_LIMIT, REGISTRATION_THROTTLE } from '@curbside/domain';
import { classrooms, parentInvites, type Student, students, throttle, users } from '@curbside/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSchoolWithStaff, tokenOf } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

/**
 * Parent invites (issue 29): a school's staff make one link per student and
 * guardian; a parent opens it, creates an account or signs in, and follows the
 * child. A link works once, until revoked, for 30 days.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let teacher: Client;
let roster: Student[];
let teacherRoom: number;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
  teacher = await signedIn(server.url, 'teacher_demo');
  roster = await students.listBySchool(server.db, 1);
  const rooms = await classrooms.listBySchool(server.db, 1);
  teacherRoom = rooms.find((room) => room.name === 'Room 12')?.id as number;
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await awayFromWindowEdge(INVITE_GUESS_LIMIT.windowMs, 5_000);
  await throttle.clear(server.db, 'invite#ip#127.0.0.1', INVITE_GUESS_LIMIT.windowMs);
});
afterEach(() => {
  vi.useRealTimers();
});

let accounts = 0;
const newAccount = () => {
  accounts += 1;
  return {
    username: `invited_parent_${accounts}`,
    password: 'secret-pass-1',
    firstName: 'Maria',
    lastName: `Lopez ${accounts}`,
    phone: '555-0101',
  };
};
const invite = async (studentIds: number[], by = admin) => {
  const answer = await by.post('/api/parent-invites', { studentIds });
  expect(answer.status).toBe(201);
  return answer.body.invites as Array<{ id: number; studentId: number; url: string; expiresAt: string }>;
};
const student = (i: number) => roster[i] as Student;

describe('inviting and accepting', () => {
  it('two children invited, accepted by a new parent: the parent follows both, the list says accepted', async () => {
    const [a, b] = [student(0), student(1)];
    const invites = await invite([a.id, b.id]);
    expect(new Set(invites.map((i) => i.studentId))).toEqual(new Set([a.id, b.id]));
    const first = invites.find((i) => i.studentId === a.id);
    const second = invites.find((i) => i.studentId === b.id);
    expect(first?.url).toMatch(/\/parent\/invite\?t=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(first?.expiresAt as string) - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    const parent = new Client(server.url);
    const look = await parent.get(`/api/parent-invites/lookup?t=${tokenOf(first?.url as string)}`);
    expect(look.status).toBe(200);
    expect(look.body).toEqual({
      schoolName: expect.any(String),
      student: { firstName: a.firstName, lastInitial: a.lastName.charAt(0) },
    });
    const created = await parent.post('/api/parent-invites/accept', {
      token: tokenOf(first?.url as string),
      ...newAccount(),
    });
    expect(created.status).toBe(201);
    expect(parent.cookie).toBeDefined();
    const signedInAccept = await parent.post('/api/parent-invites/accept', {
      token: tokenOf(second?.url as string),
    });
    expect(signedInAccept.status).toBe(200);

    const children = (await parent.get('/api/parent/students')).body.map((child: { id: number }) => child.id);
    expect(children.sort()).toEqual([a.id, b.id].sort());
    const listed = await admin.get(`/api/parent-invites?studentId=${a.id}`);
    expect(listed.body.find((i: { id: number }) => i.id === first?.id)?.status).toBe('accepted');
  });

  it('the same link a second time is 410 and says it was used', async () => {
    const [one] = await invite([student(2).id]);
    const token = tokenOf(one?.url as string);
    expect(
      (await new Client(server.url).post('/api/parent-invites/accept', { token, ...newAccount() })).status,
    ).toBe(201);
    const again = await new Client(server.url).post('/api/parent-invites/accept', { token, ...newAccount() });
    expect(again.status).toBe(410);
    expect(again.body.message).toBe(
      'This invite has already been used. Please ask the school for a new one.',
    );
  });

  it('a revoked link is 410 and the list says revoked', async () => {
    const [one] = await invite([student(3).id]);
    const revoked = await admin.request('DELETE', `/api/parent-invites/${one?.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    const answer = await new Client(server.url).post('/api/parent-invites/accept', {
      token: tokenOf(one?.url as string),
      ...newAccount(),
    });
    expect(answer.status).toBe(410);
    expect(answer.body.message).toBe(
      'This invite was withdrawn by the school. Please ask the school for a new one.',
    );
  });

  it('a link older than 30 days is 410 and says it expired', async () => {
    const [one] = await invite([student(4).id]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 30 * 24 * 3600_000 + 60_000);
    const answer = await new Client(server.url).post('/api/parent-invites/accept', {
      token: tokenOf(one?.url as string),
      ...newAccount(),
    });
    expect(answer.status).toBe(410);
    expect(answer.body.message).toBe('This invite has expired. Please ask the school for a new one.');
    vi.useRealTimers();
    const listed = await admin.get(`/api/parent-invites?studentId=${student(4).id}`);
    expect(listed.body.find((i: { id: number }) => i.id === one?.id)?.status).toBe('pending');
  });

  it('an unknown link is 404, and wrong links from one address are throttled', async () => {
    const unknown = 'A'.repeat(43);
    const answer = await new Client(server.url).post('/api/parent-invites/accept', {
      token: unknown,
      ...newAccount(),
    });
    expect(answer.status).toBe(404);
    for (let i = 1; i < INVITE_GUESS_LIMIT.failures; i++) {
      await new Client(server.url).get(`/api/parent-invites/lookup?t=${unknown}`);
    }
    const [one] = await invite([student(5).id]);
    const blocked = await new Client(server.url).get(
      `/api/parent-invites/lookup?t=${tokenOf(one?.url as string)}`,
    );
    expect(blocked.status).toBe(429);
  });
});

describe('who may invite', () => {
  it('a teacher invites their own classroom, not another, and not the whole school', async () => {
    const own = roster.find((s) => s.classroomId === teacherRoom) as Student;
    const other = roster.find((s) => s.classroomId !== teacherRoom && s.classroomId !== null) as Student;
    expect((await teacher.post('/api/parent-invites', { studentIds: [own.id] })).status).toBe(201);
    expect((await teacher.post('/api/parent-invites', { classroomId: teacherRoom })).status).toBe(201);
    expect((await teacher.post('/api/parent-invites', { studentIds: [other.id] })).status).toBe(403);
    expect((await teacher.post('/api/parent-invites', { allStudents: true })).status).toBe(403);
  });

  it("another school's staff get 404 for this school's students and invites, and its token links only its own child", async () => {
    const schoolB = await createSchoolWithStaff(server.db, 'invites_b');
    const studentB = await students.create(server.db, {
      schoolId: schoolB.id,
      firstName: 'Bea',
      lastName: 'Other',
      grade: '3',
      classroomId: null,
      parentName: null,
      parentPhone: null,
      parentEmail: null,
      notes: null,
    } as never);
    const adminB = await signedIn(server.url, 'invites_b_school_admin');
    const [ofA] = await invite([student(6).id]);
    expect((await adminB.post('/api/parent-invites', { studentIds: [student(6).id] })).status).toBe(404);
    expect((await adminB.get(`/api/parent-invites?studentId=${student(6).id}`)).status).toBe(404);
    expect((await adminB.request('DELETE', `/api/parent-invites/${ofA?.id}`)).status).toBe(404);
    expect((await admin.post('/api/parent-invites', { studentIds: [studentB.id] })).status).toBe(404);

    const parent = new Client(server.url);
    await parent.post('/api/parent-invites/accept', { token: tokenOf(ofA?.url as string), ...newAccount() });
    const children = (await parent.get('/api/parent/students')).body.map((child: { id: number }) => child.id);
    expect(children).toEqual([student(6).id]);
  });

  it('a parent or a wrangler cannot invite', async () => {
    const front = await signedIn(server.url, 'front_demo');
    expect((await front.post('/api/parent-invites', { allStudents: true })).status).toBe(403);
  });
});

describe('inviting a grade (the school admin\u2019s "Invite families")', () => {
  const gradeOf = () => {
    const counts = new Map<string, number>();
    for (const s of roster) counts.set(s.grade, (counts.get(s.grade) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
  };

  it('invites every active student of that grade and names each child and classroom for the letter', async () => {
    const grade = gradeOf();
    const ofGrade = roster.filter((s) => s.grade === grade);
    const rooms = new Map((await classrooms.listBySchool(server.db, 1)).map((r) => [r.id, r.name]));
    const answer = await admin.post('/api/parent-invites', { grade });
    expect(answer.status).toBe(201);
    const invites = answer.body.invites as Array<{
      studentId: number;
      student: { firstName: string; lastName: string; grade: string; classroom: string | null };
    }>;
    expect(new Set(invites.map((i) => i.studentId))).toEqual(new Set(ofGrade.map((s) => s.id)));
    for (const invite of invites) {
      const child = ofGrade.find((s) => s.id === invite.studentId) as Student;
      expect(invite.student).toEqual({
        firstName: child.firstName,
        lastName: child.lastName,
        grade,
        classroom: child.classroomId === null ? null : (rooms.get(child.classroomId) ?? null),
      });
    }
  });

  it('takes the grade as the rosters write it ("0K" is no grade: 400; "k" is K)', async () => {
    expect((await admin.post('/api/parent-invites', { grade: '0K' })).status).toBe(400);
    expect((await admin.post('/api/parent-invites', { grade: '' })).status).toBe(400);
    const grade = gradeOf();
    const written = /^\d+$/.test(grade) ? `0${grade}` : grade.toLowerCase();
    const answer = await admin.post('/api/parent-invites', { grade: written });
    expect(answer.status).toBe(201);
    expect(answer.body.invites.length).toBeGreaterThan(0);
  });

  it('a grade with no students makes no invites', async () => {
    const empty = ['PG', 'IT', '12'].find((g) => !roster.some((s) => s.grade === g)) as string;
    const answer = await admin.post('/api/parent-invites', { grade: empty });
    expect(answer.status).toBe(201);
    expect(answer.body.invites).toEqual([]);
  });

  it('a teacher cannot invite a grade (it spans other classrooms): 403', async () => {
    expect((await teacher.post('/api/parent-invites', { grade: gradeOf() })).status).toBe(403);
  });

  it("another school's admin inviting the same grade gets only their own school's students", async () => {
    const schoolB = await createSchoolWithStaff(server.db, 'grade_b');
    const grade = gradeOf();
    const studentB = await students.create(server.db, {
      schoolId: schoolB.id,
      firstName: 'Gus',
      lastName: 'Bee',
      grade,
      classroomId: null,
      parentName: null,
      parentPhone: null,
      parentEmail: null,
      notes: null,
    } as never);
    const adminB = await signedIn(server.url, 'grade_b_school_admin');
    const answer = await adminB.post('/api/parent-invites', { grade });
    expect(answer.status).toBe(201);
    expect(answer.body.invites.map((i: { studentId: number }) => i.studentId)).toEqual([studentB.id]);
    expect(answer.body.invites[0].student).toEqual({
      firstName: 'Gus',
      lastName: 'Bee',
      grade,
      classroom: null,
    });
  });

  it('a wrangler cannot invite a grade, and a district admin (no school of their own) neither', async () => {
    const front = await signedIn(server.url, 'front_demo');
    expect((await front.post('/api/parent-invites', { grade: gradeOf() })).status).toBe(403);
    const district = await signedIn(server.url, 'district_demo');
    expect((await district.post('/api/parent-invites', { grade: gradeOf() })).status).toBe(403);
  });
});

describe('accepting with a new account (issue 49 finding 5, issue 50 item 15)', () => {
  const REGISTERED = 'register#ip#127.0.0.1';
  beforeEach(async () => {
    // Every request here comes from 127.0.0.1: each test starts with that address's registrations uncounted.
    await awayFromWindowEdge(REGISTRATION_THROTTLE.windowMs, 60_000);
    await throttle.clear(server.db, REGISTERED, REGISTRATION_THROTTLE.windowMs);
  });
  const canSignIn = async (username: string) =>
    (await new Client(server.url).post('/api/auth/parent/login', { username, password: 'secret-pass-1' }))
      .status;

  it('three parallel accepts of one invite make one account; the refused two leave none behind', async () => {
    const [made] = await invite([student(30).id]);
    const accounts = [newAccount(), newAccount(), newAccount()];
    const answers = await Promise.all(
      accounts.map((account) =>
        new Client(server.url).post('/api/parent-invites/accept', {
          token: tokenOf(made?.url as string),
          ...account,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 410, 410]);
    for (const [i, answer] of answers.entries()) {
      const { username } = accounts[i] as { username: string };
      if (answer.status === 201) {
        expect(await canSignIn(username)).toBe(200);
      } else {
        expect(answer.body).toEqual({ message: expect.stringMatching(/already been used/) });
        expect(await canSignIn(username)).toBe(401);
        expect(await users.findCredentials(server.db, username, 'parent')).toBeUndefined();
      }
    }
  });

  it('a username another parent has is 409, and the invite stays unused for the family', async () => {
    const [made] = await invite([student(31).id]);
    const taken = newAccount();
    expect(
      (
        await new Client(server.url).post('/api/auth/parent/register', {
          ...taken,
          name: 'First',
          email: 'first@example.com',
        })
      ).status,
    ).toBe(201);
    const token = tokenOf(made?.url as string);

    const refused = await new Client(server.url).post('/api/parent-invites/accept', { token, ...taken });

    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: `Username ${taken.username} is already taken` });
    expect((await parentInvites.get(server.db, made?.id as number))?.acceptedAt).toBeNull();
    expect(
      (await new Client(server.url).post('/api/parent-invites/accept', { token, ...newAccount() })).status,
    ).toBe(201);
  });

  it("back-to-school night: the 21st family accepting its invite from the school's Wi-Fi is let in", async () => {
    const invites = await invite(roster.slice(32, 54).map((child) => child.id));
    expect(invites.length).toBe(22);
    const statuses = [];
    for (const made of invites.slice(0, 21)) {
      const family = new Client(server.url);
      statuses.push(
        (await family.post('/api/parent-invites/accept', { token: tokenOf(made.url), ...newAccount() }))
          .status,
      );
    }
    expect(statuses).toEqual(invites.slice(0, 21).map(() => 201));
    // Valid invites are bounded by the school's own invites: the address's registrations are untouched.
    const signup = await new Client(server.url).post('/api/auth/parent/register', {
      ...newAccount(),
      name: 'Walk-in Parent',
      email: 'walk.in@example.com',
    });
    expect(signup.status).toBe(201);
  }, 60_000);

  it('an accept with an invite that does not work still counts against the address', async () => {
    // As if 19 accounts had been registered from here this hour.
    for (let i = 0; i < REGISTRATION_THROTTLE.perAddress - 1; i++)
      await throttle.count(server.db, REGISTERED, REGISTRATION_THROTTLE.windowMs);
    const bogus = await new Client(server.url).post('/api/parent-invites/accept', {
      token: 'A'.repeat(43),
      ...newAccount(),
    });
    expect(bogus.status).toBe(404);

    const next = await new Client(server.url).post('/api/auth/parent/register', {
      ...newAccount(),
      name: 'One Too Many',
      email: 'one.too.many@example.com',
    });

    expect(next.status).toBe(429);
    expect(next.body).toEqual({
      message: 'Too many accounts were registered from here. Please try again later.',
    });
  });
});
