import { beforeAll, describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn } from '../support/server';

/**
 * A screen reads its lists while its live connection is still connecting (a
 * slow network, a busy tablet). A change made in that moment goes to no socket
 * of the screen; when the connection opens, the screen must read again what it
 * had read, or it would show a stale queue until the next refetch.
 */
const suite = browserSuite();
let front: Client;
let sessionId: number;

/**
 * Holds the page's WebSockets in "connecting" until the test calls
 * `window.openLive()`: a stand-in with the browser socket's shape that makes the
 * real socket only then.
 */
const GATED_SOCKETS = `(() => {
  const Native = window.WebSocket;
  let open;
  const gate = new Promise((resolve) => { open = resolve; });
  window.openLive = () => open();
  class GatedWebSocket {
    static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3;
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      gate.then(() => {
        if (this.readyState === 3) return;
        const socket = new Native(url);
        this.socket = socket;
        socket.onopen = (event) => { this.readyState = 1; this.onopen?.(event); };
        socket.onmessage = (event) => this.onmessage?.(event);
        socket.onerror = (event) => this.onerror?.(event);
        socket.onclose = (event) => { this.readyState = 3; this.onclose?.(event); };
      });
    }
    send(data) { this.socket?.send(data); }
    close(code) { if (this.socket) this.socket.close(code); else this.readyState = 3; }
  }
  window.WebSocket = GatedWebSocket;
})();`;

beforeAll(async () => {
  front = await signedIn(suite.server.url, 'front_demo');
  const created = await front.post('/api/sessions', sessionBody());
  expect(created.status).toBe(201);
  sessionId = created.body.id;
});

describe('a screen whose live connection opens after it read its lists', () => {
  it('reads them again when it opens, so a change made meanwhile shows', async () => {
    const first = await front.post('/api/queue', { sessionId, vehicleNumber: '501', vehicleType: 'car' });
    expect(first.status).toBe(201);
    const { page } = await suite.open('front_demo', '/front-queue', {
      viewport: viewports.tablet,
      initScripts: [GATED_SOCKETS],
    });
    const card = (name: string) => page.getByRole('group', { name, exact: true });
    await card('Car 501').waitFor();

    // Queued while the screen's socket is still connecting: no socket of the screen hears of it.
    const second = await front.post('/api/queue', { sessionId, vehicleNumber: '502', vehicleType: 'car' });
    expect(second.status).toBe(201);
    expect(await card('Car 502').count()).toBe(0);

    await page.evaluate(() => (window as unknown as { openLive: () => void }).openLive());
    await expect.poll(() => card('Car 502').count(), { timeout: 15_000 }).toBe(1);
    expect(await card('Car 501').count()).toBe(1);
  }, 60_000);

  it('logs no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
