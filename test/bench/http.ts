/**
 * The load generator's HTTP side: one keep-alive client per simulated tablet,
 * with its own session cookie, recording every call's latency (client-side,
 * from request start to the last byte of the answer) under its route name.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Samples, summarize } from './stats';
import type { RouteFigures, Summary } from './types';

export type Phase = 'setup' | 'probe' | 'load' | 'rush' | 'baseline';

interface RouteRecord {
  latency: Samples;
  statuses: Map<number, number>;
  /** HTTP API bills requests in 512 KB increments (request plus answer). */
  billedRequests: number;
  bytes: number;
}

const HTTP_API_INCREMENT = 512 * 1024;

/** Every call of the run, per phase and route. */
export class Recorder {
  phase: Phase = 'setup';
  private readonly records = new Map<Phase, Map<string, RouteRecord>>();
  /** Calls that failed without an HTTP answer (connection refused, reset). */
  networkErrors = 0;

  record(route: string, ms: number, status: number, bytes: number) {
    const byRoute = this.records.get(this.phase) ?? new Map<string, RouteRecord>();
    this.records.set(this.phase, byRoute);
    const entry = byRoute.get(route) ?? {
      latency: new Samples(),
      statuses: new Map<number, number>(),
      billedRequests: 0,
      bytes: 0,
    };
    byRoute.set(route, entry);
    entry.latency.push(ms);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    entry.billedRequests += Math.max(1, Math.ceil(bytes / HTTP_API_INCREMENT));
    entry.bytes += bytes;
  }

  routes(phase: Phase): Record<string, RouteFigures> {
    const out: Record<string, RouteFigures> = {};
    for (const [route, entry] of this.records.get(phase) ?? []) {
      out[route] = {
        calls: entry.latency.length,
        latencyMs: entry.latency.summary(),
        statuses: Object.fromEntries([...entry.statuses].map(([status, n]) => [String(status), n])),
        billedRequests: entry.billedRequests,
        bytes: entry.bytes,
      };
    }
    return out;
  }

  /** Every latency of a phase, all routes together. */
  overall(phase: Phase): Summary {
    return summarize(this.between(phase, 0, Number.POSITIVE_INFINITY));
  }

  /** Latencies of a phase's calls that ended in [from, to) (epoch ms), all routes together. */
  between(phase: Phase, from: number, to: number): number[] {
    const out: number[] = [];
    for (const entry of this.records.get(phase)?.values() ?? []) {
      for (const value of entry.latency.between(from, to)) out.push(value);
    }
    return out;
  }

  count(phase: Phase, predicate: (status: number) => boolean): number {
    let n = 0;
    for (const entry of this.records.get(phase)?.values() ?? []) {
      for (const [status, count] of entry.statuses) if (predicate(status)) n += count;
    }
    return n;
  }
}

export interface Answer<T = any> {
  status: number;
  body: T;
}

/**
 * One tablet: a keep-alive connection pool and a session cookie. Idle
 * connections close after 4 s, before the server's keep-alive timeout (5 s)
 * could close one under a request. A call that gets no answer resolves with
 * status 0 (counted as a network error), so a loop never dies of it.
 */
export class BenchClient {
  cookie: string | undefined;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4, timeout: 4000 });
  private readonly port: number;

  constructor(
    baseUrl: string,
    private readonly recorder: Recorder,
  ) {
    const url = new URL(baseUrl);
    // The load generator only ever targets this machine.
    if (url.hostname !== '127.0.0.1')
      throw new Error(`The benchmark only targets 127.0.0.1, not ${url.host}`);
    this.port = Number(url.port);
  }

  call<T = any>(route: string, method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    return new Promise<Answer<T>>((resolve) => {
      const fail = (error: Error) => {
        this.recorder.networkErrors++;
        this.recorder.record(route, performance.now() - started, 0, 0);
        resolve({ status: 0, body: { message: `network error: ${error.message}` } as T });
      };
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            ...(this.cookie ? { cookie: this.cookie } : {}),
            // Every mutation carries a key, as the web client's do (one per call: the bench never resends).
            ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => fail(error));
          response.on('end', () => {
            const ms = performance.now() - started;
            const raw = Buffer.concat(chunks);
            const text = raw.toString('utf8');
            const status = response.statusCode ?? 0;
            this.recorder.record(route, ms, status, raw.length + (payload?.length ?? 0));
            for (const setCookie of response.headers['set-cookie'] ?? []) {
              const [pair] = setCookie.split(';');
              if (pair?.startsWith('curbside_session=')) {
                this.cookie = /Max-Age=0/.test(setCookie) ? undefined : pair;
              }
            }
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = text;
            }
            resolve({ status, body: parsed as T });
          });
        },
      );
      req.on('error', fail);
      req.end(payload);
    });
  }

  async login(username: string, password: string) {
    const answer = await this.call('login', 'POST', '/api/login', { username, password });
    if (answer.status !== 200) {
      throw new Error(`${username} could not sign in: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.body as { id: number };
  }

  close() {
    this.agent.destroy();
  }
}
