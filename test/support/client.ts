/** The tests' HTTP client: one browser's cookie jar over `fetch` (no Vitest import: the Lighthouse run uses it too). */
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A minimal HTTP client that keeps its own session cookie, like one browser. */
export class Client {
  cookie: string | undefined;
  constructor(readonly baseUrl: string) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      // A redirect is an answer of the API (single sign-on), not a page to fetch.
      redirect: 'manual',
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      if (pair?.startsWith('curbside_session=')) {
        this.cookie = /Max-Age=0/.test(setCookie) ? undefined : pair;
      }
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body ?? {});
  }

  async login(username: string, password = 'demo1234') {
    const path = username.startsWith('parent') ? '/api/auth/parent/login' : '/api/login';
    const answer = await this.post(path, { username, password });
    if (answer.status !== 200)
      throw new Error(`${username} could not sign in: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }
}

export const signedIn = async (baseUrl: string, username: string) => {
  const client = new Client(baseUrl);
  await client.login(username);
  return client;
};
