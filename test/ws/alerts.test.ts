import type { Alert, BusLinks } from '@curbside/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { eventually, type LiveClient, openLive } from '../support/live';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Alerts reach someone (issue 27), over real sockets: a bus driver's alert
 * raised while no session runs reaches every signed-in staff screen of the
 * school at once and is listed by `GET /api/alerts`; "I'm on it" is kept once
 * per staff member, told to the staff screens and to the driver pages (only
 * that the school has seen it), and refused across schools and to anonymous callers.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let teacher: Client;
let front: Client;
let otherAdmin: Client;
let links: BusLinks;
const open: LiveClient[] = [];

/** A live connection that notes when each message arrived. */
const connect = async (query: string, headers: Record<string, string> = {}) => {
  const client = await openLive(server.url, { headers, query });
  const arrivals: Array<{ at: number; message: { type: string; data: any } }> = [];
  client.socket.on('message', (data) =>
    arrivals.push({ at: Date.now(), message: JSON.parse(data.toString()) }),
  );
  open.push(client);
  return { client, arrivals };
};
const staffScreen = (user: Client) => connect('', { cookie: user.cookie as string });
const driverToken = () => new URL(links.driverUrl).searchParams.get('t') as string;

const raiseBusAlert = async (type: 'help' | 'emergency', busId: string, busName: string) => {
  const answer = await fetch(new URL('/api/alerts', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${driverToken()}` },
    body: JSON.stringify({
      type,
      priority: type === 'help' ? 'medium' : 'critical',
      title: type === 'help' ? 'Help Request' : 'Emergency Alert',
      message: `${busName} needs help`,
      source: 'bus_driver',
      metadata: { busId, busName, location: null },
    }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { alert: Alert }).alert;
};

const arrivalOf = (arrivals: Awaited<ReturnType<typeof connect>>['arrivals'], type: string, id: number) =>
  arrivals.find(({ message }) => message.type === type && message.data?.id === id);

beforeAll(async () => {
  server = await startTestServer();
  await createSchoolWithStaff(server.db, 'alerts');
  admin = await signedIn(server.url, 'admin_demo');
  teacher = await signedIn(server.url, 'teacher_demo');
  front = await signedIn(server.url, 'front_demo');
  otherAdmin = await signedIn(server.url, 'alerts_school_admin');
  links = (await admin.get('/api/bus-links')).body;
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map(({ close }) => close()));
  await server?.close();
});

describe('a driver’s alert with no session running', () => {
  it('reaches the school admin, teacher and front screens within a second and is listed without a session', async () => {
    expect((await admin.get('/api/sessions/active')).body?.id ?? null).toBeNull();
    const screens = await Promise.all([admin, teacher, front].map(staffScreen));
    const otherSchool = await staffScreen(otherAdmin);
    const sentAt = Date.now();
    const alert = await raiseBusAlert('emergency', 'B3', 'Bus 3');
    expect(alert).toMatchObject({ sessionId: null, type: 'emergency', acknowledgements: [] });

    await eventually(async () =>
      screens.every(({ arrivals }) => arrivalOf(arrivals, 'ALERT_CREATED', alert.id)),
    );
    for (const { arrivals } of screens) {
      const arrival = arrivalOf(arrivals, 'ALERT_CREATED', alert.id);
      expect(arrival?.at as number).toBeLessThanOrEqual(sentAt + 1000);
    }
    expect(arrivalOf(otherSchool.arrivals, 'ALERT_CREATED', alert.id)).toBeUndefined();

    for (const user of [admin, teacher, front]) {
      const listed = await user.get('/api/alerts');
      expect(listed.status).toBe(200);
      expect(listed.body.map((a: Alert) => a.id)).toContain(alert.id);
    }
    expect((await otherAdmin.get('/api/alerts')).body.map((a: Alert) => a.id)).not.toContain(alert.id);

    expect((await admin.put(`/api/alerts/${alert.id}/dismiss`)).status).toBe(200);
    expect((await front.get('/api/alerts')).body.map((a: Alert) => a.id)).not.toContain(alert.id);
  });

  it('lists a staff alert of a running session too, with who raised it', async () => {
    const session = (await admin.post('/api/sessions', sessionBody())).body;
    const raised = await front.post('/api/alerts', {
      sessionId: session.id,
      type: 'help',
      location: 'Front Queue',
    });
    expect(raised.status).toBe(200);
    expect(raised.body.alert.raisedBy).toMatchObject({ name: 'Frankie Front' });
    const listed = (await teacher.get('/api/alerts')).body.map((a: Alert) => a.id);
    expect(listed).toContain(raised.body.alert.id);
    expect((await front.put(`/api/alerts/${raised.body.alert.id}/dismiss`)).status).toBe(200);
    expect((await admin.put(`/api/sessions/${session.id}/end`)).status).toBe(200);
  });
});

describe('I’m on it', () => {
  it('keeps both of two staff pressing at once, and the later answer lists both (the answer is no read after the write: ADR 0027)', async () => {
    const alert = await raiseBusAlert('help', 'B7', 'Bus 7');
    const answers = await Promise.all([
      admin.post(`/api/alerts/${alert.id}/acknowledge`),
      teacher.post(`/api/alerts/${alert.id}/acknowledge`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const listed = (await teacher.get('/api/alerts')).body.find((a: Alert) => a.id === alert.id);
    expect(listed.acknowledgements.map((ack: { name: string }) => ack.name).sort()).toEqual([
      'Alex Admin',
      'Taylor Teacher',
    ]);
    const later = answers.find((answer) => answer.body.acknowledgements.length === 2);
    expect(later?.body.acknowledgements).toEqual(listed.acknowledgements);
    expect((await admin.put(`/api/alerts/${alert.id}/dismiss`)).status).toBe(200);
  });

  it('is kept once per staff member, told to every staff screen and to the driver page, with nothing private', async () => {
    const driver = await connect(`?t=${driverToken()}`);
    const mapViewer = await connect(`?t=${new URL(links.mapUrl).searchParams.get('t')}`);
    const screen = await staffScreen(teacher);
    const alert = await raiseBusAlert('emergency', 'B4', 'Bus 4');

    const first = await admin.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(first.status).toBe(200);
    expect(first.body.acknowledgements).toEqual([
      { userId: expect.any(Number), name: 'Alex Admin', at: expect.any(String) },
    ]);
    const again = await admin.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(again.status).toBe(200);
    expect(again.body.acknowledgements).toEqual(first.body.acknowledgements);
    const second = await front.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(second.body.acknowledgements.map((ack: { name: string }) => ack.name)).toEqual([
      'Alex Admin',
      'Frankie Front',
    ]);
    const listed = (await teacher.get('/api/alerts')).body.find((a: Alert) => a.id === alert.id);
    expect(listed.acknowledgements).toEqual(second.body.acknowledgements);

    await eventually(async () =>
      screen.arrivals.some(
        ({ message }) =>
          message.type === 'ALERT_ACKNOWLEDGED' &&
          message.data.id === alert.id &&
          message.data.acknowledgements.length === 2,
      ),
    );
    const staffCopies = screen.arrivals.filter(
      ({ message }) => message.type === 'ALERT_ACKNOWLEDGED' && message.data.id === alert.id,
    );
    expect(staffCopies).toHaveLength(2);
    expect(staffCopies[0]?.message.data).toMatchObject({ schoolId: alert.schoolId, type: 'emergency' });

    await eventually(async () =>
      driver.arrivals.some(
        ({ message }) =>
          message.type === 'ALERT_ACKNOWLEDGED' &&
          message.data.id === alert.id &&
          message.data.acknowledgements.length === 2,
      ),
    );
    const driverCopy = driver.arrivals.find(
      ({ message }) => message.type === 'ALERT_ACKNOWLEDGED' && message.data.acknowledgements.length === 2,
    )?.message.data;
    expect(driverCopy).toEqual({
      id: alert.id,
      type: 'emergency',
      status: 'active',
      busId: 'B4',
      acknowledgements: [
        { name: 'Alex Admin', at: expect.any(String) },
        { name: 'Frankie Front', at: expect.any(String) },
      ],
    });
    // The driver page hears nothing else of the school; a map viewer nothing of alerts.
    expect(driver.arrivals.map(({ message }) => message.type)).toEqual([
      'ALERT_ACKNOWLEDGED',
      'ALERT_ACKNOWLEDGED',
    ]);
    expect(mapViewer.arrivals.filter(({ message }) => message.type.startsWith('ALERT_'))).toEqual([]);
    expect((await admin.put(`/api/alerts/${alert.id}/dismiss`)).status).toBe(200);
  });

  it('is refused on another school’s alert (404) and to anonymous callers (401)', async () => {
    const alert = await raiseBusAlert('help', 'B5', 'Bus 5');
    const across = await otherAdmin.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(across.status).toBe(404);
    expect(across.body).toEqual({ message: 'Alert not found' });
    const anonymous = await new Client(server.url).post(`/api/alerts/${alert.id}/acknowledge`);
    expect(anonymous.status).toBe(401);
    const after = (await admin.get('/api/alerts')).body.find((a: Alert) => a.id === alert.id);
    expect(after.acknowledgements).toEqual([]);
    expect((await admin.put(`/api/alerts/${alert.id}/dismiss`)).status).toBe(200);
  });
});

describe('an emergency nobody acknowledges (issue 55)', () => {
  const watch = async () => {
    const { invoke, scheduledEvent } = await import('@curbside/local');
    return (await invoke('scheduled/alert-watch', scheduledEvent('alert-watch'))) as {
      unacknowledged: number[];
    };
  };
  /** The watch run as if `minutes` had passed (the alerts' own times stay real). */
  const watchLater = async (minutes: number) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + minutes * 60_000 });
    try {
      return await watch();
    } finally {
      vi.useRealTimers();
    }
  };

  it('is counted by the every-minute watch from 2 minutes on, until someone says "I’m on it"', async () => {
    const emergency = await raiseBusAlert('emergency', 'B4', 'Bus 4');
    const help = await raiseBusAlert('help', 'B5', 'Bus 5');
    expect((await watch()).unacknowledged).not.toContain(emergency.id);
    expect((await watchLater(1.5)).unacknowledged).not.toContain(emergency.id);
    const late = (await watchLater(2.5)).unacknowledged;
    expect(late).toContain(emergency.id);
    // A help request never wakes anyone.
    expect(late).not.toContain(help.id);
    expect((await admin.post(`/api/alerts/${emergency.id}/acknowledge`)).status).toBe(200);
    expect((await watchLater(3)).unacknowledged).not.toContain(emergency.id);
  });
});
