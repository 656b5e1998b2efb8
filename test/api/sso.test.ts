import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { User } from '@curbside/domain';
import { cleverLinks, users } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer } from '../support/server';

/**
 * Production sign-in through Clever: `GET /api/auth/login` sends the browser
 * to Clever's authorize page with a state bound to it; Clever sends it back
 * to the callback with a code; the staff account with that Clever id (or,
 * the first time, that email in the connected district) is signed in.
 *
 * Clever here is a small stand-in speaking the documented OAuth calls
 * (`POST /oauth/tokens` with the client's Basic credentials, `GET /v3.0/me`,
 * `GET /v3.0/users/{id}`): each code is good once, as Clever's are.
 */
const CLIENT_ID = 'curbside-test-client';
const CLIENT_SECRET = 'curbside-test-secret';
const CLEVER_DISTRICT = '5f0c1b2a3d4e5f6a7b8c9d0e';
const people: Record<string, { email: string; district: string }> = {
  'clever-teacher': { email: 'Teacher_Demo@curbside.example', district: CLEVER_DISTRICT },
  'clever-stranger': { email: 'nobody@elsewhere.example', district: CLEVER_DISTRICT },
  'clever-front': { email: 'front_demo@curbside.example', district: CLEVER_DISTRICT },
};
const codes = new Map<string, string>();
let codeCount = 0;
/** What Clever does when the user signs in there: a fresh code for them. */
const codeFor = (cleverId: string) => {
  const code = `code-${++codeCount}`;
  codes.set(code, cleverId);
  return code;
};

let clever: Server;
let cleverUrl: string;
let server: Awaited<ReturnType<typeof startTestServer>>;
const tokenRequests: Array<{ authorization?: string; body: Record<string, string> }> = [];

const json = (response: import('node:http').ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

beforeAll(async () => {
  clever = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://clever');
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      const person = bearer.startsWith('token-') ? bearer.slice('token-'.length) : '';
      if (request.method === 'POST' && url.pathname === '/oauth/tokens') {
        const body = JSON.parse(raw) as Record<string, string>;
        tokenRequests.push({ authorization: request.headers.authorization, body });
        const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
        if (request.headers.authorization !== basic) return json(response, 401, { error: 'invalid_client' });
        const cleverId = codes.get(body.code ?? '');
        codes.delete(body.code ?? '');
        if (!cleverId) return json(response, 400, { error: 'invalid_grant' });
        return json(response, 200, { access_token: `token-${cleverId}`, token_type: 'bearer' });
      }
      if (!people[person]) return json(response, 401, { error: 'invalid_token' });
      if (url.pathname === '/v3.0/me') {
        return json(response, 200, {
          type: 'user',
          data: { id: person, district: people[person].district, type: 'user', authorized_by: 'district' },
          links: [{ rel: 'self', uri: '/me' }],
        });
      }
      if (url.pathname === `/v3.0/users/${person}`) {
        return json(response, 200, {
          data: { id: person, email: people[person].email, district: CLEVER_DISTRICT },
        });
      }
      json(response, 404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => clever.listen(0, '127.0.0.1', resolve));
  cleverUrl = `http://127.0.0.1:${(clever.address() as AddressInfo).port}`;
  server = await startTestServer();
  // The demo district is the one connected to this Clever district (an import or an admin did it).
  await cleverLinks.linkDistrict(server.db, 1, CLEVER_DISTRICT);
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => clever?.close(resolve));
});

const configure = (on: boolean) => {
  if (on) {
    Object.assign(process.env, {
      CLEVER_CLIENT_ID: CLIENT_ID,
      CLEVER_CLIENT_SECRET: CLIENT_SECRET,
      CLEVER_OAUTH_URL: cleverUrl,
      CLEVER_API_URL: cleverUrl,
    });
  } else {
    delete process.env.CLEVER_CLIENT_ID;
  }
};

/** A browser's cookie jar, enough for one trip to Clever and back. */
class Browser {
  jar = new Map<string, string>();
  async get(path: string) {
    const response = await fetch(new URL(path, server.url), {
      redirect: 'manual',
      headers: { cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0/.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return { status: response.status, location: response.headers.get('location') ?? '' };
  }
  /** Starts a sign-in: the state Clever would carry back. */
  async start() {
    const started = await this.get('/api/auth/login');
    expect(started.status).toBe(302);
    return new URL(started.location).searchParams.get('state') as string;
  }
  async me() {
    const client = new Client(server.url);
    client.cookie = `curbside_session=${this.jar.get('curbside_session') ?? ''}`;
    return client.get('/api/me');
  }
}

describe('single sign-on through Clever', () => {
  it('without Clever configured, sends the browser back to the login screen saying so', async () => {
    configure(false);
    const browser = new Browser();
    expect(await browser.get('/api/auth/login')).toEqual({ status: 302, location: '/login?sso=unavailable' });
    expect(browser.jar.size).toBe(0);
  });

  it('sends the browser to Clever’s authorize page with a state bound to it', async () => {
    configure(true);
    const browser = new Browser();
    const started = await browser.get('/api/auth/login');
    expect(started.status).toBe(302);
    const authorize = new URL(started.location);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${cleverUrl}/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${server.url}/api/auth/clever/callback`,
      state: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(browser.jar.get('curbside_sso_state')).toBe(authorize.searchParams.get('state'));
  });

  it('signs in the staff account with the Clever user’s email, keeps the Clever id, and spends the state', async () => {
    configure(true);
    const browser = new Browser();
    const state = await browser.start();
    const callback = `/api/auth/clever/callback?code=${codeFor('clever-teacher')}&state=${state}`;
    expect(await browser.get(callback)).toEqual({ status: 302, location: '/' });
    const me = await browser.me();
    expect(me.body).toMatchObject({ username: 'teacher_demo', role: 'teacher', cleverId: 'clever-teacher' });
    expect(browser.jar.has('curbside_sso_state')).toBe(false);
    // The code went to Clever with the app's credentials and the same redirect URI.
    expect(tokenRequests.at(-1)?.body).toEqual({
      code: expect.stringMatching(/^code-/),
      grant_type: 'authorization_code',
      redirect_uri: `${server.url}/api/auth/clever/callback`,
    });
    // The same state again (a reload, a replay): refused, whatever the code.
    browser.jar.set('curbside_sso_state', state);
    const again = await browser.get(
      `/api/auth/clever/callback?code=${codeFor('clever-teacher')}&state=${state}`,
    );
    expect(again).toEqual({ status: 302, location: '/login?sso=expired' });
  });

  it('refuses a state this browser did not start', async () => {
    configure(true);
    const victim = new Browser();
    const state = await new Browser().start();
    const answer = await victim.get(
      `/api/auth/clever/callback?code=${codeFor('clever-teacher')}&state=${state}`,
    );
    expect(answer).toEqual({ status: 302, location: '/login?sso=expired' });
    expect(victim.jar.has('curbside_session')).toBe(false);
  });

  it('accepts a sign-in started at Clever (no state), and finds the user by Clever id once linked', async () => {
    configure(true);
    const teacher = (await users.findCredentials(server.db, 'teacher_demo', 'staff'))?.user;
    expect(teacher?.cleverId).toBe('clever-teacher');
    people['clever-teacher'] = { email: 'changed@elsewhere.example', district: CLEVER_DISTRICT };
    const browser = new Browser();
    expect(await browser.get(`/api/auth/clever/callback?code=${codeFor('clever-teacher')}`)).toEqual({
      status: 302,
      location: '/',
    });
    expect((await browser.me()).body.username).toBe('teacher_demo');
  });

  it('sends an unknown Clever user, a refused consent and a bad code to the login screen with the reason', async () => {
    configure(true);
    const browser = new Browser();
    let state = await browser.start();
    expect(
      await browser.get(`/api/auth/clever/callback?code=${codeFor('clever-stranger')}&state=${state}`),
    ).toEqual({ status: 302, location: '/login?sso=unknown' });
    state = await browser.start();
    expect(await browser.get(`/api/auth/clever/callback?error=access_denied&state=${state}`)).toEqual({
      status: 302,
      location: '/login?sso=denied',
    });
    state = await browser.start();
    expect(await browser.get(`/api/auth/clever/callback?code=not-a-code&state=${state}`)).toEqual({
      status: 302,
      location: '/login?sso=expired',
    });
    expect(browser.jar.has('curbside_session')).toBe(false);
  });

  it('refuses a deactivated account', async () => {
    configure(true);
    const front = (await users.findCredentials(server.db, 'front_demo', 'staff'))?.user as User;
    await users.updateProfile(server.db, front, { active: false });
    try {
      const browser = new Browser();
      const state = await browser.start();
      const answer = await browser.get(
        `/api/auth/clever/callback?code=${codeFor('clever-front')}&state=${state}`,
      );
      expect(answer).toEqual({ status: 302, location: '/login?sso=inactive' });
    } finally {
      await users.updateProfile(server.db, { ...front, active: false }, { active: true });
    }
  });
});
