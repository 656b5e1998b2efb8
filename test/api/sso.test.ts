import type { User } from '@curbside/domain';
import { type FakeClever, type FakeUser, startFakeClever } from '@curbside/local';
import { cleverLinks, users } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer } from '../support/server';

/**
 * Production sign-in through Clever: `GET /api/auth/login` sends the browser
 * to Clever's authorize page with a state bound to it; Clever sends it back
 * to the callback with a code; the staff account with that Clever id (or,
 * the first time, that email in the connected district) is signed in.
 *
 * Clever here is the fake one in the repository (`startFakeClever`), speaking
 * the documented OAuth calls (`POST /oauth/tokens` with the client's Basic
 * credentials, `GET /v3.0/me`, `GET /v3.0/users/{id}`): each code is good
 * once, as Clever's are.
 */
let clever: FakeClever;
let server: Awaited<ReturnType<typeof startTestServer>>;
/** The fake Clever's staff, by the demo account their email matches (and one Curbside does not know). */
const person = (email: string) => clever.data.users.find((user) => user.email === email) as FakeUser;
const ids = { teacher: '', front: '', stranger: '' };

beforeAll(async () => {
  clever = await startFakeClever({ district: { schools: 1, studentsPerSchool: 20 } });
  const teacher = person('teacher_demo@curbside.example');
  // Emails are matched whatever their case.
  teacher.email = 'Teacher_Demo@curbside.example';
  ids.teacher = teacher.id;
  ids.front = person('front_demo@curbside.example').id;
  ids.stranger = (
    clever.data.users.find((user) => user.email?.endsWith('@oakridge.example.org')) as FakeUser
  ).id;
  server = await startTestServer();
  // The demo district is the one connected to this Clever district (an import or an admin did it).
  await cleverLinks.linkDistrict(server.db, 1, clever.districtId);
});

afterAll(async () => {
  await server?.close();
  await clever?.close();
});

/** What Clever does when the user signs in there: a fresh code for them. */
const codeFor = (cleverId: string) => clever.codeFor(cleverId);

const configure = (on: boolean) => {
  if (on) {
    Object.assign(process.env, {
      CLEVER_CLIENT_ID: clever.clientId,
      CLEVER_CLIENT_SECRET: clever.clientSecret,
      CLEVER_OAUTH_URL: clever.url,
      CLEVER_API_URL: clever.url,
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
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${clever.url}/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: clever.clientId,
      redirect_uri: `${server.url}/api/auth/clever/callback`,
      state: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(browser.jar.get('curbside_sso_state')).toBe(authorize.searchParams.get('state'));
  });

  it('signs in the staff account with the Clever user’s email, keeps the Clever id, and spends the state', async () => {
    configure(true);
    const browser = new Browser();
    const state = await browser.start();
    const callback = `/api/auth/clever/callback?code=${codeFor(ids.teacher)}&state=${state}`;
    expect(await browser.get(callback)).toEqual({ status: 302, location: '/' });
    const me = await browser.me();
    expect(me.body).toMatchObject({ username: 'teacher_demo', role: 'teacher', cleverId: ids.teacher });
    expect(browser.jar.has('curbside_sso_state')).toBe(false);
    // The code went to Clever with the app's credentials and the same redirect URI.
    expect(clever.tokenRequests.at(-1)).toEqual({
      authorization: `Basic ${Buffer.from(`${clever.clientId}:${clever.clientSecret}`).toString('base64')}`,
      body: {
        code: expect.any(String),
        grant_type: 'authorization_code',
        redirect_uri: `${server.url}/api/auth/clever/callback`,
      },
    });
    // The same state again (a reload, a replay): refused, whatever the code.
    browser.jar.set('curbside_sso_state', state);
    const again = await browser.get(`/api/auth/clever/callback?code=${codeFor(ids.teacher)}&state=${state}`);
    expect(again).toEqual({ status: 302, location: '/login?sso=expired' });
  });

  it('refuses a state this browser did not start', async () => {
    configure(true);
    const victim = new Browser();
    const state = await new Browser().start();
    const answer = await victim.get(`/api/auth/clever/callback?code=${codeFor(ids.teacher)}&state=${state}`);
    expect(answer).toEqual({ status: 302, location: '/login?sso=expired' });
    expect(victim.jar.has('curbside_session')).toBe(false);
  });

  it('sends a sign-in started at Clever (no state) to start one here, then finds the user by Clever id once linked', async () => {
    configure(true);
    const teacher = (await users.findCredentials(server.db, 'teacher_demo', 'staff'))?.user;
    expect(teacher?.cleverId).toBe(ids.teacher);
    person('Teacher_Demo@curbside.example').email = 'changed@elsewhere.example';
    const browser = new Browser();
    // The Clever Portal's link: a code and no state. Nobody is signed in by it; the browser starts a sign-in.
    expect(await browser.get(`/api/auth/clever/callback?code=${codeFor(ids.teacher)}`)).toEqual({
      status: 302,
      location: '/api/auth/login',
    });
    expect(browser.jar.has('curbside_session')).toBe(false);
    // There it gets a state, and Clever (already signed in) sends it back with a code and that state.
    const state = await browser.start();
    expect(
      await browser.get(`/api/auth/clever/callback?code=${codeFor(ids.teacher)}&state=${state}`),
    ).toEqual({
      status: 302,
      location: '/',
    });
    expect((await browser.me()).body.username).toBe('teacher_demo');
  });

  it('never signs a browser in with a code it was handed without a state (login CSRF)', async () => {
    configure(true);
    // An attacker's own code, in a link or an image on their page.
    const victim = new Browser();
    const answer = await victim.get(`/api/auth/clever/callback?code=${codeFor(ids.front)}`);
    expect(answer).toEqual({ status: 302, location: '/api/auth/login' });
    expect(victim.jar.has('curbside_session')).toBe(false);
    expect((await victim.me()).status).toBe(401);
  });

  it('sends an unknown Clever user, a refused consent and a bad code to the login screen with the reason', async () => {
    configure(true);
    const browser = new Browser();
    let state = await browser.start();
    expect(
      await browser.get(`/api/auth/clever/callback?code=${codeFor(ids.stranger)}&state=${state}`),
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
      const answer = await browser.get(`/api/auth/clever/callback?code=${codeFor(ids.front)}&state=${state}`);
      expect(answer).toEqual({ status: 302, location: '/login?sso=inactive' });
    } finally {
      await users.updateProfile(server.db, { ...front, active: false }, { active: true });
    }
  });
});

describe('who a Clever sign-in may reach', () => {
  /** A Clever user with `email` for the test, given back after. */
  const withEmail = async (user: FakeUser, email: string, run: () => Promise<void>) => {
    const before = user.email;
    user.email = email;
    try {
      await run();
    } finally {
      if (before === undefined) delete user.email;
      else user.email = before;
    }
  };
  const signIn = async (cleverId: string) => {
    const browser = new Browser();
    const state = await browser.start();
    const answer = await browser.get(`/api/auth/clever/callback?code=${codeFor(cleverId)}&state=${state}`);
    return { answer, browser };
  };

  it('refuses a Clever student or guardian whose email is a staff member’s', async () => {
    configure(true);
    const student = clever.data.users.find((user) => user.roles.student) as FakeUser;
    const guardian = clever.data.users.find((user) => user.roles.contact) as FakeUser;
    for (const someone of [student, guardian]) {
      await withEmail(someone, 'back_demo@curbside.example', async () => {
        const { answer, browser } = await signIn(someone.id);
        expect(answer).toEqual({ status: 302, location: '/login?sso=unknown' });
        expect(browser.jar.has('curbside_session')).toBe(false);
      });
    }
    const back = (await users.findCredentials(server.db, 'back_demo', 'staff'))?.user;
    expect(back?.cleverId).toBeUndefined();
  });

  it('never hands an account linked to one Clever id to another Clever user with its email', async () => {
    configure(true);
    const admin = person('admin_demo@curbside.example');
    expect((await signIn(admin.id)).answer).toEqual({ status: 302, location: '/' });
    const other = clever.data.users.find(
      (user) => user.roles.teacher && user.id !== ids.teacher && user.email !== undefined,
    ) as FakeUser;
    await withEmail(other, 'admin_demo@curbside.example', async () => {
      const { answer, browser } = await signIn(other.id);
      expect(answer).toEqual({ status: 302, location: '/login?sso=unknown' });
      expect(browser.jar.has('curbside_session')).toBe(false);
    });
    const linked = (await users.findCredentials(server.db, 'admin_demo', 'staff'))?.user;
    expect(linked?.cleverId).toBe(admin.id);
    expect(await cleverLinks.userOf(server.db, other.id)).toBeUndefined();
  });

  it('lets a teacher change their own email, never a colleague’s (where a Clever sign-in would land)', async () => {
    const teacher = new Client(server.url);
    await teacher.login('teacher_demo');
    const staff = (await teacher.get('/api/teachers?limit=100')).body.items as Array<{
      id: number;
      username: string;
      firstName: string;
      lastName: string;
      email: string | null;
      phone: string | null;
    }>;
    const colleague = staff.find((row) => row.username !== 'teacher_demo' && row.email) as (typeof staff)[0];
    const edit = (row: typeof colleague, changes: Partial<typeof colleague>) => {
      const { firstName, lastName, email, phone } = { ...row, ...changes };
      return teacher.put(`/api/teachers/${row.id}`, { firstName, lastName, email, phone });
    };
    const refused = await edit(colleague, { email: 'teacher_demo@curbside.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'You can change only your own email.' });
    expect((await edit(colleague, { email: null })).status).toBe(403);
    const after = (await teacher.get('/api/teachers?limit=100')).body.items.find(
      (row: { id: number }) => row.id === colleague.id,
    );
    expect(after.email).toBe(colleague.email);
    // Their other details stay the teacher's to correct; their own email too.
    expect((await edit(colleague, { phone: '555-010-2030' })).status).toBe(200);
    const self = staff.find((row) => row.username === 'teacher_demo') as (typeof staff)[0];
    expect((await edit(self, { email: 'taylor.teacher@curbside.example' })).status).toBe(200);
    expect((await edit(self, { email: self.email })).status).toBe(200);
  });
});
