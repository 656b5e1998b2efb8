import { BUS_LINK_MISSING, type BusLinks, type BusPosition } from '@curbside/domain';
import { vehicles } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSchoolWithStaff, sessionBody, tokenOf } from '../support/fixtures';
import { eventually, type LiveClient, openLive, upgradeStatus } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';
import { newVehicle } from '../support/vehicles';

/**
 * The bus relay over real WebSockets: a school's driver link sends positions
 * of its own buses only, its map link (and its staff's map connection)
 * receive them, coalesced to at most one message per second for the fleet;
 * nothing reaches another school, an anonymous page or the staff channel;
 * rotating the links stops the old ones and closes their pages.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
let otherAdmin: Client;
let links: BusLinks;
let otherLinks: BusLinks;
const open: LiveClient[] = [];

const connect = async (query: string, headers: Record<string, string> = {}) => {
  const client = await openLive(server.url, { headers, query });
  open.push(client);
  return client;
};
const bearer = (url: string) => ({ authorization: `Bearer ${tokenOf(url)}` });

/** Positions are taken in order: each one later than the one before. */
let taken = Date.now();
const position = (latitude: number, longitude: number, speed = 8) => ({
  latitude,
  longitude,
  speed,
  accuracy: 5,
  heading: 90,
  timestamp: ++taken,
});
const send = (driver: LiveClient, message: unknown) => driver.socket.send(JSON.stringify(message));
const move = (driver: LiveClient, busId: string, latitude: number, longitude: number) =>
  send(driver, { type: 'BUS_LOCATION_UPDATE', data: { busId, location: position(latitude, longitude) } });

/** Every key anywhere in a message. */
const keysOf = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);

/**
 * The buses a client was told of, latest position each, from everything it
 * received as the map does: a position older than the bus's stop (a message
 * that overtook the stop) does not bring it back.
 */
const seen = (client: LiveClient) => {
  const buses = new Map<string, BusPosition['location']>();
  const stopped = new Map<string, number>();
  for (const message of client.inbox as Array<{ type: string; data: any }>) {
    if (message.type === 'BUS_LOCATIONS') {
      for (const bus of message.data.buses as BusPosition[]) {
        if (bus.updatedAt > (stopped.get(bus.busId) ?? 0)) buses.set(bus.busId, bus.location);
      }
    }
    if (message.type === 'BUS_TRACKING_STOPPED') {
      buses.delete(message.data.busId);
      stopped.set(message.data.busId, message.data.stoppedAt);
    }
  }
  return buses;
};
const busMessages = (client: LiveClient) =>
  (client.inbox as Array<{ type: string }>).filter((message) => message.type.startsWith('BUS_'));

beforeAll(async () => {
  server = await startTestServer();
  const other = await createSchoolWithStaff(server.db, 'buses');
  await vehicles.create(server.db, newVehicle(other.id, '77', 'bus', { parentName: 'Route Z' }));
  admin = await signedIn(server.url, 'admin_demo');
  front = await signedIn(server.url, 'front_demo');
  otherAdmin = await signedIn(server.url, 'buses_school_admin');
  links = (await admin.get('/api/bus-links')).body;
  otherLinks = (await otherAdmin.get('/api/bus-links')).body;
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((client) => client.close()));
  await server?.close();
});

describe('the school’s bus links', () => {
  it('are two private links of the site, the same on every read, another school’s its own', async () => {
    expect(links.driverUrl).toMatch(new RegExp(`^${server.url}/bus-driver\\?t=[A-Za-z0-9_-]{32}$`));
    expect(links.mapUrl).toMatch(new RegExp(`^${server.url}/bus-tracking\\?t=[A-Za-z0-9_-]{32}$`));
    expect((await admin.get('/api/bus-links')).body).toEqual(links);
    expect(tokenOf(otherLinks.driverUrl)).not.toBe(tokenOf(links.driverUrl));
    expect((await front.get('/api/bus-links')).status).toBe(403);
  });

  it('open the driver page’s bus list and the map’s positions, each for its own kind only', async () => {
    const fleet = await admin.request('GET', '/api/buses', undefined, bearer(links.driverUrl));
    expect(fleet.status).toBe(200);
    expect(fleet.body).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({
        busId: `B${n}`,
        name: `Bus ${n}`,
        route: `Route ${String.fromCharCode(64 + n)}`,
      })),
    );
    const anonymous = {
      request: (path: string, headers: Record<string, string>) =>
        fetch(new URL(path, server.url), { headers }).then(async (r) => ({
          status: r.status,
          body: await r.json(),
        })),
    };
    expect(await anonymous.request('/api/buses', bearer(otherLinks.driverUrl))).toEqual({
      status: 200,
      body: [{ busId: 'B77', name: 'Bus 77', route: 'Route Z' }],
    });
    // The map link is not the driver's, nor a made-up one.
    expect(await anonymous.request('/api/buses', bearer(links.mapUrl))).toEqual({
      status: 401,
      body: { message: BUS_LINK_MISSING.driver },
    });
    expect(
      (await anonymous.request('/api/buses', { authorization: 'Bearer x'.padEnd(39, 'y') })).status,
    ).toBe(401);
    expect((await anonymous.request('/api/buses', {})).status).toBe(401);
    expect(await anonymous.request('/api/buses/positions', bearer(links.mapUrl))).toEqual({
      status: 200,
      body: [],
    });
    expect((await anonymous.request('/api/buses/positions', bearer(links.driverUrl))).status).toBe(401);
  });

  it('refuse a live connection with a token that is not a link', async () => {
    expect(await upgradeStatus(server.url, { query: `?t=${'A'.repeat(32)}` })).toBe(403);
    expect(await upgradeStatus(server.url, { query: '?t=short' })).toBe(403);
    expect(await upgradeStatus(server.url, { query: `?t=${tokenOf(links.mapUrl)}` })).toBe(101);
  });
});

describe('the relay', () => {
  let driver: LiveClient;
  let map: LiveClient;
  let staffMap: LiveClient;
  let staff: LiveClient;
  let anonymous: LiveClient;
  let otherMap: LiveClient;
  let otherDriver: LiveClient;

  beforeAll(async () => {
    driver = await connect(`?t=${tokenOf(links.driverUrl)}`);
    map = await connect(`?t=${tokenOf(links.mapUrl)}`);
    staffMap = await connect('?buses=1', { cookie: admin.cookie as string });
    staff = await connect('', { cookie: front.cookie as string });
    anonymous = await connect('');
    otherMap = await connect(`?t=${tokenOf(otherLinks.mapUrl)}`);
    otherDriver = await connect(`?t=${tokenOf(otherLinks.driverUrl)}`);
  });

  it('brings a bus’s position to the school’s map and staff map within 1.5 s, and to no one else', async () => {
    const sent = Date.now();
    move(driver, 'B2', 29.9811, -81.4457);
    await eventually(async () => seen(map).has('B2') && seen(staffMap).has('B2'), 1500 * 4);
    const message = (map.inbox as Array<{ type: string; sentAt: number }>).find(
      (m) => m.type === 'BUS_LOCATIONS',
    );
    expect((message?.sentAt ?? Infinity) - sent).toBeLessThan(1500);
    expect(seen(map).get('B2')).toMatchObject({
      latitude: 29.9811,
      longitude: -81.4457,
      speed: 8,
      accuracy: 5,
    });
    const positions = await admin.get('/api/buses/positions');
    expect(positions.body.map((bus: BusPosition) => bus.busId)).toEqual(['B2']);
    // A position of school 2's own bus goes to school 2's map only.
    move(otherDriver, 'B77', 30.1, -81.5);
    await eventually(async () => seen(otherMap).has('B77'), 6000);
    expect([...seen(otherMap).keys()]).toEqual(['B77']);
    expect(seen(map).has('B77')).toBe(false);
    expect(busMessages(anonymous)).toEqual([]);
    expect(busMessages(staff)).toEqual([]);
    for (const message of [...map.inbox, ...staffMap.inbox, ...otherMap.inbox]) {
      expect(keysOf(message).filter((key) => /student|parent|phone|name/i.test(key))).toEqual([]);
    }
  });

  it('refuses a bus of another school, a bus that does not exist, and positions from a map link', async () => {
    const before = { map: busMessages(map).length, other: busMessages(otherMap).length };
    move(driver, 'B77', 1, 1); // school 2's bus, from school 1's driver link
    move(driver, 'B99', 1, 1);
    move(map, 'B3', 1, 1);
    send(driver, { type: 'BUS_LOCATION_UPDATE', data: { busId: 'B3', location: { latitude: 'x' } } });
    // A later, good position is what arrives: the refused ones never did.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    move(driver, 'B4', 29.99, -81.44);
    await eventually(async () => seen(map).has('B4'), 6000);
    const positions = await admin.get('/api/buses/positions');
    expect(positions.body.map((bus: BusPosition) => bus.busId).sort()).toEqual(['B2', 'B4']);
    expect(busMessages(otherMap)).toHaveLength(before.other);
    expect(seen(otherMap).has('B3')).toBe(false);
    expect([...seen(map).keys()].sort()).toEqual(['B2', 'B4']);
  });

  it('sends each viewer at most one message per second for the whole fleet, and the latest of every bus within the next second', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const from = map.inbox.length;
    // Five buses, three positions each, as fast as they come.
    for (let round = 1; round <= 3; round++) {
      for (const n of [1, 2, 3, 4, 5]) move(driver, `B${n}`, 29.98 + round / 1000, -81.44 - n / 1000);
    }
    // Nothing else comes: the positions that came after this second's message still go out in the next one.
    const last = Date.now();
    await eventually(
      async () => [1, 2, 3, 4, 5].every((n) => seen(map).get(`B${n}`)?.latitude === 29.983),
      8000,
    );
    expect(Date.now() - last).toBeLessThan(2500);
    // Each message names the second it was sent for (its sentAt can fall in the next one on a busy machine).
    const sent = (map.inbox.slice(from) as Array<{ type: string; data: { second: number } }>)
      .filter((message) => message.type === 'BUS_LOCATIONS')
      .map((message) => message.data.second);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(15);
    expect(new Set(sent).size).toBe(sent.length);
  });

  it('takes a stopped bus off every map at once', async () => {
    send(driver, { type: 'BUS_TRACKING_STOPPED', data: { busId: 'B4' } });
    await eventually(
      async () =>
        [map, staffMap].every((client) =>
          (client.inbox as Array<{ type: string; data: { busId: string } }>).some(
            (message) => message.type === 'BUS_TRACKING_STOPPED' && message.data.busId === 'B4',
          ),
        ),
      6000,
    );
    expect(seen(map).has('B4')).toBe(false);
    expect(seen(staffMap).has('B4')).toBe(false);
    const positions = await admin.get('/api/buses/positions');
    expect(positions.body.map((bus: BusPosition) => bus.busId)).not.toContain('B4');
  });

  it('still brings a bus’s last position when the bus whose steady positions it waited for stops', async () => {
    const secondStarts = () => new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));
    // B1 reports at the start of every second: a position of another bus after that second's
    // message waits for B1's next one to carry it.
    for (let n = 0; n < 3; n++) {
      await secondStarts();
      move(driver, 'B1', 29.97 - n / 1000, -81.43);
    }
    await secondStarts();
    move(driver, 'B1', 29.966, -81.43);
    await eventually(async () => seen(map).get('B1')?.latitude === 29.966, 8000);
    move(driver, 'B2', 29.961, -81.431);
    // B1's driver stops: no next position of B1 will carry B2's.
    send(driver, { type: 'BUS_TRACKING_STOPPED', data: { busId: 'B1' } });
    await eventually(async () => seen(map).get('B2')?.latitude === 29.961, 8000);
    expect(seen(map).has('B1')).toBe(false);
  });
});

const driverAlert = (type: 'help' | 'emergency', busId: string, busName: string) => ({
  type,
  priority: type === 'help' ? 'medium' : 'critical',
  title: type === 'help' ? 'Help Request' : 'Emergency Alert',
  message: `${busName} needs ${type === 'help' ? 'help' : 'emergency assistance'}`,
  source: 'bus_driver',
  metadata: { busId, busName, location: { latitude: 29.98, longitude: -81.44 } },
});
const postAlert = (body: unknown, headers: Record<string, string>) =>
  fetch(new URL('/api/alerts', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('a driver’s alert', () => {
  it('sent while no session runs is kept, told to the staff, and listed in the next session until dismissed', async () => {
    const staff = await connect('', { cookie: front.cookie as string });
    const answer = await postAlert(driverAlert('emergency', 'B3', 'Bus 3'), bearer(links.driverUrl));
    expect(answer.status).toBe(200);
    const { alert } = (await answer.json()) as { alert: { id: number; sessionId: number | null } };
    expect(alert).toMatchObject({
      sessionId: null,
      type: 'emergency',
      priority: 'critical',
      location: 'Bus 3',
    });
    await eventually(
      async () =>
        (staff.inbox as Array<{ type: string; data: { id: number } }>).some(
          (m) => m.type === 'ALERT_CREATED' && m.data.id === alert.id,
        ),
      6000,
    );
    const session = (await front.post('/api/sessions', sessionBody())).body;
    const listed = await front.get(`/api/alerts?sessionId=${session.id}`);
    expect(listed.body.map((a: { id: number }) => a.id)).toContain(alert.id);
    expect((await front.put(`/api/alerts/${alert.id}/dismiss`)).status).toBe(200);
    const after = await front.get(`/api/alerts?sessionId=${session.id}`);
    expect(after.body.map((a: { id: number }) => a.id)).not.toContain(alert.id);
    expect((await admin.put(`/api/sessions/${session.id}/end`)).status).toBe(200);
  });

  it('reaches the school’s staff at once, in the running session, and is refused with the map link', async () => {
    const staff = await connect('', { cookie: front.cookie as string });
    const session = (await front.post('/api/sessions', sessionBody())).body;
    const alert = {
      type: 'help',
      priority: 'medium',
      title: 'Help Request',
      message: 'Bus 2 needs help',
      source: 'bus_driver',
      metadata: { busId: 'B2', busName: 'Bus 2', location: { latitude: 29.98, longitude: -81.44 } },
    };
    const refused = await fetch(new URL('/api/alerts', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(links.mapUrl) },
      body: JSON.stringify(alert),
    });
    expect(refused.status).toBe(401);
    const answer = await fetch(new URL('/api/alerts', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(links.driverUrl) },
      body: JSON.stringify(alert),
    });
    expect(answer.status).toBe(200);
    const { alert: raised } = (await answer.json()) as { alert: { id: number } };
    expect(raised).toMatchObject({
      sessionId: session.id,
      type: 'help',
      priority: 'medium',
      source: 'bus_driver',
      location: 'Bus 2',
      message: 'Bus 2 needs help',
      metadata: { busId: 'B2', busName: 'Bus 2' },
    });
    await eventually(
      async () =>
        (staff.inbox as Array<{ type: string; data: { id: number } }>).some(
          (m) => m.type === 'ALERT_CREATED' && m.data.id === raised.id,
        ),
      6000,
    );
    const listed = await front.get(`/api/alerts?sessionId=${session.id}`);
    expect(listed.body.map((a: { id: number }) => a.id)).toContain(raised.id);
    expect((await admin.put(`/api/sessions/${session.id}/end`)).status).toBe(200);
  });
});

describe('rotating the links', () => {
  it('stops the old ones at once and closes the pages opened with them', async () => {
    const oldMap = await connect(`?t=${tokenOf(links.mapUrl)}`);
    const oldDriver = await connect(`?t=${tokenOf(links.driverUrl)}`);
    const staffMap = await connect('?buses=1', { cookie: admin.cookie as string });
    const closed = (client: LiveClient) =>
      new Promise<void>((resolve) => {
        if (client.socket.readyState === WebSocket.CLOSED) resolve();
        else client.socket.once('close', () => resolve());
      });
    expect((await front.post('/api/bus-links/rotate')).status).toBe(403);
    const rotated = await admin.post('/api/bus-links/rotate');
    expect(rotated.status).toBe(200);
    expect(tokenOf(rotated.body.mapUrl)).not.toBe(tokenOf(links.mapUrl));
    await Promise.all([closed(oldMap), closed(oldDriver)]);
    expect(staffMap.socket.readyState).toBe(WebSocket.OPEN);
    expect(await upgradeStatus(server.url, { query: `?t=${tokenOf(links.mapUrl)}` })).toBe(403);
    const stale = await fetch(new URL('/api/buses/positions', server.url), { headers: bearer(links.mapUrl) });
    expect(stale.status).toBe(401);
    expect(await upgradeStatus(server.url, { query: `?t=${tokenOf(rotated.body.mapUrl)}` })).toBe(101);
    // The other school's links are untouched.
    expect(await upgradeStatus(server.url, { query: `?t=${tokenOf(otherLinks.mapUrl)}` })).toBe(101);
    expect((await admin.get('/api/bus-links')).body).toEqual(rotated.body);
  });
});
