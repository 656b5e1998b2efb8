import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { cleverSettings, type FakeClever, localDynamoClient, startServer } from '@curbside/local';
import { seedIfEmpty } from '@curbside/local/seed';
import { createDb, type Db } from '@curbside/store';
import { inject } from 'vitest';

/** This test file's live-connection table (see `table-per-file.ts`). */
export const testConnectionsDb = (): Db =>
  createDb({
    table: process.env.CONNECTION_TABLE_NAME as string,
    endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
  });

/**
 * The laptop runtime on a free port, on this test file's own tables, seeded
 * with the demo data.
 */
export const startTestServer = async (
  options: { seed?: boolean; webDist?: string; clever?: FakeClever } = {},
) => {
  if (options.clever) useClever(options.clever);
  const tableName = process.env.TABLE_NAME as string;
  const dynamoEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
  const db: Db = createDb({ table: tableName, endpoint: dynamoEndpoint });
  const connectionsDb = testConnectionsDb();
  if (options.seed !== false) await seed(db, tableName, dynamoEndpoint);
  const server = await startServer({
    port: 0,
    tableName,
    connectionTableName: process.env.CONNECTION_TABLE_NAME as string,
    dynamoEndpoint,
    runSchedules: false,
    demo: options.seed !== false,
    ...(options.webDist ? { webDist: options.webDist } : {}),
  });
  return { ...server, db, connectionsDb };
};

/**
 * The demo seed in this file's table: the run's seed items copied in batch
 * writes (see `global-setup.ts`), or seeded afresh where the run has none.
 */
const seed = async (db: Db, tableName: string, endpoint: string) => {
  const items = inject('seedItems');
  if (!items) {
    await seedIfEmpty(db);
    return;
  }
  // This file's DynamoDB Local key (set by table-per-file.ts).
  const client = localDynamoClient(endpoint);
  try {
    const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) =>
      items.slice(i * 25, i * 25 + 25),
    );
    await Promise.all(
      batches.map(async (batch) => {
        let requests = batch.map((Item) => ({ PutRequest: { Item } }));
        while (requests.length > 0) {
          const { UnprocessedItems } = await client.send(
            new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }),
          );
          requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
        }
      }),
    );
  } finally {
    client.destroy();
  }
};

/** Points single sign-on and the roster import at a fake Clever (`startFakeClever()` from @curbside/local). */
export const useClever = (clever: FakeClever) => Object.assign(process.env, cleverSettings(clever));

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
