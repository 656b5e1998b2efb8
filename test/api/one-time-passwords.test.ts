import { MUST_CHANGE_PASSWORD, ONE_TIME_PASSWORD_EXPIRED, ONE_TIME_PASSWORD_TTL_MS } from '@curbside/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * A one-time password (given by an admin) only lets its holder choose their
 * own: until they do, the server answers their account, the password change
 * and sign-out, and refuses everything else; it stops working once a new one
 * is given or set, and after 7 days.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let district: Client;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer();
  [district, admin] = await Promise.all([
    signedIn(server.url, 'district_demo'),
    signedIn(server.url, 'admin_demo'),
  ]);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

let made = 0;
/** A new school admin of the demo school, with the one-time sign-in the district admin was shown. */
const newSchoolAdmin = async () => {
  made += 1;
  const answer = await district.post('/api/districts/1/users', {
    firstName: 'Otto',
    lastName: `Admin${made}`,
    email: `otto${made}@lincoln.example`,
    role: 'school_admin',
    schoolId: 1,
  });
  expect(answer.status).toBe(201);
  return answer.body.credentials as { username: string; password: string };
};
const parentSignIn = (client: Client, credentials: { username: string; password: string }) =>
  client.post('/api/auth/parent/login', credentials);
const vehicle = () => ({ number: String(7000 + made), type: 'car', parentName: 'Someone' });

describe('a staff member signed in with a one-time password', () => {
  it('may read themselves, set their own password and sign out; everything else is refused until then', async () => {
    const credentials = await newSchoolAdmin();
    const otto = new Client(server.url);
    expect((await otto.login(credentials.username, credentials.password)).mustChangePassword).toBe(true);
    expect((await otto.get('/api/me')).status).toBe(200);
    for (const answer of [
      await otto.post('/api/vehicles', vehicle()),
      await otto.get('/api/students'),
      await otto.get('/api/sessions/active'),
    ]) {
      expect(answer).toMatchObject({ status: 403, body: { message: MUST_CHANGE_PASSWORD } });
    }
    const set = await otto.post('/api/auth/password', {
      currentPassword: credentials.password,
      newPassword: 'a-good-password',
    });
    expect(set.status).toBe(200);
    expect((await otto.post('/api/vehicles', vehicle())).status).toBe(201);
  });

  it('may sign out', async () => {
    const credentials = await newSchoolAdmin();
    const otto = new Client(server.url);
    await otto.login(credentials.username, credentials.password);
    expect((await otto.post('/api/logout')).status).toBe(200);
    expect((await otto.get('/api/me')).status).toBe(401);
  });

  it('stops working after 7 days', async () => {
    const credentials = await newSchoolAdmin();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + ONE_TIME_PASSWORD_TTL_MS + 60_000);
    const answer = await new Client(server.url).post('/api/login', credentials);
    expect(answer).toMatchObject({ status: 401, body: { message: ONE_TIME_PASSWORD_EXPIRED } });
  });

  it('works for 6 days', async () => {
    const credentials = await newSchoolAdmin();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + ONE_TIME_PASSWORD_TTL_MS - 24 * 60 * 60 * 1000);
    expect((await new Client(server.url).post('/api/login', credentials)).status).toBe(200);
  });
});

describe('a parent given a one-time password by the school', () => {
  const newParent = async () => {
    made += 1;
    const answer = await admin.post('/api/parents', {
      firstName: 'Paula',
      lastName: `Parent${made}`,
      email: `paula${made}@family.example`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
    });
    expect(answer.status).toBe(201);
    return answer.body as { parent: Record<string, unknown> & { id: number }; credentials: any };
  };

  it('is asked to set their own, and reads nothing else until then', async () => {
    const { credentials } = await newParent();
    const paula = new Client(server.url);
    const signIn = await parentSignIn(paula, credentials);
    expect(signIn.status).toBe(200);
    expect(signIn.body.mustChangePassword).toBe(true);
    expect(await paula.get('/api/parent/students')).toMatchObject({
      status: 403,
      body: { message: MUST_CHANGE_PASSWORD },
    });
    expect(
      (
        await paula.post('/api/auth/password', {
          currentPassword: credentials.password,
          newPassword: 'my-own-pass',
        })
      ).status,
    ).toBe(200);
    expect((await paula.get('/api/parent/students')).status).toBe(200);
  });

  it('a second one given by the school ends the first, and is one-time too', async () => {
    const { parent, credentials: first } = await newParent();
    const reset = await admin.put(`/api/parents/${parent.id}`, {
      firstName: 'Paula',
      lastName: `Parent${made}`,
      email: `paula${made}@family.example`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      resetPassword: true,
    });
    expect(reset.status).toBe(200);
    expect((await parentSignIn(new Client(server.url), first)).status).toBe(401);
    const second = await parentSignIn(new Client(server.url), reset.body.credentials);
    expect(second.status).toBe(200);
    expect(second.body.mustChangePassword).toBe(true);
  });
});
