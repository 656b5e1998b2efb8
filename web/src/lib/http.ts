import { REQUEST_ID_HEADER } from '@curbside/api';

/**
 * Raised for any non-OK answer. `message` is `"{status}: {body text or status text}"`,
 * as the specification's error catalogue has it; `body` holds the parsed JSON answer
 * (the server sends `{ "message": "…" }`) or the raw text.
 */
export class HttpError extends Error {
  override name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
    /** The request's reference (`X-Request-Id`), which the server's log lines name: "Reference: …" on a toast. */
    readonly requestId: string | null = null,
  ) {
    super(message);
  }
}

/** Letters easy to read out over the phone (Crockford's base32: no I, L, O or U). */
const REFERENCE_LETTERS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new request reference, `7KQ2-M9XD-3FHA` (60 random bits): sent as `X-Request-Id` with every call. */
export const newRequestId = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const letters = Array.from(bytes, (byte) => REFERENCE_LETTERS[byte % 32]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8)}`;
};

/** Failed calls of the last moments, newest last, for the toast that tells of one to name its reference. */
export interface FailedCall {
  reference: string;
  /** What the server said (`errorMessage`). */
  message: string;
  at: number;
}
const failedCalls: FailedCall[] = [];
const FAILED_CALLS_KEPT = 20;

/** Takes (and forgets) the failed call a toast tells of: the one whose message it shows, else the newest of the last 3 s. */
export const takeFailedCall = (shown: string | null, now = Date.now()): FailedCall | undefined => {
  const recent = (call: FailedCall) => now - call.at < 10_000;
  let index =
    shown === null ? -1 : failedCalls.findLastIndex((call) => recent(call) && shown.includes(call.message));
  if (index === -1) index = failedCalls.findLastIndex((call) => now - call.at < 3_000);
  if (index === -1) return undefined;
  return failedCalls.splice(index, 1)[0];
};

/** The server's own message (`{ "message": "…" }`) if there is one, else the error's message. */
export const errorMessage = (error: unknown): string => {
  if (error instanceof HttpError) {
    const body = error.body;
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      return body.message;
    }
  }
  return error instanceof Error ? error.message : String(error);
};

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** How long after the page opened its first script's reads may answer the app's calls. */
const EARLY_READS_MS = 15_000;

/**
 * The answer the page's first script (web/route-preload.ts) already asked for this call, if any:
 * the screen's first reads leave while the app's code downloads. Each is taken once, by a GET
 * without headers of its own (or, for a page opened from a school's link, with that link's
 * `Authorization` alone: the script read it with the same) in the page's first seconds; a change
 * (any other method) or the end of that time leaves the rest unused. A URL asked for here is
 * marked, so the script does not read it again.
 */
const takeEarlyRead = (method: string, url: string, headers: Record<string, string>) => {
  const holder = globalThis as { curbsideEarly?: Record<string, Promise<Response> | null> };
  holder.curbsideEarly ??= {};
  const kept = holder.curbsideEarly;
  if (method !== 'GET' || performance.now() > EARLY_READS_MS) {
    for (const key of Object.keys(kept)) kept[key] = null;
    return null;
  }
  const names = Object.keys(headers);
  const key =
    names.length === 0
      ? url
      : names.length === 1 && names[0] === 'authorization'
        ? `${url} ${headers.authorization}`
        : null;
  if (key === null) return null;
  const answer = kept[key] ?? null;
  kept[key] = null;
  return answer;
};

/**
 * One HTTP call with the session cookie. A body is sent as JSON only when
 * present (or as text, for a route that takes `text/csv`); a JSON answer is
 * parsed (an empty answer is `null`).
 */
export const request = async <T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  contentType: 'application/json' | 'text/csv' = 'application/json',
  headers: Record<string, string> = {},
): Promise<T> => {
  const requestId = newRequestId();
  const early = await takeEarlyRead(method, url, headers)?.catch(() => null);
  const response =
    early ??
    (await fetch(url, {
      method,
      credentials: 'include',
      headers: {
        ...(body !== undefined ? { 'content-type': contentType } : {}),
        [REQUEST_ID_HEADER]: requestId,
        ...headers,
      },
      ...(body !== undefined
        ? { body: contentType === 'application/json' ? JSON.stringify(body) : String(body) }
        : {}),
    }));
  const text = await response.text();
  if (!response.ok) {
    const error = new HttpError(
      response.status,
      `${response.status}: ${text || response.statusText}`,
      parse(text),
      response.headers.get(REQUEST_ID_HEADER) ?? requestId,
    );
    failedCalls.push({ reference: error.requestId as string, message: errorMessage(error), at: Date.now() });
    if (failedCalls.length > FAILED_CALLS_KEPT) failedCalls.shift();
    throw error;
  }
  return (text ? JSON.parse(text) : null) as T;
};
