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
  ) {
    super(message);
  }
}

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
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: { ...(body !== undefined ? { 'content-type': contentType } : {}), ...headers },
    ...(body !== undefined
      ? { body: contentType === 'application/json' ? JSON.stringify(body) : String(body) }
      : {}),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new HttpError(response.status, `${response.status}: ${text || response.statusText}`, parse(text));
  }
  return (text ? JSON.parse(text) : null) as T;
};
