import { backoffMs, sleep } from '@curbside/domain';
import { cleverApiUrl } from '../../lib/clever-config';
import { config } from '../../lib/config';
import { log } from '../../lib/log';

/**
 * Clever's Data API v3.0 (https://dev.clever.com/docs/api-overview), read
 * with a district-app token: lists in the envelope
 * `{ data: [{ data, uri }], links: [{ rel, uri }] }`, paged with `limit` and
 * `starting_after` by following the `next` link; a single record as
 * `{ data, links }`.
 *
 * A 429 is retried once Clever's `X-RateLimit-Reset` (epoch seconds) has
 * passed; a 5xx or a dropped connection a few times with a growing pause; a
 * 401 means the district's token was revoked (the district disconnected the
 * app) and is not retried.
 */
export class CleverError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export const REVOKED_MESSAGE =
  'Clever refused the district’s token: the district may have disconnected Curbside in Clever. Reconnect it there, then import again.';

/** Records per page: Clever allows up to 10,000; tests page smaller to cross pages (`CLEVER_PAGE_SIZE`). */
export const pageSize = (): number => {
  const configured = config.clever.pageSize;
  return configured === undefined ? 1000 : Math.min(configured, 10_000);
};

const REQUEST_TIMEOUT_MS = 20_000;
const FAILURE_RETRIES = 4;
/**
 * The wait before the first retry of a failed request, doubled on each: half a second
 * (`CLEVER_RETRY_MS` shortens it for tests that make Clever fail on purpose).
 */
const retryWaitMs = (failures: number) => backoffMs(failures, config.clever.retryMs);
const THROTTLE_RETRIES = 8;
/** The longest wait for a rate-limit reset before giving up (the job keeps its place and can resume). */
const MAX_THROTTLE_WAIT_MS = 120_000;

export interface CleverPage<T> {
  records: T[];
  /** The `starting_after` of the next page; null on the last. */
  next: string | null;
}

interface Envelope<T> {
  data?: Array<{ data: T; uri?: string }> | T;
  links?: Array<{ rel: string; uri: string }>;
}

/** A Data API client for one district's token. */
export class CleverClient {
  /** Requests made, 429s waited out and failures retried (the job's log line). */
  readonly stats = { requests: 0, throttled: 0, retried: 0 };

  constructor(
    private readonly token: string,
    private readonly baseUrl = cleverApiUrl(),
  ) {}

  private async request<T>(path: string): Promise<Envelope<T>> {
    const url = new URL(path, this.baseUrl);
    let failures = 0;
    let throttles = 0;
    for (;;) {
      this.stats.requests++;
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        if (++failures > FAILURE_RETRIES)
          throw new CleverError(`Clever could not be reached (${(error as Error).message})`, null);
        this.stats.retried++;
        await sleep(retryWaitMs(failures));
        continue;
      }
      if (response.ok) return (await response.json()) as Envelope<T>;
      await response.body?.cancel();
      if (response.status === 401) throw new CleverError(REVOKED_MESSAGE, 401);
      if (response.status === 429) {
        const reset = Number(response.headers.get('x-ratelimit-reset'));
        const waitMs = Number.isFinite(reset) && reset > 0 ? reset * 1000 - Date.now() : 1000;
        if (++throttles > THROTTLE_RETRIES || waitMs > MAX_THROTTLE_WAIT_MS)
          throw new CleverError('Clever’s rate limit was reached; resume the import in a few minutes', 429);
        this.stats.throttled++;
        log('info', 'clever rate limit: waiting for its reset', { path: url.pathname, waitMs });
        await sleep(Math.max(250, waitMs + 100));
        continue;
      }
      if (response.status >= 500 && ++failures <= FAILURE_RETRIES) {
        this.stats.retried++;
        await sleep(retryWaitMs(failures));
        continue;
      }
      if (response.status === 404) throw new CleverError('Clever has no such record', 404);
      throw new CleverError(`Clever answered ${response.status}`, response.status);
    }
  }

  /** One record: `GET /v3.0/districts/{id}` and the like. */
  async get<T>(path: string): Promise<T> {
    const envelope = await this.request<T>(path);
    return envelope.data as T;
  }

  /** One page of a list, starting after `after` (null: the first page), `limit` records at most. */
  async page<T>(
    path: string,
    after: string | null,
    params: Record<string, string> = {},
    limit = pageSize(),
  ): Promise<CleverPage<T>> {
    const query = new URLSearchParams({ ...params, limit: String(limit) });
    if (after) query.set('starting_after', after);
    const envelope = await this.request<T>(`${path}?${query}`);
    const records = ((envelope.data as Array<{ data: T }> | undefined) ?? []).map((entry) => entry.data);
    const nextLink = envelope.links?.find((link) => link.rel === 'next')?.uri;
    const next = nextLink ? new URL(nextLink, this.baseUrl).searchParams.get('starting_after') : null;
    return { records, next: records.length > 0 ? next : null };
  }

  /** How many records a list has: read 10,000 a page (the most Clever gives), only counted. */
  async count(path: string, params: Record<string, string> = {}): Promise<number> {
    let total = 0;
    let after: string | null = null;
    do {
      const page: CleverPage<{ id: string }> = await this.page<{ id: string }>(path, after, params, 10_000);
      total += page.records.length;
      after = page.next;
    } while (after);
    return total;
  }

  /** Every record of a list, page after page. */
  async all<T>(path: string, params: Record<string, string> = {}): Promise<T[]> {
    const records: T[] = [];
    let after: string | null = null;
    do {
      const page: CleverPage<T> = await this.page<T>(path, after, params);
      records.push(...page.records);
      after = page.next;
    } while (after);
    return records;
  }
}

/** Clever's records, as far as the import reads them (v3.0). */
export interface CleverName {
  first?: string;
  middle?: string;
  last?: string;
}
export interface CleverDistrict {
  id: string;
  name: string;
  /** The district's data sync in Clever: running, pending, error, paused, success (v3.0). */
  state?: string;
}
export interface CleverSchool {
  id: string;
  district: string;
  name: string;
  location?: { state?: string };
}
export interface CleverUser {
  id: string;
  district: string;
  email?: string;
  name?: CleverName;
  roles?: {
    student?: {
      school?: string;
      schools?: string[];
      grade?: string;
      student_number?: string;
      sis_id?: string;
    };
    teacher?: { school?: string; schools?: string[] };
    contact?: {
      phone?: string;
      student_relationships?: Array<{ student: string; relationship?: string; type?: string }>;
    };
  };
}
export interface CleverSection {
  id: string;
  school: string;
  name?: string;
  grade?: string;
  teacher?: string;
  teachers?: string[];
  students?: string[];
}
