import { createHash } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import {
  PASSWORD_RESET_INVALID,
  PASSWORD_RESET_SENT,
  PASSWORD_RESET_THROTTLE,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_SHORT,
} from '@curbside/domain';
import { runAdmin } from '@curbside/local/admin';
import { passwordResets, throttle, userKey, users } from '@curbside/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client, signedIn, startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

/**
 * Parents' passwords (issue 50 item 12): at least 8 characters and none of
 * the common ones, wherever a parent sets one; and "Forgot password?": a
 * one-time link emailed through the mail outbox (the laptop's /dev/mail),
 * good for an hour, the same answer whether or not the address has an account.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  // Every request comes from 127.0.0.1: each test starts with that address's reset requests uncounted.
  await awayFromWindowEdge(PASSWORD_RESET_THROTTLE.windowMs, 60_000);
  await throttle.clear(server.db, 'reset#ip#127.0.0.1', PASSWORD_RESET_THROTTLE.windowMs);
  await throttle.clear(server.db, 'register#ip#127.0.0.1', 60 * 60 * 1000);
});
afterEach(() => {
  vi.useRealTimers();
});

let parents = 0;
/** A newly registered parent (signed in) with this email address and password. */
const newParent = async (email: string, password = 'maple-syrup-42') => {
  parents += 1;
  const username = `reset_parent_${parents}`;
  const client = new Client(server.url);
  const answer = await client.post('/api/auth/parent/register', {
    name: `Pat Reset ${parents}`,
    username,
    password,
    email,
    phone: '555-0120',
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { client, username, password };
};
const signIn = (username: string, password: string) =>
  new Client(server.url).post('/api/auth/parent/login', { username, password });
const forgot = (email: string) => new Client(server.url).post('/api/auth/parent/forgot-password', { email });
const mailTo = (address: string) => server.mail.list().filter((mail) => mail.to.includes(address));
/** The reset link of the newest message to `address`, once the mail sender has sent it. */
const linkSentTo = async (address: string, count = 1) => {
  await expect.poll(() => mailTo(address).length, { timeout: 20_000 }).toBe(count);
  const text = mailTo(address)[0]?.text ?? '';
  const link = /https?:\/\/\S+\/parent\/reset-password\?t=([A-Za-z0-9_-]{43})/.exec(text);
  expect(link, text).not.toBeNull();
  return { url: link?.[0] as string, token: link?.[1] as string, text };
};
const reset = (token: string, password: string) =>
  new Client(server.url).post('/api/auth/parent/reset-password', { token, password });

describe("a parent's password", () => {
  const register = (password: string) =>
    new Client(server.url).post('/api/auth/parent/register', {
      name: 'Short Pass',
      username: `short_${password.length}_${parents++}`,
      password,
      email: 'short.pass@example.com',
      phone: '555-0121',
    });

  it('is at least 8 characters (NIST 800-63B), said under the field', async () => {
    const answer = await register('abc1234');
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toContainEqual({ path: 'password', message: PASSWORD_TOO_SHORT });
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 8 characters');
    expect((await register('abcd1234-ok')).status).toBe(201);
  });

  it('is refused when it is one of the common passwords, in any case', async () => {
    for (const common of ['password1', 'PASSWORD123', '12345678', 'iloveyou']) {
      const answer = await register(common);
      expect(answer.status, common).toBe(400);
      expect(answer.body.issues).toContainEqual({ path: 'password', message: PASSWORD_TOO_COMMON });
    }
  });

  it('is held to the same rule when an invite makes the account, and when the parent chooses a new one', async () => {
    const admin = await signedIn(server.url, 'admin_demo');
    const invite = (await admin.post('/api/parent-invites', { studentIds: [20] })).body.invites[0];
    const accept = await new Client(server.url).post('/api/parent-invites/accept', {
      token: new URL(invite.url).searchParams.get('t'),
      username: 'invited_short',
      password: 'sunshine',
      firstName: 'Ina',
      lastName: 'Vite',
      phone: '555-0122',
    });
    expect(accept.status).toBe(400);
    expect(accept.body.issues).toContainEqual({ path: 'password', message: PASSWORD_TOO_COMMON });
    const { client, password } = await newParent('changer@example.com');
    const change = await client.post('/api/auth/password', {
      currentPassword: password,
      newPassword: 'qwerty123',
    });
    expect(change.status).toBe(400);
    expect(change.body.issues).toContainEqual({ path: 'newPassword', message: PASSWORD_TOO_COMMON });
  });
});

describe('"Forgot password?"', () => {
  it('emails a one-time link that sets a new password, and ends every sign-in of the account', async () => {
    const { client, username, password } = await newParent('forgetful@example.com');
    const asked = await forgot('Forgetful@Example.com ');
    expect([asked.status, asked.body]).toEqual([202, { message: PASSWORD_RESET_SENT }]);
    const { token, text } = await linkSentTo('forgetful@example.com');
    expect(text).toContain(username);
    expect(text).toContain('1 hour');
    expect(text).toContain('1 hora');

    const done = await reset(token, 'a-brand-new-one');

    expect(done.status).toBe(200);
    expect((await signIn(username, password)).status).toBe(401);
    expect((await signIn(username, 'a-brand-new-one')).status).toBe(200);
    // The phone that was signed in before is signed out.
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('answers the same for an address no account has, and sends nothing', async () => {
    const asked = await forgot('nobody.here@example.com');
    expect([asked.status, asked.body]).toEqual([202, { message: PASSWORD_RESET_SENT }]);
    await newParent('somebody@example.com');
    await forgot('somebody@example.com');
    await linkSentTo('somebody@example.com');
    expect(mailTo('nobody.here@example.com')).toEqual([]);
  });

  it('works once: the link used again is refused (410) and changes nothing', async () => {
    const { username } = await newParent('once@example.com');
    await forgot('once@example.com');
    const { token } = await linkSentTo('once@example.com');
    expect((await reset(token, 'first-new-pass')).status).toBe(200);

    const again = await reset(token, 'second-new-pass');

    expect([again.status, again.body]).toEqual([410, { message: PASSWORD_RESET_INVALID }]);
    expect((await signIn(username, 'first-new-pass')).status).toBe(200);
  });

  it('works for an hour: an older link is refused (410)', async () => {
    const { username, password } = await newParent('late@example.com');
    await forgot('late@example.com');
    const { token } = await linkSentTo('late@example.com');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61 * 60_000);

    const late = await reset(token, 'too-late-now');

    expect([late.status, late.body]).toEqual([410, { message: PASSWORD_RESET_INVALID }]);
    vi.useRealTimers();
    expect((await signIn(username, password)).status).toBe(200);
  });

  it('keeps only the hash of the token, and refuses a new password that breaks the rules', async () => {
    await newParent('hashed@example.com');
    await forgot('hashed@example.com');
    const { token } = await linkSentTo('hashed@example.com');
    const hash = createHash('sha256').update(token).digest('hex');
    expect(await passwordResets.get(server.db, token)).toBeUndefined();
    expect(await passwordResets.get(server.db, hash)).toMatchObject({ usedAt: null });
    const common = await reset(token, 'password123');
    expect(common.status).toBe(400);
    expect(common.body.issues).toContainEqual({ path: 'password', message: PASSWORD_TOO_COMMON });
    expect((await reset('A'.repeat(43), 'a-fine-password')).status).toBe(410);
  });

  it('sends at most 3 links an hour to one address; the answer stays the same', async () => {
    await newParent('flooded@example.com');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await forgot('flooded@example.com')).body);
    expect(answers).toEqual(answers.map(() => ({ message: PASSWORD_RESET_SENT })));
    await linkSentTo('flooded@example.com', PASSWORD_RESET_THROTTLE.perEmail);
  });
});

describe('parent accounts made before the email index', () => {
  it('get their links once `npm run admin -- index-parent-emails` has run', async () => {
    const { username } = await newParent('older.account@example.com');
    const id = (await users.findCredentials(server.db, username, 'parent'))?.user.id as number;
    // As the account was written before the index: no entry.
    const key = userKey(id);
    await server.db.doc.send(
      new UpdateItemCommand({
        TableName: server.db.table,
        Key: { pk: { S: key.pk }, sk: { S: key.sk } },
        UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
      }),
    );
    expect(await users.parentsByEmail(server.db, 'older.account@example.com')).toEqual([]);
    const out: string[] = [];

    const code = await runAdmin(['index-parent-emails'], {
      env: { ...process.env, TABLE_NAME: server.db.table },
      stdout: (line) => out.push(line),
      stderr: () => {},
    });

    expect(code).toBe(0);
    expect(Number(out.at(-1))).toBeGreaterThanOrEqual(1);
    expect(
      (await users.parentsByEmail(server.db, 'older.account@example.com')).map((u) => u.username),
    ).toEqual([username]);
    await forgot('older.account@example.com');
    await linkSentTo('older.account@example.com');
  });
});
