import { CODE_GUESS_BUDGET, PICKUP_CODE_TTL_MS } from '@curbside/domain';
import { throttle } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedIn, startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

/**
 * The deployment-wide budget of wrong pickup-code guesses: whoever sends
 * them, from however many addresses, each wrong guess is charged its chance
 * of hitting one of the codes active now; once the hour's budget is spent,
 * lookups and uses wait. (Why this keeps a day's hit chance under 1%:
 * packages/domain/test/pickup.test.ts and the store README.)
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let teacher: Client;
beforeAll(async () => {
  server = await startTestServer();
  teacher = await signedIn(server.url, 'teacher_demo');
});
afterAll(async () => {
  await server?.close();
});

describe('wrong pickup-code guesses, deployment-wide', () => {
  it('are charged by the active codes, and stop every lookup once the budget is spent', async () => {
    // Away from the end of the budget's hour (where it would start over mid-test).
    await awayFromWindowEdge(CODE_GUESS_BUDGET.windowMs, 20_000);
    const students = (await teacher.get('/api/teacher/students')).body as Array<{ id: number }>;
    const codes: string[] = [];
    for (const student of students.slice(0, 3)) {
      const answer = await teacher.post('/api/pickup-codes/generate', { studentId: student.id });
      expect(answer.status).toBe(200);
      codes.push(answer.body.code);
    }
    const active = await throttle.recent(server.db, 'code#issued', PICKUP_CODE_TTL_MS);
    expect(active).toBe(3);

    // Others spent the budget all but two wrong guesses' worth (3 units each: 3 codes active).
    const spent = CODE_GUESS_BUDGET.unitsPerWindow - 2 * active;
    await throttle.reserve(
      server.db,
      [{ scope: 'code#budget', limit: CODE_GUESS_BUDGET.unitsPerWindow, cost: spent }],
      CODE_GUESS_BUDGET.windowMs,
    );

    const visitor = new Client(server.url);
    const right = await visitor.get(`/api/pickup-codes/lookup/${codes[0]}`);
    expect(right.status).toBe(200);
    const wrong = codes.includes('ZZZZ') ? 'ZZZY' : 'ZZZZ';
    expect((await visitor.get(`/api/pickup-codes/lookup/${wrong}`)).status).toBe(404);
    expect((await visitor.get(`/api/pickup-codes/lookup/${wrong}`)).status).toBe(404);
    // Two wrong guesses (well under this address's own limit of 10) spent the rest.
    const refused = await visitor.get(`/api/pickup-codes/lookup/${codes[1]}`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many invalid codes have been tried recently. Please try again later.',
    });
  });
});
