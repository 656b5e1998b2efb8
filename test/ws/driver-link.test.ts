import {
  type Alert,
  BUS_LINK_MISSING,
  type BusLinks,
  DRIVER_LINK_REPLACED,
  NO_BUS_CHOSEN,
  SCHOOL_PHONE_MESSAGE,
} from '@curbside/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverAlertBody } from '../support/driver-page';
import { demoSchoolSettings, tokenOf } from '../support/fixtures';
import { eventually, type LiveClient, openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The bus driver's way out (issue 50, items 3 and 9): the school's phone is a
 * school setting the driver page reads with its link (nothing else of the
 * school); a driver link the office replaced answers so, with that phone,
 * whatever it asks; a driver's page hears who closed its alert; and a driver
 * who has not chosen a bus yet can still ask for help.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
const sockets: LiveClient[] = [];

const SETTINGS = demoSchoolSettings;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await server?.close();
});

/** A request of the driver page: its link's token as the bearer. */
const withLink = async (token: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(new URL(path, server.url), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as any };
};

const helpFrom = (busId: string | null, busName: string) => driverAlertBody('help', busId, busName);

describe('the school phone', () => {
  it('is a school setting, checked, kept when a save leaves it out, and removed when emptied', async () => {
    expect((await admin.get('/api/schools/1/settings')).body.phone).toBeNull();
    const wrong = await admin.put('/api/schools/1/settings', { ...SETTINGS, phone: 'ask the office' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([
      expect.objectContaining({ path: 'phone', message: SCHOOL_PHONE_MESSAGE }),
    ]);
    const saved = await admin.put('/api/schools/1/settings', { ...SETTINGS, phone: ' (555) 010-2000 ' });
    expect(saved.status).toBe(200);
    expect(saved.body.phone).toBe('(555) 010-2000');
    const without = await admin.put('/api/schools/1/settings', SETTINGS);
    expect(without.body.phone).toBe('(555) 010-2000');
    expect((await admin.put('/api/schools/1/settings', { ...SETTINGS, phone: '' })).body.phone).toBeNull();
    expect(
      (await admin.put('/api/schools/1/settings', { ...SETTINGS, phone: '(555) 010-2000' })).status,
    ).toBe(200);
  });

  it('is what the driver link reads of the school, and only the driver link', async () => {
    const links: BusLinks = (await admin.get('/api/bus-links')).body;
    const contact = await withLink(tokenOf(links.driverUrl), 'GET', '/api/buses/contact');
    expect(contact).toEqual({ status: 200, body: { schoolPhone: '(555) 010-2000' } });
    const map = await withLink(tokenOf(links.mapUrl), 'GET', '/api/buses/contact');
    expect(map).toEqual({ status: 401, body: { message: BUS_LINK_MISSING.driver } });
  });
});

describe('a driver link the office replaced', () => {
  it('answers that it was replaced, with the school phone, to every request of the driver page', async () => {
    const before: BusLinks = (await admin.get('/api/bus-links')).body;
    const old = tokenOf(before.driverUrl);
    expect((await withLink(old, 'GET', '/api/buses')).status).toBe(200);
    expect((await admin.post('/api/bus-links/rotate')).status).toBe(200);

    const replaced = { message: DRIVER_LINK_REPLACED, replaced: true, schoolPhone: '(555) 010-2000' };
    expect(await withLink(old, 'GET', '/api/buses')).toEqual({ status: 401, body: replaced });
    expect(await withLink(old, 'GET', '/api/buses/contact')).toEqual({ status: 401, body: replaced });
    expect(await withLink(old, 'POST', '/api/alerts', helpFrom('B1', 'Bus 1'))).toEqual({
      status: 401,
      body: replaced,
    });
    // Nothing was raised with it.
    expect((await admin.get('/api/alerts')).body).toEqual([]);
    // Its live connection is refused, as any link's that is not the school's.
    await expect(openLive(server.url, { query: `?t=${old}` })).rejects.toThrow();

    // A token that never was a link's, and the old map link, say nothing of the school.
    const never = 'A'.repeat(32);
    expect(await withLink(never, 'GET', '/api/buses')).toEqual({
      status: 401,
      body: { message: BUS_LINK_MISSING.driver },
    });
    expect(await withLink(tokenOf(before.mapUrl), 'GET', '/api/buses/positions')).toEqual({
      status: 401,
      body: { message: BUS_LINK_MISSING.map },
    });
    // The new link works.
    const after: BusLinks = (await admin.get('/api/bus-links')).body;
    expect((await withLink(tokenOf(after.driverUrl), 'GET', '/api/buses')).status).toBe(200);
  });
});

describe('a driver’s alert', () => {
  it('can be sent before a bus is chosen, and its page hears who closed it', async () => {
    const links: BusLinks = (await admin.get('/api/bus-links')).body;
    const token = tokenOf(links.driverUrl);
    const driver = await openLive(server.url, { query: `?t=${token}` });
    sockets.push(driver);
    const sent = await withLink(token, 'POST', '/api/alerts', helpFrom(null, ''));
    expect(sent.status).toBe(200);
    const alert = sent.body.alert as Alert;
    expect(alert).toMatchObject({ type: 'help', location: NO_BUS_CHOSEN, status: 'active' });
    const banner = ((await admin.get('/api/alerts')).body as Alert[]).find((each) => each.id === alert.id);
    expect(banner?.location).toBe(NO_BUS_CHOSEN);

    expect((await admin.put(`/api/alerts/${alert.id}/dismiss`)).status).toBe(200);
    await eventually(async () =>
      driver.inbox.some((message) => (message as { type: string }).type === 'ALERT_DISMISSED'),
    );
    const told = driver.inbox.find((message) => (message as { type: string }).type === 'ALERT_DISMISSED') as {
      data: unknown;
    };
    expect(told.data).toEqual({
      id: alert.id,
      removed: true,
      dismissedBy: { name: 'Alex Admin', at: expect.any(String) },
    });
  });

  it('a staff alert’s dismissal is not told to the driver pages', async () => {
    const links: BusLinks = (await admin.get('/api/bus-links')).body;
    const driver = await openLive(server.url, { query: `?t=${tokenOf(links.driverUrl)}` });
    sockets.push(driver);
    const raised = await admin.post('/api/alerts', { sessionId: null, type: 'help', location: 'Gym' });
    expect((await admin.put(`/api/alerts/${raised.body.alert.id}/dismiss`)).status).toBe(200);
    driver.socket.send(JSON.stringify({ type: 'ping' }));
    await eventually(async () =>
      driver.inbox.some((message) => (message as { type: string }).type === 'pong'),
    );
    expect(driver.inbox.map((message) => (message as { type: string }).type)).toEqual(['pong']);
  });
});
