import { randomBytes, scryptSync } from 'node:crypto';
import { useTestHashCost } from '@curbside/functions/lib/passwords';
import { users } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  // The real cost, not the tests' (`test/support/table-per-file.ts`): an N=2^14 hash is due for replacement.
  useTestHashCost(false);
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('a password hash made with older scrypt parameters', () => {
  it('is replaced by one at N=2^17 at the next sign-in, and the password keeps working', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('old-password', salt, 32, { N: 16384, r: 8, p: 1 });
    await users.create(server.db, {
      name: 'Olive Older',
      username: 'olive_older',
      email: null,
      phone: null,
      role: 'teacher',
      active: true,
      schoolId: 1,
      districtId: 1,
      passwordHash: ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$'),
    });
    const client = new Client(server.url);
    expect(
      (await client.post('/api/login', { username: 'olive_older', password: 'old-password' })).status,
    ).toBe(200);
    const stored = await users.findCredentials(server.db, 'olive_older');
    expect(stored?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    const again = new Client(server.url);
    expect(
      (await again.post('/api/login', { username: 'olive_older', password: 'old-password' })).status,
    ).toBe(200);
    expect((await again.post('/api/login', { username: 'olive_older', password: 'wrong' })).status).toBe(401);
  });
});
