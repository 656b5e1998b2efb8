import { request as httpRequest } from 'node:http';
import { LOGIN_THROTTLE } from '@curbside/domain';
import { authSessions, throttle } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, signedIn, startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('staff sign-in', () => {
  it('answers the user object and sets an HttpOnly, SameSite=Lax session cookie (not Secure on localhost)', async () => {
    const client = new Client(server.url);
    const answer = await client.post('/api/login', { username: 'front_demo', password: 'demo1234' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      username: 'front_demo',
      role: 'front_queue_wrangler',
      name: 'Frankie Front',
    });
    expect(answer.body).not.toHaveProperty('passwordHash');
    const [cookie] = answer.headers.getSetCookie();
    expect(cookie).toMatch(/^curbside_session=[\w-]{40,};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    expect((await client.get('/api/me')).body).toMatchObject({ username: 'front_demo', schoolId: 1 });
  });

  it('marks the cookie Secure when served under a real host name', async () => {
    const { port } = new URL(server.url);
    const setCookie = await new Promise<string[]>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/api/login',
          method: 'POST',
          headers: { host: 'curbside.example.org', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.headers['set-cookie'] ?? []);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ username: 'teacher_demo', password: 'demo1234' }));
    });
    expect(setCookie[0]).toMatch(/; Secure/);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = await new Client(server.url).post('/api/login', {
      username: 'back_demo',
      password: 'nope',
    });
    const unknown = await new Client(server.url).post('/api/login', {
      username: 'nobody',
      password: 'demo1234',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers the validation messages of the sign-in form', async () => {
    const answer = await new Client(server.url).post('/api/login', { username: ' ', password: '' });
    expect(answer.status).toBe(400);
    expect(answer.body.issues.map((issue: { message: string }) => issue.message)).toEqual([
      'Username is required',
      'Password is required',
    ]);
  });

  it('answers 401 on /api/me when not signed in', async () => {
    const answer = await new Client(server.url).get('/api/me');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Not signed in' });
  });

  it('throttles a username after five failures, even for the right password, with a clear message', async () => {
    await awayFromWindowEdge(LOGIN_THROTTLE.windowMs, 20_000);
    const client = new Client(server.url);
    for (let i = 0; i < 5; i++) {
      expect(
        (await client.post('/api/login', { username: 'admin_demo', password: `wrong${i}` })).status,
      ).toBe(401);
    }
    const blocked = await client.post('/api/login', { username: 'admin_demo', password: 'demo1234' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    // Another account from the same address still signs in.
    expect((await client.post('/api/login', { username: 'back_demo', password: 'demo1234' })).status).toBe(
      200,
    );
  }, 60_000);

  it('lets no more than five guesses through when they arrive all at once', async () => {
    await awayFromWindowEdge(LOGIN_THROTTLE.windowMs, 20_000);
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        new Client(server.url).post('/api/login', { username: 'burst_target', password: `guess${i}` }),
      ),
    );
    const statuses = guesses.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  }, 60_000);

  it('revokes the session record on logout: the old cookie no longer signs anyone in', async () => {
    const client = await signedIn(server.url, 'teacher_demo');
    const stolen = client.cookie;
    const out = await client.post('/api/logout');
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/^curbside_session=; .*Max-Age=0/);
    const replay = new Client(server.url);
    replay.cookie = stolen;
    expect((await replay.get('/api/me')).status).toBe(401);
  });

  it("signs nobody in with a cookie whose user part was changed to another user's id", async () => {
    const client = await signedIn(server.url, 'front_demo');
    const me = (await client.get('/api/me')).body;
    const superAdmin = await signedIn(server.url, 'super_demo');
    const superId = (await superAdmin.get('/api/me')).body.id;
    const forged = new Client(server.url);
    forged.cookie = client.cookie?.replace(`curbside_session=${me.id}-`, `curbside_session=${superId}-`);
    expect(forged.cookie).not.toBe(client.cookie);
    expect((await forged.get('/api/me')).status).toBe(401);
  });

  it('still honours a session whose token does not name its user (signed in before tokens did)', async () => {
    const client = await signedIn(server.url, 'back_demo');
    const me = (await client.get('/api/me')).body;
    await authSessions.put(server.db, 'an-older-token-without-a-user-id-0123456789', {
      userId: me.id,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const older = new Client(server.url);
    older.cookie = 'curbside_session=an-older-token-without-a-user-id-0123456789';
    expect((await older.get('/api/me')).body).toMatchObject({ username: 'back_demo' });
  });

  it('refuses a mutation sent from a foreign Origin', async () => {
    const client = await signedIn(server.url, 'front_demo');
    const now = Date.now();
    const answer = await client.request(
      'POST',
      '/api/sessions',
      {
        name: 'Afternoon Pickup',
        type: 'afternoon_pickup',
        startTime: new Date(now).toISOString(),
        endTime: new Date(now + 3_600_000).toISOString(),
      },
      { origin: 'https://evil.example.com' },
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: 'Cross-site request refused' });
    const sameSite = await client.request('POST', '/api/logout', {}, { origin: server.url });
    expect(sameSite.status).toBe(200);
  });
});

describe('parent accounts', () => {
  const parent = {
    name: 'Jamie Rivera',
    username: 'jrivera',
    password: 'secret-pass-1',
    email: 'j@example.com',
    phone: '555-0101',
  };

  it('registers a parent, signs them in, and refuses the same username again with 409', async () => {
    const client = new Client(server.url);
    const created = await client.post('/api/auth/parent/register', { ...parent, role: 'parent' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Jamie Rivera', role: 'parent', schoolId: null });
    expect((await client.get('/api/me')).body.username).toBe('jrivera');
    const again = await new Client(server.url).post('/api/auth/parent/register', {
      ...parent,
      username: 'JRivera',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Username JRivera is already taken');
  });

  it('answers every message of the invite signup form', async () => {
    const answer = await new Client(server.url).post('/api/auth/parent/register', {
      name: '',
      username: '',
      password: '123',
      email: 'not-an-email',
      phone: '',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.issues.map((issue: { message: string }) => issue.message)).toEqual([
      'Name is required',
      'Username is required',
      'Password must be at least 8 characters',
      'Valid email is required',
      'Phone number is required',
    ]);
  });

  it('signs a parent in through the parent portal but not through the staff sign-in', async () => {
    const parentPortal = await new Client(server.url).post('/api/auth/parent/login', {
      username: 'parent_demo',
      password: 'demo1234',
    });
    expect(parentPortal.status).toBe(200);
    expect(parentPortal.body.role).toBe('parent');
    const staff = await new Client(server.url).post('/api/login', {
      username: 'parent_demo',
      password: 'demo1234',
    });
    expect(staff.status).toBe(401);
  });

  it('signs a parent out with /api/auth/logout', async () => {
    const client = await signedIn(server.url, 'parent_demo');
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect((await client.get('/api/me')).status).toBe(401);
  });
});

describe('sign-in from one address', () => {
  it('refuses every account from an address after thirty failures there, with a clear message', async () => {
    // 28 failures from this address counted already (each costs a full password check to make for real).
    await awayFromWindowEdge(LOGIN_THROTTLE.windowMs, 20_000);
    await throttle.clear(server.db, 'login#ip#127.0.0.1', LOGIN_THROTTLE.windowMs);
    await throttle.reserve(
      server.db,
      [{ scope: 'login#ip#127.0.0.1', limit: LOGIN_THROTTLE.perAddress, cost: 28 }],
      LOGIN_THROTTLE.windowMs,
    );
    const client = new Client(server.url);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push((await client.post('/api/login', { username: `nobody_${i}`, password: 'x' })).status);
    }
    expect(answers).toEqual([401, 401, 429]);
    const rightPassword = await client.post('/api/login', { username: 'back_demo', password: 'demo1234' });
    expect(rightPassword.status).toBe(429);
    expect(rightPassword.body.message).toMatch(/^Too many failed sign-in attempts\./);
  }, 60_000);
});
