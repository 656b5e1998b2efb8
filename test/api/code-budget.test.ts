import { request } from 'node:http';
import { CODE_GUESS_BUDGET, PICKUP_CODE_ALPHABET, wrongGuessesPerWindow } from '@curbside/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

/**
 * The budget of wrong pickup-code guesses is kept per school and per address:
 * each wrong guess from an address is charged the chance it had of hitting
 * one of a school's active codes, against that school's budget for that
 * address. An address that spent it finds that school's codes no more (they
 * answer as a wrong guess would), while every other address, and that
 * address at other schools, links as usual; a valid code is never charged.
 * (Why this keeps the hit chance under 1% a day: packages/domain/test/pickup.test.ts.)
 * Requests come from several loopback addresses (127.0.0.x), as visitors from several places.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
});
afterAll(async () => {
  await server?.close();
});

/** A lookup of `code` sent from `address`, as the invite page makes it. */
const lookup = (address: string, code: string): Promise<{ status: number; body: any }> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: address,
        path: `/api/pickup-codes/lookup/${code}`,
        method: 'GET',
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });

const generate = async (client: Client, studentId: number) => {
  const answer = await client.post('/api/pickup-codes/generate', { studentId });
  expect(answer.status).toBe(200);
  return answer.body.code as string;
};

/** A code that is none of `codes`. */
const wrongCode = (codes: string[], n: number) => {
  const code = `ZZZ${PICKUP_CODE_ALPHABET[n]}`;
  return codes.includes(code) ? `ZZY${PICKUP_CODE_ALPHABET[n]}` : code;
};

describe('wrong pickup-code guesses, per school and per address', () => {
  it("one address's wrong guesses stop only its own lookups of that school's codes, never another address's", async () => {
    await awayFromWindowEdge(CODE_GUESS_BUDGET.windowMs, 60_000);
    // A busy afternoon at the demo school: 48 codes active (each wrong guess: a 48 / 923,521 chance).
    const demoStudents = (await admin.get('/api/students?limit=48')).body.items as Array<{ id: number }>;
    expect(demoStudents).toHaveLength(48);
    const codes: string[] = [];
    for (const student of demoStudents) codes.push(await generate(admin, student.id));
    // Another school with one active code.
    await createSchoolWithStaff(server.db, 'budget');
    const otherAdmin = await signedIn(server.url, 'budget_school_admin');
    const otherStudent = await otherAdmin.post('/api/students', {
      firstName: 'Olive',
      lastName: 'Other',
      grade: '2',
    });
    expect(otherStudent.status).toBe(201);
    const otherCode = await generate(otherAdmin, otherStudent.body.id);

    // One visitor spends the demo school's budget for their address: 8 × 48 = 384 units.
    const misses = wrongGuessesPerWindow(48);
    expect(misses).toBe(8);
    for (let n = 0; n < misses; n++) {
      expect((await lookup('127.0.0.20', wrongCode([...codes, otherCode], n))).status).toBe(404);
    }

    // Everyone else still looks codes up.
    const elsewhere = await lookup('127.0.0.21', codes[0] as string);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.student).toMatchObject({ firstName: expect.any(String) });
    // The guesser finds the other school's code, and the demo school's answer as a wrong guess would.
    expect((await lookup('127.0.0.20', otherCode)).status).toBe(200);
    const hidden = await lookup('127.0.0.20', codes[1] as string);
    expect(hidden).toEqual({ status: 404, body: { message: 'Invalid or expired code' } });
    // Its time: up to a minute waiting out the end of a counting window, then the guesses themselves.
  }, 120_000);

  it('never charges a valid code, however often it is looked up', async () => {
    const student = ((await admin.get('/api/students?limit=49')).body.items as Array<{ id: number }>)[48];
    const code = await generate(admin, student?.id as number);
    for (let n = 0; n < 12; n++) expect((await lookup('127.0.0.22', code)).status).toBe(200);
  });
});
