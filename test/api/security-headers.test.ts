import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server';

/**
 * The site and the API answer with a strict Content-Security-Policy,
 * Permissions-Policy (geolocation only on the bus driver's page), nosniff and
 * Referrer-Policy: the laptop runtime sends what CloudFront sends in AWS.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ webDist: '/nonexistent-web-dist' });
});
afterAll(async () => {
  await server?.close();
});

const policyOf = (csp: string) =>
  Object.fromEntries(
    csp.split(';').map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  ) as Record<string, string[]>;

describe.each([
  ['the web app', '/'],
  ['a page of the app', '/back-queue'],
  ['an API answer', '/api/health'],
  ['an API error', '/api/me'],
  ['an unknown API path', '/api/nothing-here'],
])('%s', (_, path) => {
  it('carries a strict Content-Security-Policy: scripts from the site only, never framed', async () => {
    const response = await fetch(`${server.url}${path}`);
    const policy = policyOf(response.headers.get('content-security-policy') ?? '');
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['connect-src']?.[0]).toBe("'self'");
    expect(policy['connect-src']).toContain('https://tile.openstreetmap.org');
    expect(policy['worker-src']).toEqual(["'self'", 'blob:']);
    expect(JSON.stringify(policy)).not.toMatch(/unsafe-eval|\*/);
  });

  it('forbids sniffing, sends no path to other sites, and keeps geolocation off', async () => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('permissions-policy')).toMatch(/(^|, )geolocation=\(\)(,|$)/);
  });
});

describe("the bus driver's page", () => {
  it('alone may ask for the device position', async () => {
    const response = await fetch(`${server.url}/bus-driver`);
    expect(response.headers.get('permissions-policy')).toMatch(/(^|, )geolocation=\(self\)(,|$)/);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
  });
});

describe("the front queue's page", () => {
  it('alone may open the camera and compile WebAssembly (the Scan button), and never asks for the position', async () => {
    const response = await fetch(`${server.url}/front-queue`);
    const permissions = response.headers.get('permissions-policy') ?? '';
    expect(permissions).toMatch(/(^|, )camera=\(self\)(,|$)/);
    expect(permissions).toMatch(/(^|, )geolocation=\(\)(,|$)/);
    const policy = policyOf(response.headers.get('content-security-policy') ?? '');
    expect(policy['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    const elsewhere = await fetch(`${server.url}/back-queue`);
    expect(elsewhere.headers.get('permissions-policy')).toMatch(/(^|, )camera=\(\)(,|$)/);
  });
});
