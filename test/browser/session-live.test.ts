import { DeleteConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { channels } from '@curbside/api';
import { connections } from '@curbside/store';
import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * A session started or ended by the office reaches every staff screen of the
 * school live (issue 50, item 2): the front, back, teacher and school admin
 * tablets switch within 2 s without a reload, the teacher's too while it
 * follows its classrooms only. A screen whose live connection was lost while
 * the session started catches up when it comes back.
 */
const suite = browserSuite({ closeAfterEach: true });
const { errors } = suite;
let admin: Client;

beforeAll(async () => {
  admin = await suite.client('admin_demo');
});

afterEach(async () => {
  const running = (await admin.get('/api/sessions/active')).body;
  if (running) await admin.put(`/api/sessions/${running.id}/end`);
  expect(errors.splice(0)).toEqual([]);
});

const SWITCH_MS = 2_000;

const noSession = (page: Page) => page.getByRole('heading', { name: 'No Active Session' }).first();

/**
 * The four staff screens of a dismissal: what each shows with no session (the teacher's
 * Attendance tab is its first without one), and what it shows with one running.
 */
const SCREENS = [
  [
    'front_demo',
    '/front-queue',
    noSession,
    (page: Page) => page.getByRole('heading', { name: 'Add Vehicle to Queue' }),
  ],
  [
    'back_demo',
    '/back-queue',
    noSession,
    (page: Page) => page.getByRole('heading', { name: 'Batch Management' }),
  ],
  [
    'teacher_demo',
    '/teacher',
    (page: Page) => page.getByRole('tab', { name: 'Attendance', selected: true }),
    (page: Page) => page.getByRole('region', { name: 'My Classroom' }),
  ],
  [
    'admin_demo',
    '/school-admin',
    noSession,
    (page: Page) => page.getByText('Current Session', { exact: true }),
  ],
] as const;

const pill = (page: Page) => page.getByTestId('session-pill');
const startButton = (page: Page) => page.getByRole('button', { name: 'Start Session', exact: true });

const openAll = async () => {
  const screens: Array<{ page: Page; none: Locator; running: Locator }> = [];
  for (const [username, path, none, running] of SCREENS) {
    const { page } = await suite.open(username, path, { viewport: viewports.tablet });
    screens.push({ page, none: none(page), running: running(page) });
  }
  for (const { page, none } of screens) {
    await none.waitFor();
    await connected(page);
  }
  return screens;
};

describe('a session started and ended by the office', () => {
  it('reaches the front, back, teacher and admin tablets within 2 s, without a reload', {
    timeout: 120_000,
  }, async () => {
    const screens = await openAll();
    // The teacher screen follows its classrooms only (its connection left the whole line).
    const teacher = screens[2]?.page as Page;
    await expect
      .poll(async () => (await connections.inChannel(suite.server.connectionsDb, channels.line(1))).length)
      .toBe(3);
    const loads = screens.map(({ page }) => {
      let count = 0;
      page.on('load', () => count++);
      return () => count;
    });

    const started = await admin.post('/api/sessions', { ...sessionBody(), name: 'Rainy Day Pickup' });
    expect(started.status).toBe(201);
    await Promise.all(
      screens.map(async ({ page, running }) => {
        await running.waitFor({ timeout: SWITCH_MS });
        await pill(page).getByText('Rainy Day Pickup').waitFor({ timeout: SWITCH_MS });
      }),
    );
    await teacher.getByRole('tab', { name: 'Arrival/Departure', selected: true }).waitFor();

    const ended = await admin.put(`/api/sessions/${started.body.id}/end`);
    expect(ended.status).toBe(200);
    await Promise.all(
      screens.map(async ({ page, none, running }) => {
        await none.waitFor({ timeout: SWITCH_MS });
        await running.waitFor({ state: 'detached', timeout: SWITCH_MS });
        // No countdown left: the header offers a new session instead.
        await startButton(page).waitFor({ timeout: SWITCH_MS });
        expect(await pill(page).count()).toBe(0);
      }),
    );
    expect(loads.map((count) => count())).toEqual([0, 0, 0, 0]);
  });

  it('reaches a tablet whose live connection was lost while it started, once it is back', {
    timeout: 120_000,
  }, async () => {
    const { page } = await suite.open('front_demo', '/front-queue', { viewport: viewports.tablet });
    await noSession(page).waitFor();
    await connected(page);
    // The server closes the tablet's connection (as API Gateway does after 2 hours) …
    const open = await connections.inChannel(suite.server.connectionsDb, channels.staff(1));
    const { createManagementClient } = await import('@curbside/functions/lib/publisher');
    const management = createManagementClient(suite.server.url, undefined, { inProcess: true });
    for (const id of open) await management.send(new DeleteConnectionCommand({ ConnectionId: id }));
    management.destroy();
    // … and the session starts while no connection of it is open: its event reaches no socket.
    expect((await admin.post('/api/sessions', sessionBody())).status).toBe(201);
    await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor({ timeout: 10_000 });
  });

  it('leaves a screen with no countdown once the session’s end time has passed', {
    timeout: 120_000,
  }, async () => {
    const { page } = await suite.open('back_demo', '/back-queue', { viewport: viewports.tablet });
    await noSession(page).waitFor();
    await connected(page);
    expect((await admin.post('/api/sessions', sessionBody(0, 4_000))).status).toBe(201);
    await pill(page).waitFor({ timeout: SWITCH_MS });
    // The schedule does not run here: the screen itself reads the session again at its end.
    await noSession(page).waitFor({ timeout: 15_000 });
    await startButton(page).waitFor();
  });
});
