import { request } from 'node:http';
import { LOGIN_THROTTLE, REGISTRATION_THROTTLE } from '@curbside/domain';
import { knownDevices, throttle } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server';
import { awayFromWindowEdge } from '../support/throttle-window';

/**
 * Throttles an attacker cannot turn against the users: requests come from
 * several loopback addresses (127.0.0.x), as visitors from several places.
 * Some counts are made straight in the store, "as if" that many wrong
 * passwords had been tried: each real one costs a full password check.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Answer {
  status: number;
  body: any;
  cookies: string[];
}

/** One JSON request sent from `address` (a loopback address other than 127.0.0.1 is another visitor). */
const from = (address: string, path: string, body: unknown, cookie?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: address,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text ? JSON.parse(text) : undefined,
            cookies: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0] as string),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
const login = (address: string, username: string, password: string, cookie?: string) =>
  from(address, '/api/login', { username, password }, cookie);
/** Counts `cost` attempts already, away from a window's end (`awayFromWindowEdge`). */
const countAlready = async (scope: string, cost: number, windowMs: number) => {
  await awayFromWindowEdge(windowMs, 15_000);
  return throttle.reserve(server.db, [{ scope, limit: cost, cost }], windowMs);
};

describe('wrong passwords', () => {
  it('from one place lock that place out, not the account at another', async () => {
    await countAlready(
      'login#place#staff#teacher_demo#127.0.0.2',
      LOGIN_THROTTLE.perAccountAndPlace - 2,
      LOGIN_THROTTLE.windowMs,
    );
    expect((await login('127.0.0.2', 'teacher_demo', 'wrong-1')).status).toBe(401);
    expect((await login('127.0.0.2', 'teacher_demo', 'wrong-2')).status).toBe(401);
    const there = await login('127.0.0.2', 'teacher_demo', 'demo1234');
    expect(there.status).toBe(429);
    expect(there.body.message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    expect((await login('127.0.0.3', 'teacher_demo', 'demo1234')).status).toBe(200);
  });

  it('from many addresses slow the account down, but never lock out the device it signs in from', async () => {
    // The admin's own tablet has signed in before: it holds the device cookie.
    const usual = await login('127.0.0.1', 'admin_demo', 'demo1234');
    expect(usual.status).toBe(200);
    const device = usual.cookies.find((cookie) => cookie.startsWith('curbside_device=')) as string;
    expect(device).toMatch(/^curbside_device=[\w-]{40,}$/);

    // An attacker spreads wrong passwords over addresses: 18 counted already, then two more for real.
    await countAlready(
      'login#account#staff#admin_demo',
      LOGIN_THROTTLE.perAccount - 2,
      LOGIN_THROTTLE.windowMs,
    );
    expect((await login('127.0.0.4', 'admin_demo', 'guess-1')).status).toBe(401);
    expect((await login('127.0.0.5', 'admin_demo', 'guess-2')).status).toBe(401);
    // The account's ceiling is reached: every unknown device waits, even with the right password...
    expect((await login('127.0.0.6', 'admin_demo', 'guess-3')).status).toBe(429);
    expect((await login('127.0.0.7', 'admin_demo', 'demo1234')).status).toBe(429);
    // ...but the admin signs in from their usual device, during dismissal, at once.
    const again = await login('127.0.0.1', 'admin_demo', 'demo1234', device);
    expect(again.status).toBe(200);
    expect(again.body.username).toBe('admin_demo');
  });

  it('from a known device are limited for that device too', async () => {
    const first = await login('127.0.0.8', 'back_demo', 'demo1234');
    const device = first.cookies.find((cookie) => cookie.startsWith('curbside_device=')) as string;
    const deviceId = knownDevices.idOf(decodeURIComponent(device.slice('curbside_device='.length)));
    await countAlready(
      `login#device#${deviceId}#staff#back_demo`,
      LOGIN_THROTTLE.perAccountAndPlace - 1,
      LOGIN_THROTTLE.windowMs,
    );
    expect((await login('127.0.0.8', 'back_demo', 'nope-1', device)).status).toBe(401);
    expect((await login('127.0.0.8', 'back_demo', 'demo1234', device)).status).toBe(429);
    // The same device's allowance for another account is its own.
    expect((await login('127.0.0.8', 'front_demo', 'demo1234', device)).status).toBe(200);
  });
});

describe('parent registration', () => {
  const register = (address: string, username: string) =>
    from(address, '/api/auth/parent/register', {
      name: 'Robin Parent',
      username,
      password: 'secret-pass-1',
      email: `${username}@example.com`,
      phone: '555-0199',
      role: 'parent',
    });

  it('is throttled per address, taken names included', async () => {
    await countAlready(
      'register#ip#127.0.0.9',
      REGISTRATION_THROTTLE.perAddress - 2,
      REGISTRATION_THROTTLE.windowMs,
    );
    expect((await register('127.0.0.9', 'robin_1')).status).toBe(201);
    expect((await register('127.0.0.9', 'robin_1')).status).toBe(409);
    const refused = await register('127.0.0.9', 'robin_2');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many accounts were registered from here. Please try again later.',
    });
    expect((await register('127.0.0.10', 'robin_2')).status).toBe(201);
  });

  it('never tells that a staff username exists: staff and parents sign in at their own doors', async () => {
    const parent = await register('127.0.0.11', 'front_demo');
    expect(parent.status).toBe(201);
    expect(parent.body).toMatchObject({ username: 'front_demo', role: 'parent' });
    // Each account signs in at its own door.
    const staff = await login('127.0.0.12', 'front_demo', 'demo1234');
    expect(staff.body).toMatchObject({ role: 'front_queue_wrangler' });
    const atPortal = await from('127.0.0.12', '/api/auth/parent/login', {
      username: 'front_demo',
      password: 'secret-pass-1',
    });
    expect(atPortal.body).toMatchObject({ role: 'parent', name: 'Robin Parent' });
    expect((await login('127.0.0.12', 'front_demo', 'secret-pass-1')).status).toBe(401);
    // A second parent asking for the same name learns only that a parent has it.
    const again = await register('127.0.0.13', 'Front_Demo');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Username Front_Demo is already taken' });
  });
});
