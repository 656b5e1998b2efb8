import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_NAMES, LAST_NAMES } from '@curbside/local/seed';
import { describe, expect, it } from 'vitest';

/**
 * Issue 55: no personal data in a log line. `npm test` runs the API and
 * WebSocket flows with their log output captured (`test/support/log-capture.ts`,
 * `CURBSIDE_LOG_CAPTURE`), then this file reads all of it: never a student's
 * name, a phone number, an email address, a token, nor a record dumped whole
 * (its personal fields by name); and every request's line names its request.
 */
const dir = process.env.CURBSIDE_LOG_CAPTURE ?? '';
const lines = (): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.log'))
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
        .filter((line) => line.trim() !== '')
    : [];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const PHONE = /(\(\d{3}\)\s?|\b\d{3}[-. ])\d{3}[-. ]\d{4}\b|\b555[-. ]\d{4}\b/;
/** An invite or reset link's token (32 random bytes, base64url), or a session token. */
const TOKEN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|[?&]t=[A-Za-z0-9_-]{8,}/;
/** A record's personal fields, as JSON keys. */
const PERSONAL_KEYS =
  /"(firstName|lastName|name|parentName|parentPhone|parentEmail|guardianName|alternateContactName|alternateContactPhone|phone|email|to|password|token|url)"\s*:/;
const STUDENT_NAMES = new RegExp(`\\b(${FIRST_NAMES.join('|')}) (${LAST_NAMES.join('|')})\\b`);

const offending = (pattern: RegExp) => lines().filter((line) => pattern.test(line));

describe('the log output of a whole API test run', () => {
  it('was captured: every request line is JSON with its request id, its function and its route', () => {
    const requests = lines()
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'request');
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) {
      expect(line.request_id, JSON.stringify(line)).toEqual(expect.any(String));
      expect(line.function_name, JSON.stringify(line)).toEqual(expect.any(String));
      expect(line.route, JSON.stringify(line)).toMatch(/^(GET|POST|PUT|PATCH|DELETE|HEAD) \/api\//);
    }
  });

  for (const [what, pattern] of [
    ['email address', EMAIL],
    ['phone number', PHONE],
    ['token', TOKEN],
    ['record’s personal fields', PERSONAL_KEYS],
    ['student’s name', STUDENT_NAMES],
  ] as const) {
    it(`holds no ${what}`, () => {
      expect(offending(pattern).slice(0, 5)).toEqual([]);
    });
  }
});
