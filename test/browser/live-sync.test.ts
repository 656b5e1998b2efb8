import { join } from 'node:path';
import { channels } from '@curbside/api';
import { vehicleLabel } from '@curbside/domain';
import { connections } from '@curbside/store';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shotsDir } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import { type Client, signedIn } from '../support/server';

/**
 * Three screens follow a rush of 30 vehicles, batching, overflow, a walk-up
 * pickup, a release and a batch completion, driven by other tablets: the
 * front queue, the back queue and the teacher screen. Each ends showing
 * exactly what a fresh read of the server answers, and none of them read its
 * lists again per event (the events carry the changes).
 */
const suite = browserSuite();
let front: Client;
let back: Client;
let teacher: Client;
let sessionId: number;

/** Every GET of the API a screen made: its path and query, and when. */
interface Read {
  path: string;
  at: number;
}

beforeAll(async () => {
  front = await signedIn(suite.server.url, 'front_demo');
  back = await signedIn(suite.server.url, 'back_demo');
  teacher = await signedIn(suite.server.url, 'teacher_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});

const open = async (username: string, path: string) => {
  const { page } = await suite.open(username, path);
  const reads: Read[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/')) {
      reads.push({ path: url.pathname + url.search, at: Date.now() });
    }
  });
  return { page, reads };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Scripts run in the page (as strings: this file is type-checked without the
 * DOM library), each answering what one screen shows.
 */
const FRONT_SHOWS = `(() => ({
  cards: [...document.querySelectorAll('section [data-entry-id]')].map((card) => ({
    id: card.getAttribute('data-entry-id'),
    text: card.textContent ?? '',
  })),
  pickups: [...document.querySelectorAll('table tbody tr')].map((row) => row.querySelector('td')?.textContent),
}))()`;

const BACK_SHOWS = `(() => ({
  batches: [...document.querySelectorAll('section[data-batch-id]')].map((card) => ({
    id: Number(card.getAttribute('data-batch-id')),
    text: card.textContent ?? '',
    chips: [...card.querySelectorAll('[data-entry-id]')].map((chip) => chip.getAttribute('data-entry-id')).sort(),
  })),
  queue: [
    ...document.querySelectorAll(
      'section[aria-label="Cars in Parking Lot"] [data-entry-id], section[aria-label="Bus Loading Zone"] [data-entry-id]',
    ),
  ]
    .map((card) => card.getAttribute('data-entry-id'))
    .sort(),
}))()`;

const TEACHER_SHOWS = `(() => {
  const number = (label) =>
    Number(document.querySelector('[role="group"][aria-label="' + label + '"]')?.textContent?.match(/\\d+/)?.[0]);
  const status = document.querySelector('section[aria-label="Student Batch Status"]');
  const groups = {};
  for (const group of status?.querySelectorAll('section[aria-label]') ?? []) {
    groups[group.getAttribute('aria-label') ?? ''] = [...group.querySelectorAll('[data-student-id]')]
      .map((row) => row.getAttribute('data-student-id') ?? '')
      .sort();
  }
  return { ready: number('Ready'), inClass: number('In Class'), pickedUp: number('Picked Up'), groups };
})()`;

interface FrontShown {
  cards: Array<{ id: string; text: string }>;
  pickups: string[];
}
interface BackShown {
  batches: Array<{ id: number; text: string; chips: string[] }>;
  queue: string[];
}
interface TeacherShown {
  ready: number;
  inClass: number;
  pickedUp: number;
  groups: Record<string, string[]>;
}
const frontShows = (page: Page) => page.evaluate<FrontShown>(FRONT_SHOWS);
const backShows = (page: Page) => page.evaluate<BackShown>(BACK_SHOWS);
const teacherShows = (page: Page) => page.evaluate<TeacherShown>(TEACHER_SHOWS);

/** The teacher screen's group of a student (written out here, from the specification's groups). */
const groupOf = (student: any) =>
  !student.inQueue
    ? 'inClass'
    : student.queueStatus === 'overflow'
      ? 'overflow'
      : student.batchId !== null
        ? 'batched'
        : 'waiting';

const GROUP_TITLES = {
  overflow: 'Students in Overflow - URGENT',
  batched: 'Students in Active Batches',
  waiting: 'Students Waiting for Batch Assignment',
  inClass: 'Students Remaining in Class',
} as const;

/** What a fresh read of the server says each screen should show. */
const serverState = async (roomId: number) => {
  const active = (await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[];
  const completed = (await front.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body as any[];
  // The back queue shows loading batches and, below, the completed ones.
  const batches = [
    ...((await back.get(`/api/batches/active?sessionId=${sessionId}`)).body as any[]),
    ...((await back.get(`/api/batches?sessionId=${sessionId}&status=completed`)).body as any[]),
  ];
  const members: Record<number, string[]> = {};
  for (const batch of batches) {
    members[batch.id] = ((await back.get(`/api/batches/${batch.id}/vehicles`)).body as any[])
      .map((entry) => entry.id)
      .sort();
  }
  const students = (
    (await teacher.get(`/api/teacher/students?sessionId=${sessionId}&classroomIds=${roomId}`)).body as any[]
  ).filter((student) => student.classroomId === roomId);
  const groups: Record<string, string[]> = {};
  for (const student of students) {
    if (!student.inQueue && student.pickedUpAt !== null) continue;
    const title = GROUP_TITLES[groupOf(student) as keyof typeof GROUP_TITLES];
    groups[title] = [...(groups[title] ?? []), String(student.id)].sort();
  }
  return {
    front: {
      ids: active.map((entry) => entry.id).sort(),
      active,
      pickups: completed.map((entry) => vehicleLabel(entry.vehicleType, entry.vehicleNumber)),
    },
    back: {
      batches: batches.map((batch) => ({
        id: batch.id,
        count: `${batch.currentCount}/${batch.maxCapacity} vehicles`,
        chips: members[batch.id],
      })),
      queue: active.map((entry) => entry.id).sort(),
    },
    teacher: {
      ready: students.filter((student) => student.inQueue).length,
      inClass: students.filter((student) => !student.inQueue && student.pickedUpAt === null).length,
      pickedUp: students.filter((student) => !student.inQueue && student.pickedUpAt !== null).length,
      groups,
    },
  };
};

/** Whether each screen shows what the server says; the differences when not. */
const compare = async (screens: { front: Page; back: Page; teacher: Page }, roomId: number) => {
  const want = await serverState(roomId);
  const shown = {
    front: await frontShows(screens.front),
    back: await backShows(screens.back),
    teacher: await teacherShows(screens.teacher),
  };
  const problems: string[] = [];
  const frontIds = shown.front.cards.map((card) => card.id).sort();
  if (JSON.stringify(frontIds) !== JSON.stringify(want.front.ids)) problems.push('front queue cards');
  for (const entry of want.front.active) {
    const card = shown.front.cards.find((item) => item.id === entry.id);
    if (!card) continue;
    if (entry.batchNumber !== null && !card.text.includes(`Batch #${entry.batchNumber}`))
      problems.push(`front card ${entry.vehicleNumber} batch`);
    if ((entry.status === 'overflow') !== card.text.includes('Overflow'))
      problems.push(`front card ${entry.vehicleNumber} overflow`);
  }
  if (JSON.stringify(shown.front.pickups) !== JSON.stringify(want.front.pickups))
    problems.push('recent pickups');
  if (JSON.stringify(shown.back.queue) !== JSON.stringify(want.back.queue)) problems.push('back queue cards');
  if (shown.back.batches.length !== want.back.batches.length) problems.push('back batches');
  for (const batch of want.back.batches) {
    const card = shown.back.batches.find((item) => item.id === batch.id);
    if (!card?.text.includes(batch.count)) problems.push(`back batch ${batch.id} count`);
    if (JSON.stringify(card?.chips) !== JSON.stringify(batch.chips))
      problems.push(`back batch ${batch.id} chips`);
  }
  const { groups, ...counts } = want.teacher;
  const { groups: shownGroups, ...shownCounts } = shown.teacher;
  if (JSON.stringify(shownCounts) !== JSON.stringify(counts)) problems.push('teacher counters');
  const sorted = (record: Record<string, string[]>) => JSON.stringify(Object.entries(record).sort());
  if (sorted(shownGroups) !== sorted(groups)) problems.push('teacher groups');
  return { problems, want, shown };
};

describe('three screens following a rush', () => {
  it('end showing exactly the server state, with no list read per event', async () => {
    const screens = {
      front: await open('front_demo', '/front-queue'),
      back: await open('back_demo', '/back-queue'),
      teacher: await open('teacher_demo', '/teacher'),
    };
    await screens.front.page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
    await screens.back.page.getByRole('heading', { name: 'Batch Management' }).waitFor();
    await screens.teacher.page.getByRole('region', { name: 'My Classroom' }).getByText('Room 12').waitFor();
    const me = (await teacher.get('/api/me')).body;
    const room = ((await teacher.get('/api/classrooms')).body as any[]).find((r) => r.teacherId === me.id);
    // The teacher screen follows its classroom only (issue 31): its connection subscribed to it.
    await expect
      .poll(
        async () =>
          (
            await connections.inChannel(
              suite.server.connectionsDb,
              channels.classroom(room.schoolId, room.id),
            )
          ).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    // Every screen has loaded (above) and is connected before the rush.
    for (const screen of Object.values(screens)) await connected(screen.page);
    const events = await openLive(suite.server.url, { cookie: front.cookie });
    const rushStarted = Date.now();

    // ── The rush: 30 vehicles from two front tablets, loaded by a back tablet ──
    const numbers = [
      ...Array.from({ length: 24 }, (_, i) => ({ vehicleNumber: String(101 + i), vehicleType: 'car' })),
      ...Array.from({ length: 5 }, (_, i) => ({ vehicleNumber: String(1 + i), vehicleType: 'bus' })),
      { vehicleNumber: '9001', vehicleType: 'car' },
    ];
    const front2 = await signedIn(suite.server.url, 'front_demo');
    const ids: Record<string, string> = {};
    // The back tablet waits for cars to arrive (not for a time): resolved at each pair queued.
    let arrived: () => void = () => {};
    let arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const nextArrival = () => arrival;
    const adding = (async () => {
      for (let i = 0; i < numbers.length; i += 2) {
        const pair = numbers.slice(i, i + 2);
        const answers = await Promise.all(
          pair.map((body, k) => (k === 0 ? front : front2).post('/api/queue', { sessionId, ...body })),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(201);
          ids[`${answer.body.vehicleType}#${answer.body.vehicleNumber}`] = answer.body.id;
        }
        const signal = arrived;
        arrival = new Promise<void>((resolve) => {
          arrived = resolve;
        });
        signal();
        // The rush's arrivals come spaced in time, as cars do (the pace is the test's subject).
        await sleep(120);
      }
      arrived();
    })();
    // The back tablet starts its first batch once a few cars are in the line.
    while (Object.keys(ids).length < 4) await nextArrival();
    const first = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    // Eight cars into it: a press with no car waiting adds none, and is made again once the next
    // car arrives (counting presses instead left the batch one short when the presses outran the
    // arrivals, and the rush one pickup short).
    for (let loaded = 0, presses = 0; loaded < 8; presses++) {
      expect(presses, 'presses to load eight cars').toBeLessThan(40);
      const added = await back.post(`/api/batches/${first.id}/vehicles`);
      if (added.status === 200) loaded++;
      // No car waiting yet: the next one to arrive (the last pairs may already be in).
      else if (Object.keys(ids).length < numbers.length) await nextArrival();
    }
    await adding;
    // One car of the batch to overflow and dismissed; a walk-up pickup; a release.
    const inFirst = (await back.get(`/api/batches/${first.id}/vehicles`)).body as any[];
    const overflow = inFirst[1];
    expect((await back.put(`/api/queue/${overflow.id}`, { batchId: null, status: 'overflow' })).status).toBe(
      200,
    );
    expect(
      (
        await front.put(`/api/queue/${ids['car#120']}/status`, {
          status: 'completed',
          confirmUnreleased: true,
        })
      ).status,
    ).toBe(200);
    const ready = (
      await teacher.get(`/api/teacher/students/ready?sessionId=${sessionId}&classroomIds=${room.id}`)
    ).body as any[];
    expect(ready.length).toBeGreaterThan(0);
    expect((await teacher.put(`/api/teacher/students/${ready[0].id}/release`)).status).toBe(200);
    expect(
      (await back.put(`/api/batches/${first.id}`, { status: 'completed', confirmUnreleased: true })).status,
    ).toBe(200);
    expect((await back.request('DELETE', `/api/queue/${overflow.id}`)).status).toBe(200);
    const second = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    for (let i = 0; i < 3; i++)
      expect((await back.post(`/api/batches/${second.id}/vehicles`)).status).toBe(200);
    const bus = (await back.post('/api/batches', { sessionId, vehicleType: 'bus' })).body;
    expect((await back.post(`/api/batches/${bus.id}/vehicles`)).status).toBe(200);
    expect((await back.put(`/api/queue/${ids['bus#3']}/status`, { status: 'overflow' })).status).toBe(200);
    // And one car from the front screen's own keypad.
    const keypad = screens.front.page.getByRole('group', { name: 'Keypad' });
    for (const digit of ['7', '7', '7'])
      await keypad.getByRole('button', { name: digit, exact: true }).click();
    await screens.front.page.getByRole('button', { name: 'Add to Queue' }).click();
    await events.next('VEHICLE_QUEUED', 5000);
    const rushEnded = Date.now();

    // ── Every screen ends showing what a fresh read of the server answers ──
    let result = await compare(
      { front: screens.front.page, back: screens.back.page, teacher: screens.teacher.page },
      room.id,
    );
    // The screens catch up: polled until they match (the explanation below says what did not).
    await expect
      .poll(
        async () => {
          result = await compare(
            { front: screens.front.page, back: screens.back.page, teacher: screens.teacher.page },
            room.id,
          );
          return result.problems;
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([])
      .catch(() => {});
    const explain = {
      problems: result.problems,
      batches: {
        want: result.want.back.batches,
        shown: result.shown.back.batches.map(({ text: _, ...b }) => b),
      },
      teacher: { want: result.want.teacher, shown: result.shown.teacher },
      pickups: { want: result.want.front.pickups, shown: result.shown.front.pickups },
    };
    expect(result.problems, JSON.stringify(explain)).toEqual([]);
    expect(result.want.front.pickups.length).toBe(8);
    expect(result.want.back.batches.length).toBe(3);
    expect(Object.keys(result.want.teacher.groups).length).toBeGreaterThan(1);

    // ── No list was read per event ──
    const staffEvents = events.messages.filter((message) => message.type !== 'pong').length;
    expect(staffEvents).toBeGreaterThan(50);
    const rushSeconds = (rushEnded - rushStarted) / 1000;
    const during = (reads: Read[]) =>
      reads.filter((read) => read.at >= rushStarted && read.at <= rushEnded + 1000).map((read) => read.path);
    const lists = /^\/api\/(queue|batches|teacher\/students)/;
    const frontReads = during(screens.front.reads).filter((path) => lists.test(path));
    const backReads = during(screens.back.reads).filter((path) => lists.test(path));
    const teacherReads = during(screens.teacher.reads).filter((path) => lists.test(path));
    // The front and back screens read no list at all; a new batch's first vehicle comes with its event.
    expect(frontReads).toEqual([]);
    expect(backReads).toEqual([]);
    // The teacher screen reads only the queue, on the queue status card's 5 s poll.
    expect(teacherReads.filter((path) => !path.startsWith('/api/queue?'))).toEqual([]);
    expect(teacherReads.length).toBeLessThanOrEqual(Math.ceil(rushSeconds / 5) + 1);

    const dir = shotsDir();
    for (const [name, screen] of Object.entries(screens)) {
      await screen.page.screenshot({ path: join(dir, `live-sync-${name}.png`), fullPage: true });
    }
    await events.close();
    expect(suite.errors).toEqual([]);
  }, 120_000);
});
