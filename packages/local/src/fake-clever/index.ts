import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DistrictOptions, type FakeCleverData, type FakeUser, generateDistrict } from './data';

export {
  type FakeCleverData,
  type FakeSchool,
  type FakeSection,
  type FakeUser,
  generateDistrict,
} from './data';

/**
 * A fake Clever, in-process, for the laptop runtime and the tests: Clever's
 * OAuth ("Log in with Clever": `/oauth/authorize`, `/oauth/tokens`) and the
 * Data API v3.0 the import reads, as dev.clever.com documents them — bearer
 * tokens; lists in `{ data: [{ data, uri }], links: [{ rel, uri }] }`, paged
 * with `limit` (default 100, at most 10,000) and `starting_after` (ids in
 * ascending order) with a `next` link while more remain; single records as
 * `{ data, links }`; 401 for a bad or revoked token; 429 with
 * `X-RateLimit-Reset` (epoch seconds) past the rate limit.
 */
export interface FakeCleverOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  district?: DistrictOptions;
  /** At most `requests` Data API requests per `perSeconds` per token; off when absent. */
  rateLimit?: { requests: number; perSeconds: number };
}

export interface FakeClever {
  /** Serves both Clever hosts: OAuth (`/oauth/…`) and the API (`/v3.0/…`). */
  url: string;
  clientId: string;
  clientSecret: string;
  districtId: string;
  districtToken: string;
  data: FakeCleverData;
  /**
   * What Clever does when a user signs in on its page: a fresh single-use code
   * for them; with `redirectUri`, only a trade naming that redirect_uri takes it.
   */
  codeFor(cleverId: string, redirectUri?: string): string;
  /** The next `count` Data API requests (those whose path and query `only` accepts) answer 429. */
  throttleNext(count: number, resetSeconds?: number, only?: (path: string) => boolean): void;
  /** The next `count` Data API requests (those whose path and query `only` accepts) answer `status`. */
  failNext(count: number, status?: number, only?: (path: string) => boolean): void;
  revokeDistrictToken(): void;
  restoreDistrictToken(): void;
  /** Removes a user from the district (and from sections and contacts' relationships). */
  removeUser(cleverId: string): void;
  requestLog: Array<{ method: string; path: string; status: number }>;
  /** What each `POST /oauth/tokens` carried: its Authorization header and body. */
  tokenRequests: Array<{ authorization: string | undefined; body: Record<string, string> }>;
  close(): Promise<void>;
}

/** The next requests a test wants refused (`count` of them), those whose path and query `only` accepts. */
interface Fault {
  count: number;
  only?: (path: string) => boolean;
}

/** The settings that point single sign-on and the roster import at a fake Clever. */
export const cleverSettings = (clever: FakeClever): Record<string, string> => ({
  CLEVER_CLIENT_ID: clever.clientId,
  CLEVER_CLIENT_SECRET: clever.clientSecret,
  CLEVER_OAUTH_URL: clever.url,
  CLEVER_API_URL: clever.url,
  CLEVER_DISTRICT_TOKENS: JSON.stringify({ [clever.districtId]: clever.districtToken }),
});

const json = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => resolve(raw));
  });

export const startFakeClever = async (options: FakeCleverOptions = {}): Promise<FakeClever> => {
  const clientId = options.clientId ?? 'curbside-local';
  const clientSecret = options.clientSecret ?? 'curbside-local-secret';
  const data = generateDistrict(options.district);
  const districtToken = `district-${randomBytes(12).toString('hex')}`;
  let revoked = false;
  /** Codes by value: whose, until when, and the redirect_uri they were sent to (the trade must name it). */
  const codes = new Map<string, { user: string; expires: number; redirectUri?: string }>();
  const userTokens = new Map<string, string>();
  const requestLog: FakeClever['requestLog'] = [];
  const tokenRequests: FakeClever['tokenRequests'] = [];
  let throttle: Fault & { resetSeconds: number } = { count: 0, resetSeconds: 1 };
  let failures: Fault & { status: number } = { count: 0, status: 500 };
  /** Whether a fault set up by a test takes this request (and counts it). */
  const strikes = (fault: Fault, url: URL) => {
    if (fault.count <= 0 || !(fault.only?.(`${url.pathname}${url.search}`) ?? true)) return false;
    fault.count--;
    return true;
  };
  const windows = new Map<string, { start: number; count: number }>();

  const codeFor = (user: string, redirectUri?: string) => {
    const code = randomBytes(16).toString('hex');
    codes.set(code, { user, expires: Date.now() + 60_000, ...(redirectUri ? { redirectUri } : {}) });
    return code;
  };
  const byId = (id: string) => data.users.find((user) => user.id === id);
  const signInUsers = () =>
    data.users.filter((user) => user.roles.teacher || user.roles.staff || user.roles.district_admin);

  /** A page of a list, in Clever's envelope. */
  const list = <T extends { id: string }>(response: ServerResponse, url: URL, records: T[], kind: string) => {
    const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || 100, 1), 10_000);
    const after = url.searchParams.get('starting_after');
    const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const from = after ? sorted.findIndex((record) => record.id > after) : 0;
    const page = from < 0 ? [] : sorted.slice(from, from + limit);
    const links = [{ rel: 'self', uri: `${url.pathname}${url.search}` }];
    const last = page.at(-1);
    if (last && from + limit < sorted.length) {
      const next = new URLSearchParams(url.searchParams);
      next.set('limit', String(limit));
      next.set('starting_after', last.id);
      links.push({ rel: 'next', uri: `${url.pathname}?${next}` });
    }
    json(response, 200, {
      data: page.map((record) => ({ data: record, uri: `/v3.0/${kind}/${record.id}` })),
      links,
    });
  };
  const one = (response: ServerResponse, record: unknown, uri: string) =>
    record
      ? json(response, 200, { data: record, links: [{ rel: 'self', uri }] })
      : json(response, 404, { message: 'Resource not found' });

  const withRole = (users: FakeUser[], role: string | null) =>
    role ? users.filter((user) => (user.roles as Record<string, unknown>)[role] !== undefined) : users;
  const inSchool = (user: FakeUser, school: string) =>
    user.roles.student?.schools.includes(school) ||
    user.roles.teacher?.schools.includes(school) ||
    user.roles.staff?.schools.includes(school);

  const dataApi = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const bearer = (request.headers.authorization ?? '').replace(/^Bearer /i, '');
    const asUser = userTokens.get(bearer);
    const asDistrict = bearer === districtToken && !revoked;
    if (!asDistrict && !asUser) return json(response, 401, { error: 'Unauthorized' });
    if (strikes(failures, url)) return json(response, failures.status, { error: 'Internal Server Error' });
    const now = Date.now();
    if (strikes(throttle, url)) {
      return json(
        response,
        429,
        { error: 'Too Many Requests' },
        {
          'X-RateLimit-Reset': String(Math.ceil(now / 1000) + throttle.resetSeconds),
          'X-RateLimit-Limit': '1200',
          'X-RateLimit-Remaining': '0',
        },
      );
    }
    if (options.rateLimit) {
      const { requests, perSeconds } = options.rateLimit;
      let window = windows.get(bearer);
      if (!window || now - window.start >= perSeconds * 1000) window = { start: now, count: 0 };
      window.count++;
      windows.set(bearer, window);
      const reset = String(Math.ceil((window.start + perSeconds * 1000) / 1000));
      response.setHeader('X-RateLimit-Limit', String(requests));
      response.setHeader('X-RateLimit-Remaining', String(Math.max(0, requests - window.count)));
      response.setHeader('X-RateLimit-Reset', reset);
      if (window.count > requests) return json(response, 429, { error: 'Too Many Requests' });
    }
    const parts = url.pathname.split('/').slice(2); // after /v3.0
    const role = url.searchParams.get('role');
    const [kind, id, sub] = parts;
    if (kind === 'me' && asUser) {
      return json(response, 200, {
        type: 'user',
        data: { id: asUser, district: data.district.id, type: 'user', authorized_by: 'district' },
        links: [
          { rel: 'self', uri: '/me' },
          { rel: 'canonical', uri: `/v3.0/users/${asUser}` },
        ],
      });
    }
    if (asUser) {
      // A user's token reads that user only.
      if (kind === 'users' && id === asUser && !sub) return one(response, byId(asUser), url.pathname);
      return json(response, 403, { error: 'Forbidden' });
    }
    if (kind === 'districts')
      return id
        ? one(response, id === data.district.id ? data.district : undefined, url.pathname)
        : list(response, url, [data.district], 'districts');
    if (kind === 'schools' && !id) return list(response, url, data.schools, 'schools');
    if (kind === 'schools' && id) {
      const school = data.schools.find((s) => s.id === id);
      if (!school) return json(response, 404, { message: 'Resource not found' });
      if (!sub) return one(response, school, url.pathname);
      if (sub === 'users')
        return list(
          response,
          url,
          withRole(
            data.users.filter((user) => inSchool(user, id)),
            role,
          ),
          'users',
        );
      if (sub === 'sections')
        return list(
          response,
          url,
          data.sections.filter((s) => s.school === id),
          'sections',
        );
    }
    if (kind === 'users' && !id) return list(response, url, withRole(data.users, role), 'users');
    if (kind === 'users' && id && !sub) return one(response, byId(id), url.pathname);
    if (kind === 'users' && id && sub === 'mycontacts') {
      return list(
        response,
        url,
        data.users.filter((user) => user.roles.contact?.student_relationships.some((r) => r.student === id)),
        'users',
      );
    }
    if (kind === 'sections')
      return id
        ? one(
            response,
            data.sections.find((s) => s.id === id),
            url.pathname,
          )
        : list(response, url, data.sections, 'sections');
    return json(response, 404, { message: 'Resource not found' });
  };

  const authorizePage = (response: ServerResponse, url: URL) => {
    const redirect = url.searchParams.get('redirect_uri') ?? '';
    const state = url.searchParams.get('state');
    if (url.searchParams.get('client_id') !== clientId || !/^https?:\/\//.test(redirect)) {
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(
        '<!doctype html><html lang="en"><title>Clever</title><h1>Unknown application</h1></html>',
      );
    }
    const rows = signInUsers()
      .map((user) => {
        const back = new URL(redirect);
        back.searchParams.set('code', `pending-${user.id}`);
        if (state) back.searchParams.set('state', state);
        const label = `${user.name.first} ${user.name.last}`;
        const role = user.roles.teacher ? 'Teacher' : user.roles.district_admin ? 'District admin' : 'Staff';
        return `<li><a href="/oauth/choose?${new URLSearchParams({ user: user.id, back: back.toString(), redirect_uri: redirect })}">${escapeHtml(label)}</a> <span>${role} · ${escapeHtml(user.email ?? '')}</span></li>`;
      })
      .join('');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in with Clever (test server)</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}a{color:#0b4fa8}li{margin:.6rem 0}span{color:#444}</style></head><body><main><h1>Sign in with Clever (test server)</h1><p>${escapeHtml(data.district.name)}: choose who signs in.</p><ul>${rows}</ul></main></body></html>`,
    );
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://clever.local');
    response.on('finish', () =>
      requestLog.push({
        method: request.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        status: response.statusCode,
      }),
    );
    if (url.pathname === '/oauth/authorize') return authorizePage(response, url);
    if (url.pathname === '/oauth/choose') {
      const back = new URL(url.searchParams.get('back') ?? '');
      const redirectUri = url.searchParams.get('redirect_uri') ?? undefined;
      back.searchParams.set('code', codeFor(url.searchParams.get('user') ?? '', redirectUri));
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }
    if (url.pathname === '/oauth/tokens' && request.method === 'POST') {
      const raw = await readBody(request);
      const body: Record<string, string> = (request.headers['content-type'] ?? '').includes('json')
        ? JSON.parse(raw || '{}')
        : Object.fromEntries(new URLSearchParams(raw));
      tokenRequests.push({ authorization: request.headers.authorization, body });
      const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== basic) return json(response, 401, { error: 'invalid_client' });
      const grant = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      if (
        !grant ||
        grant.expires < Date.now() ||
        body.grant_type !== 'authorization_code' ||
        (grant.redirectUri !== undefined && body.redirect_uri !== grant.redirectUri)
      )
        return json(response, 400, { error: 'invalid_grant' });
      const token = `user-${randomBytes(12).toString('hex')}`;
      userTokens.set(token, grant.user);
      return json(response, 200, { access_token: token, token_type: 'bearer' });
    }
    if (url.pathname.startsWith('/v3.0/')) return dataApi(request, response, url);
    json(response, 404, { message: 'Resource not found' });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clientId,
    clientSecret,
    districtId: data.district.id,
    districtToken,
    data,
    codeFor,
    throttleNext: (count, resetSeconds = 1, only) => {
      throttle = { count, resetSeconds, ...(only ? { only } : {}) };
    },
    failNext: (count, status = 500, only) => {
      failures = { count, status, ...(only ? { only } : {}) };
    },
    revokeDistrictToken: () => {
      revoked = true;
    },
    restoreDistrictToken: () => {
      revoked = false;
    },
    removeUser: (cleverId) => {
      data.users = data.users.filter((user) => user.id !== cleverId);
      for (const section of data.sections)
        section.students = section.students.filter((id) => id !== cleverId);
      for (const user of data.users) {
        if (user.roles.contact)
          user.roles.contact.student_relationships = user.roles.contact.student_relationships.filter(
            (r) => r.student !== cleverId,
          );
      }
    },
    requestLog,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
