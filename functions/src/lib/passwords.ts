import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt password hashes: `scrypt$N$r$p$salt$hash`, salt and hash base64url.
 * New hashes use OWASP's current parameters, N=2^17, r=8, p=1: 128 MiB of
 * memory and about half a second of one core per hash (the auth function gets
 * the Lambda memory for it, see `packages/api/src/functions.ts`). A hash made
 * with weaker parameters is replaced at the user's next sign-in.
 */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

type Cost = { readonly N: number; readonly r: number; readonly p: number };
/**
 * The cost new hashes are made with: `SCRYPT`, unless a test process asked
 * for the cheap one (`useTestHashCost`). Nothing outside the tests calls it.
 */
/**
 * Kept on the process, not the module: the laptop runtime running the built
 * bundles (each with its own copy of this module) hashes at the tests' cost too.
 */
const TEST_COST = Symbol.for('curbside.testHashCost');
const process_ = globalThis as { [TEST_COST]?: Cost };
const costNow = (): Cost => process_[TEST_COST] ?? SCRYPT;

/**
 * Tests only: new hashes at N=2^12 (4 MiB, about 10 ms) instead of 2^17, and
 * those count as current. The suite signs in hundreds of times; at 2^17 each
 * took 0.3 s of a core, half the CPU of its server code. The tests of the
 * parameters themselves, and of replacing an older hash, switch back
 * (`useTestHashCost(false)`). Stored hashes are still checked against
 * `SCRYPT`'s bounds.
 */
export const useTestHashCost = (on = true) => {
  process_[TEST_COST] = on ? { N: 2 ** 12, r: 8, p: 1 } : undefined;
};
/** scrypt needs 128 × N × r bytes; Node refuses above `maxmem` (32 MiB by default). */
const MAX_MEMORY = 2 * 128 * SCRYPT.N * SCRYPT.r;

const derive = (password: string, salt: Buffer, n: number, r: number, p: number) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: Math.max(MAX_MEMORY, 2 * 128 * n * r) },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const { N, r, p } = costNow();
  const key = await derive(password, salt, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
};

const parse = (stored: string) => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = [Number(n), Number(r), Number(p)] as const;
  const sane =
    scheme === 'scrypt' &&
    salt &&
    hash &&
    params.every((value) => Number.isInteger(value) && value > 0) &&
    // Never derive with parameters beyond what this code would use (a tampered hash must not exhaust memory).
    params[0] <= SCRYPT.N &&
    params[1] <= SCRYPT.r &&
    params[2] <= SCRYPT.p;
  return sane ? { n: params[0], r: params[1], p: params[2], salt, hash } : undefined;
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const parsed = parse(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.hash, 'base64url');
  const actual = await derive(password, Buffer.from(parsed.salt, 'base64url'), parsed.n, parsed.r, parsed.p);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** Whether a stored hash was made with weaker parameters than today's (replace it at the next sign-in). */
export const needsRehash = (stored: string): boolean => {
  const parsed = parse(stored);
  const cost = costNow();
  return !parsed || parsed.n < cost.N || parsed.r < cost.r || parsed.p < cost.p;
};

let dummy: Promise<string> | undefined;
/** A hash to verify against when the user does not exist, so timing does not tell (made on first use). */
export const dummyHash = (): Promise<string> => {
  dummy ??= hashPassword('not-a-real-password');
  return dummy;
};

/** Letters and digits that cannot be mistaken for each other when read aloud or copied by hand. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const ONE_TIME_LENGTH = 12;

/**
 * A one-time password: 12 characters, about 70 bits, shown once to the admin
 * who made it (here, beside the hashing, so a script can make one without the
 * functions' configuration: `npm run admin`).
 */
export const oneTimePassword = (): string =>
  Array.from({ length: ONE_TIME_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
