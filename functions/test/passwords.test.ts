import { randomBytes, scryptSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, SCRYPT, useTestHashCost, verifyPassword } from '../src/lib/passwords';

// The real cost, not the tests' (`test/support/table-per-file.ts`): these tests are about it.
beforeAll(() => useTestHashCost(false));

/** A hash as the first release made them: N=2^14. */
const olderHash = (password: string) => {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
};

describe('password hashes', () => {
  it("use OWASP's current scrypt parameters: N=2^17, r=8, p=1", async () => {
    expect(SCRYPT).toEqual({ N: 131072, r: 8, p: 1 });
    const hash = await hashPassword('demo1234');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('demo1234', hash)).toBe(true);
    expect(await verifyPassword('demo1235', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('still verify a hash made with the older, weaker parameters, which is due for replacement', async () => {
    const hash = olderHash('secret1');
    expect(await verifyPassword('secret1', hash)).toBe(true);
    expect(needsRehash(hash)).toBe(true);
  });

  it('refuse a stored hash with parameters beyond these (a tampered hash cannot exhaust memory)', async () => {
    const [, , r, p, salt, key] = olderHash('secret1').split('$');
    expect(await verifyPassword('secret1', ['scrypt', 2 ** 22, r, p, salt, key].join('$'))).toBe(false);
    expect(await verifyPassword('secret1', 'bcrypt$whatever')).toBe(false);
  });
});
