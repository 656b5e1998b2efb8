import { CODE_GUESS_LIMIT } from '@curbside/functions/services/pickup-codes';
import { throttle } from '@curbside/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claimExpiredCode, demoStudentsOf, sessionBody } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

/**
 * Pickup codes that no longer work are refused, and guessing codes is
 * throttled per address and per parent.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let teacher: Client;
let studentIds: number[];
beforeAll(async () => {
  server = await startTestServer();
  teacher = await signedIn(server.url, 'teacher_demo');
  const front = await signedIn(server.url, 'front_demo');
  await front.post('/api/sessions', sessionBody());
  // teacher_demo's own classroom: the students whose codes a teacher makes.
  studentIds = (await demoStudentsOf(server.db, 'Room 12')).map((student) => student.id);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  // Every test here comes from 127.0.0.1: each starts with that address's full allowance,
  // away from the end of a fixed counting window (where the count would start over mid-test).
  await awayFromWindowEdge(CODE_GUESS_LIMIT.windowMs, 5_000);
  await throttle.clear(server.db, 'code#ip#127.0.0.1', CODE_GUESS_LIMIT.windowMs);
});

let parents = 0;
/** A newly registered, signed-in parent. */
const newParent = async () => {
  const parent = new Client(server.url);
  parents += 1;
  const answer = await parent.post('/api/auth/parent/register', {
    name: `Parent ${parents}`,
    username: `parent_codes_${parents}`,
    password: 'secret-pass-1',
    email: `parent_codes_${parents}@example.com`,
    phone: '555-0100',
  });
  if (answer.status !== 201) throw new Error(`Could not register a parent: ${answer.status}`);
  return parent;
};
const newCode = async (studentId: number) =>
  (await teacher.post('/api/pickup-codes/generate', { studentId })).body.code as string;
const currentCode = async (studentId: number) =>
  (await teacher.get(`/api/students/${studentId}/pickup-code`)).body;

/** Ten well-formed codes no student has (each test checks they answer 404). */
const wrongCodes = ['AAAA', 'AAAB', 'AAAC', 'AAAD', 'AAAE', 'AAAF', 'AAAG', 'AAAH', 'AAAJ', 'AAAK'];

describe('looking up a code from an invite link', () => {
  it('refuses a code a parent has already used', async () => {
    const id = studentIds[0] as number;
    const code = await newCode(id);
    await (await newParent()).post('/api/pickup-codes/use', { code });
    const answer = await new Client(server.url).get(`/api/pickup-codes/lookup/${code}`);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'This pickup code has already been used' });
  });

  it('refuses a code older than 10 minutes', async () => {
    const id = studentIds[1] as number;
    await claimExpiredCode(server.db, 'YYYY', id);
    const answer = await new Client(server.url).get('/api/pickup-codes/lookup/yyyy');
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'This pickup code has expired' });
  });
});

describe('guessing codes', () => {
  it.each([
    ['POST /api/pickup-codes/use', '/api/pickup-codes/use', 'code', 2],
    ['POST /api/parent/link-student', '/api/parent/link-student', 'pickupCode', 3],
  ])(
    '%s: after 10 wrong codes even the right one is refused for 10 minutes',
    async (_, path, field, index) => {
      const id = studentIds[index] as number;
      const parent = await newParent();
      const code = await newCode(id);
      const wrong = [];
      for (const guess of wrongCodes) wrong.push((await parent.post(path, { [field]: guess })).status);

      const answer = await parent.post(path, { [field]: code });

      expect(wrong).toEqual(wrongCodes.map(() => 404));
      expect(answer.status).toBe(429);
      expect(answer.body).toEqual({
        message: 'Too many invalid codes. Please wait 10 minutes and try again.',
      });
      expect((await currentCode(id)).usedAt).toBeNull();
    },
  );

  it('lets a parent link with the right code after 9 wrong ones', async () => {
    const id = studentIds[4] as number;
    const parent = await newParent();
    const code = await newCode(id);
    for (const guess of wrongCodes.slice(0, 9)) await parent.post('/api/pickup-codes/use', { code: guess });

    const answer = await parent.post('/api/pickup-codes/use', { code });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ linked: true, student: { id } });
  });
});

describe("a teacher's pickup codes (issue 49)", () => {
  const NOT_YOUR_CLASS = {
    message: 'Teachers can make and read pickup codes for the students of their own classrooms only.',
  };
  const routes = [
    [
      'POST /api/pickup-codes/generate',
      (client: Client, id: number) => client.post('/api/pickup-codes/generate', { studentId: id }),
    ],
    [
      'POST /api/students/{id}/pickup-code',
      (client: Client, id: number) => client.post(`/api/students/${id}/pickup-code`),
    ],
    [
      'GET /api/students/{id}/pickup-code',
      (client: Client, id: number) => client.get(`/api/students/${id}/pickup-code`),
    ],
  ] as const;

  it.each(routes)('%s answers a teacher for a student of their own classroom', async (name, call) => {
    const id = studentIds[5 + routes.findIndex(([route]) => route === name)] as number;
    const answer = await call(teacher, id);
    expect(answer.status).toBe(200);
    if (name.startsWith('POST'))
      expect(answer.body).toMatchObject({ studentId: id, code: expect.any(String) });
  });

  it.each(routes)(
    "%s refuses a teacher a student of another teacher's classroom (403), and makes no code",
    async (name, call) => {
      const other = (await demoStudentsOf(server.db, 'Room 7'))[
        routes.findIndex(([route]) => route === name)
      ];
      const id = other?.id as number;
      const admin = await signedIn(server.url, 'admin_demo');

      const answer = await call(teacher, id);

      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(NOT_YOUR_CLASS);
      expect((await admin.get(`/api/students/${id}/pickup-code`)).body).toBeNull();
    },
  );

  it('refuses a teacher a student of a classroom nobody teaches', async () => {
    const [unassigned] = await demoStudentsOf(server.db, 'Room 4');
    const answer = await teacher.post('/api/pickup-codes/generate', { studentId: unassigned?.id });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(NOT_YOUR_CLASS);
  });

  it('lets a school admin make and read a code for a student of any classroom', async () => {
    const [, , , other] = await demoStudentsOf(server.db, 'Room 7');
    const admin = await signedIn(server.url, 'admin_demo');
    const made = await admin.post('/api/pickup-codes/generate', { studentId: other?.id });
    expect(made.status).toBe(200);
    expect((await admin.get(`/api/students/${other?.id}/pickup-code`)).body.code).toBe(made.body.code);
  });
});
