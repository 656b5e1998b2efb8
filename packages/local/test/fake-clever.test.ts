import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeClever, generateDistrict, startFakeClever } from '../src/fake-clever';

/** The fake Clever the laptop runtime and the tests use: Clever's documented behaviour, checked. */
let clever: FakeClever;

beforeAll(async () => {
  clever = await startFakeClever({ district: { seed: 11 } });
});
afterAll(async () => {
  await clever?.close();
});

const api = (path: string, token = clever.districtToken) =>
  fetch(new URL(path, clever.url), { headers: { authorization: `Bearer ${token}` } });

describe('the generated district', () => {
  const data = generateDistrict({ seed: 11 });
  const students = data.users.filter((user) => user.roles.student);

  it('has three schools and about 1,500 students, each in one section with a teacher, each with a guardian', () => {
    expect(data.schools).toHaveLength(3);
    expect(students).toHaveLength(1500);
    const sectionsOf = new Map<string, number>();
    for (const section of data.sections) {
      expect(data.users.find((user) => user.id === section.teacher)?.roles.teacher).toBeDefined();
      for (const id of section.students) sectionsOf.set(id, (sectionsOf.get(id) ?? 0) + 1);
    }
    expect(students.every((student) => sectionsOf.get(student.id) === 1)).toBe(true);
    const guarded = new Set(
      data.users.flatMap((user) => user.roles.contact?.student_relationships.map((r) => r.student) ?? []),
    );
    expect(students.every((student) => guarded.has(student.id))).toBe(true);
    const ids = new Set(data.users.map((user) => user.id));
    expect([...guarded].every((id) => ids.has(id))).toBe(true);
  });

  it('is the same for the same seed, and 20,000 students take well under a second', () => {
    expect(JSON.stringify(generateDistrict({ seed: 11 }))).toBe(JSON.stringify(data));
    expect(JSON.stringify(generateDistrict({ seed: 12 }))).not.toBe(JSON.stringify(data));
    const started = performance.now();
    const big = generateDistrict({ schools: 10, studentsPerSchool: 2000 });
    expect(big.users.filter((user) => user.roles.student)).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('the Data API v3.0', () => {
  it('pages a school’s students with limit and starting_after, following next, each student once', async () => {
    const school = clever.data.schools[0]?.id as string;
    const seen: string[] = [];
    let path: string | undefined = `/v3.0/schools/${school}/users?role=student&limit=100`;
    let pages = 0;
    while (path) {
      const body = (await (await api(path)).json()) as {
        data: Array<{ data: { id: string; roles: { student?: unknown } }; uri: string }>;
        links: Array<{ rel: string; uri: string }>;
      };
      pages++;
      expect(body.data.length).toBeLessThanOrEqual(100);
      for (const entry of body.data) {
        expect(entry.uri).toBe(`/v3.0/users/${entry.data.id}`);
        expect(entry.data.roles.student).toBeDefined();
        seen.push(entry.data.id);
      }
      path = body.links.find((link) => link.rel === 'next')?.uri;
    }
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toHaveLength(500);
  });

  it('answers 429 with X-RateLimit-Reset when throttled, then serves again', async () => {
    clever.throttleNext(1, 2);
    const throttled = await api('/v3.0/districts');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect((await api('/v3.0/districts')).status).toBe(200);
  });

  it('enforces a configured rate limit per token', async () => {
    const limited = await startFakeClever({
      district: { schools: 1, studentsPerSchool: 5 },
      rateLimit: { requests: 2, perSeconds: 60 },
    });
    try {
      const call = () =>
        fetch(new URL('/v3.0/districts', limited.url), {
          headers: { authorization: `Bearer ${limited.districtToken}` },
        });
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      const third = await call();
      expect(third.status).toBe(429);
      expect(third.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('refuses a revoked or unknown token with 401, and fails on demand', async () => {
    expect((await api('/v3.0/districts', 'nope')).status).toBe(401);
    clever.revokeDistrictToken();
    expect((await api('/v3.0/districts')).status).toBe(401);
    clever.restoreDistrictToken();
    clever.failNext(1, 502);
    expect((await api('/v3.0/districts')).status).toBe(502);
    expect((await api('/v3.0/districts')).status).toBe(200);
  });
});

describe('OAuth', () => {
  it('lists who can sign in, sends back a single-use code with the state, and /me answers the user', async () => {
    const redirect = 'http://localhost:9/api/auth/clever/callback';
    const page = await fetch(
      `${clever.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clever.clientId, redirect_uri: redirect, state: 's1' })}`,
    );
    const html = await page.text();
    expect(html).toContain('Sign in with Clever (test server)');
    const choose = /href="([^"]+)">Taylor Teacher</.exec(html)?.[1]?.replaceAll('&amp;', '&') as string;
    const back = await fetch(new URL(choose, clever.url), { redirect: 'manual' });
    const location = new URL(back.headers.get('location') as string);
    expect(location.origin + location.pathname).toBe(redirect);
    expect(location.searchParams.get('state')).toBe('s1');
    const code = location.searchParams.get('code') as string;

    const basic = `Basic ${Buffer.from(`${clever.clientId}:${clever.clientSecret}`).toString('base64')}`;
    const trade = (authorization: string) =>
      fetch(`${clever.url}/oauth/tokens`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ code, grant_type: 'authorization_code', redirect_uri: redirect }),
      });
    expect((await trade('Basic d3Jvbmc6c2VjcmV0')).status).toBe(401);
    const token = (await (await trade(basic)).json()) as { access_token: string };
    expect((await trade(basic)).status).toBe(400); // the code was used
    const me = (await (await api('/v3.0/me', token.access_token)).json()) as {
      data: { id: string; district: string };
    };
    expect(me.data.district).toBe(clever.districtId);
    const user = (await (await api(`/v3.0/users/${me.data.id}`, token.access_token)).json()) as {
      data: { email: string };
    };
    expect(user.data.email).toBe('teacher_demo@curbside.example');

    // A code is bound to the redirect_uri it was sent to, as Clever's are.
    const again = await fetch(new URL(choose, clever.url), { redirect: 'manual' });
    const second = new URL(again.headers.get('location') as string).searchParams.get('code') as string;
    const elsewhere = await fetch(`${clever.url}/oauth/tokens`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({
        code: second,
        grant_type: 'authorization_code',
        redirect_uri: 'http://localhost:9/elsewhere',
      }),
    });
    expect(elsewhere.status).toBe(400);
  });

  it('shows an error page for an unknown application', async () => {
    const page = await fetch(`${clever.url}/oauth/authorize?client_id=other&redirect_uri=http://x/cb`);
    expect(page.status).toBe(400);
  });
});
