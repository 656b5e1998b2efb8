import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, connected, painted } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/** The record's actor and retention for changes this test makes straight in the store. */
const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

// One sign-in per account for the file (no page signs out or changes a password; the front
// client and the front screen share one), but the screenshot pages that wait for a car to
// arrive live while the session's teacher page is still open sign in on their own.
const suite = browserSuite({ reuseSignIns: true });
let front: Client;

beforeAll(async () => {
  front = await suite.client('front_demo');
});

/** A browser context signed in as `username` with `path` open. */
const open = async (
  username: string,
  path: string,
  viewport: { width: number; height: number } = viewports.tablet,
  touch = false,
  theme?: 'dark' | 'bright',
  ownSignIn = false,
) => {
  const { page } = await suite.open(username, path, {
    viewport,
    touch,
    ...(theme ? { theme } : {}),
    ownSignIn,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  return page;
};

const region = (scope: Page | Locator, name: string) => scope.getByRole('region', { name, exact: true });
const text = (scope: Page | Locator, value: string) => scope.getByText(value, { exact: true });
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const readyList = (page: Page) => page.getByRole('list', { name: 'Ready students' });
const inClassList = (page: Page) => page.getByRole('list', { name: 'Students in class' });
const counter = (scope: Page | Locator, name: string) => scope.getByRole('group', { name, exact: true });
const row = (list: Locator, name: string) => list.getByRole('listitem', { name, exact: true });

/** Reads the QR image's PNG data URL back into its text. */
const decodeQr = (dataUrl: string) => {
  const [, base64] = dataUrl.split(',');
  const png = PNG.sync.read(Buffer.from(base64 as string, 'base64'));
  return { text: jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data, width: png.width };
};

let sessionId: number;

describe('the teacher screen', () => {
  it("opens on Attendance without a session: the counters and the teacher's classroom, nothing to release", async () => {
    const page = await open('teacher_demo', '/teacher');
    await expect.poll(() => tab(page, 'Attendance').getAttribute('aria-selected')).toBe('true');
    const attendance = region(page, 'Attendance Management');
    await text(attendance, 'Attendance Management').waitFor();
    await text(counter(attendance, 'In Class'), '10').waitFor();
    await text(counter(attendance, 'Ready'), '0').waitFor();
    await text(counter(attendance, 'Picked Up'), '0').waitFor();
    const panel = region(page, 'Students: Room 12');
    await text(panel, 'Students').waitFor();
    await text(panel, 'Ready: 0').waitFor();
    await text(panel, 'No students ready for pickup').waitFor();
    await expect.poll(() => inClassList(page).getByRole('listitem').count()).toBe(10);
    await page.getByPlaceholder('Find student...', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /^Release/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'No Active Session' }).count()).toBe(0);

    // A student's registered vehicle opens outside a session too.
    await row(inClassList(page), 'Ava Martinez').getByText('Ava Martinez', { exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Car 101' }).waitFor();
    await text(dialog, 'Not in pickup queue').waitFor();
    await text(dialog, 'Click anywhere to close').click();
    await dialog.waitFor({ state: 'detached' });

    await tab(page, 'Arrival/Departure').click();
    await page.getByRole('heading', { name: 'No Active Session' }).waitFor();
    const rooms = region(page, 'Classrooms');
    // teacher_demo's own classroom is selected by default.
    await text(rooms, 'Selected Classrooms (1)').waitFor();
    const own = rooms.getByRole('checkbox', { name: 'Room 12' });
    await expect.poll(() => own.getAttribute('aria-checked')).toBe('true');
    await text(own, 'Grade 2').waitFor();
    await text(own, 'Taylor Teacher').waitFor();
    const other = rooms.getByRole('checkbox', { name: 'Room 4' });
    await text(other, 'Grade K').waitFor();
    await text(other, 'No teacher assigned').waitFor();
    expect(await other.getAttribute('aria-checked')).toBe('false');
    // The list folds away and comes back.
    await text(rooms, 'Selected Classrooms (1)').click();
    await other.waitFor({ state: 'hidden' });
    await text(rooms, 'Selected Classrooms (1)').click();
    await other.waitFor();
    await page.close();
  }, 60_000);

  it('takes screenshots of the Attendance tab without a session on a tablet and a phone', async () => {
    const dir = shotsDir();
    for (const [name, viewport] of Object.entries(viewports) as [keyof typeof viewports, any][]) {
      const page = await open('teacher_demo', '/teacher', viewport, name === 'phone');
      await expect.poll(() => inClassList(page).getByRole('listitem').count()).toBe(10);
      await painted(page);
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(wide).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(dir, `teacher-attendance-no-session-${name}.png`), fullPage: true });
      await page.close();
    }
  }, 60_000);

  describe('during a session', () => {
    let teacher: Page;
    let frontPage: Page;

    beforeAll(async () => {
      const created = await front.post('/api/sessions', sessionBody());
      expect(created.status).toBe(201);
      sessionId = created.body.id;
      teacher = await open('teacher_demo', '/teacher');
      frontPage = await open('front_demo', '/front-queue');
      await frontPage.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
    });

    it('opens on Arrival/Departure with the classroom as the alert location', async () => {
      await expect.poll(() => tab(teacher, 'Arrival/Departure').getAttribute('aria-selected')).toBe('true');
      // One Alert Center above both tabs: the alerts and the Help / Emergency pair for the classroom.
      const alerts = region(teacher, 'Alert Center');
      await text(alerts, 'Room 12').waitFor();
      await alerts.getByRole('button', { name: /^Emergency/ }).waitFor();
      const mine = region(teacher, 'My Classroom');
      await text(mine, 'Room 12').waitFor();
      await text(mine, 'Grade 2 · 10 students').waitFor();
      await text(counter(mine, 'In Class'), '10').waitFor();
      await text(region(teacher, 'Queue Status'), 'No vehicles waiting').waitFor();
      await text(region(teacher, 'Completed Batches Today'), 'No batches completed yet today').waitFor();
      await text(region(teacher, 'Alert Center'), 'No active alerts').waitFor();
      const status = region(teacher, 'Student Batch Status');
      await text(status, 'Students Remaining in Class').waitFor();
      expect(await text(status, 'Not in pickup queue').count()).toBe(10);
    });

    it("shows a car queued on the front screen as its student's arrival within a second", async () => {
      await tab(teacher, 'Attendance').click();
      const panel = region(teacher, 'Students: Room 12');
      await text(panel, 'Ready: 0').waitFor();
      await row(inClassList(teacher), 'Ava Martinez').waitFor();
      // Both screens' live connections are open: the car queued next reaches the teacher's.
      await connected(teacher);
      await connected(frontPage);

      const keypad = frontPage.getByRole('group', { name: 'Keypad' });
      for (const digit of ['1', '0', '1'])
        await keypad.getByRole('button', { name: digit, exact: true }).click();
      const added = frontPage.waitForResponse(
        (response) => response.url().endsWith('/api/queue') && response.request().method() === 'POST',
      );
      await frontPage.getByRole('button', { name: 'Add to Queue' }).click();
      expect((await added).status()).toBe(201);
      const start = Date.now();
      const ava = row(readyList(teacher), 'Ava Martinez');
      await ava.waitFor({ timeout: 1000 });
      expect(Date.now() - start).toBeLessThan(1000);
      // The flag shows for 3 s from the arrival: seen within 2 s of the row, on a loaded machine too.
      await text(ava, 'JUST ARRIVED!').waitFor({ timeout: 2000 });
      expect(await ava.getAttribute('data-highlight')).toBe('just-arrived');
      await text(panel, 'Ready: 1').waitFor();
      await row(inClassList(teacher), 'Ava Martinez').waitFor({ state: 'detached' });
      await text(ava, 'Waiting in queue').waitFor();
      // After 3 s the flag goes, and the row turns yellow until 10 s.
      await text(ava, 'JUST ARRIVED!').waitFor({ state: 'detached', timeout: 5000 });
      expect(await ava.getAttribute('data-highlight')).toBe('new');
      await expect.poll(() => ava.getAttribute('data-highlight'), { timeout: 12_000 }).toBe('waiting');
    }, 60_000);

    it('finds students in class by part of a first or last name, never those in the queue', async () => {
      const search = teacher.getByPlaceholder('Find student...', { exact: true });
      await search.fill('MARTI');
      const list = inClassList(teacher);
      await row(list, 'Sofia Martinez').waitFor();
      expect(await list.getByRole('listitem').count()).toBe(1);
      await search.fill('ava');
      await expect.poll(() => list.getByRole('listitem').count()).toBe(4);
      expect(await row(list, 'Ava Martinez').count()).toBe(0);
      await teacher.getByRole('button', { name: 'Clear student search' }).click();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(9);
    });

    it("opens a student's vehicle details, queued or not", async () => {
      await row(readyList(teacher), 'Ava Martinez').getByText('Ava Martinez', { exact: true }).click();
      let dialog = teacher.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Car 101' }).waitFor();
      for (const section of ['Contact Information', 'Children', 'Pickup Information']) {
        await dialog.getByRole('heading', { name: section }).waitFor();
      }
      await text(dialog, 'Only vehicle in queue').waitFor();
      await text(dialog, 'Click anywhere to close').click();
      await dialog.waitFor({ state: 'detached' });

      await row(inClassList(teacher), 'Sofia Martinez').getByText('Sofia Martinez', { exact: true }).click();
      dialog = teacher.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Car 104' }).waitFor();
      await dialog.getByRole('heading', { name: 'Contact Information' }).waitFor();
      await text(dialog, 'Not in pickup queue').waitFor();
      await text(dialog, 'Click anywhere to close').click();
      await dialog.waitFor({ state: 'detached' });
    });

    it('releases a ready student', async () => {
      const ava = row(readyList(teacher), 'Ava Martinez');
      await ava.getByRole('button', { name: 'Release Ava Martinez' }).click();
      await text(teacher, 'Student released').waitFor();
      await text(teacher, 'The student has been released for pickup').waitFor();
      // The teacher screen says who released the child.
      await text(ava, 'Released by teacher_demo').waitFor();
      expect(await ava.getByRole('button', { name: 'Release Ava Martinez' }).count()).toBe(0);
    });

    it('generates a pickup code whose QR image opens the invite link, and copies the code', async () => {
      await row(readyList(teacher), 'Ava Martinez')
        .getByRole('button', { name: 'Pickup Code for Ava Martinez' })
        .click();
      const dialog = teacher.getByRole('dialog');
      await text(dialog, 'No active pickup code found. Generate one for parent linking.').waitFor();
      await dialog.getByRole('button', { name: 'Generate Pickup Code' }).click();
      await text(teacher, 'Pickup Code Generated').waitFor();
      const shown = dialog.getByLabel('Pickup code', { exact: true });
      await shown.waitFor();
      const code = (await shown.textContent()) as string;
      expect(code).toMatch(/^[A-Z2-9]{4}$/);
      await text(teacher, `Code ${code} generated for Ava Martinez`).waitFor();
      await text(dialog, `${suite.origin}/invite/${code}`).waitFor();
      await dialog.getByText(/^Expires at \d{1,2}:\d{2} (AM|PM) \(\d{2}:\d{2} left\)$/).waitFor();

      const qr = dialog.getByRole('img', { name: `QR code for ${suite.origin}/invite/${code}` });
      await qr.waitFor();
      const decoded = decodeQr((await qr.getAttribute('src')) as string);
      expect(decoded.text).toBe(`${suite.origin}/invite/${code}`);
      expect(decoded.width).toBe(256);

      // An active code can only be refreshed.
      expect(await dialog.getByRole('button', { name: /Generate/ }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Refresh Status' }).click();

      await dialog.getByRole('button', { name: 'Copy Code' }).click();
      await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
      expect(await teacher.evaluate<string>('navigator.clipboard.readText()')).toBe(code);
      const copiedAt = Date.now();
      await dialog.getByRole('button', { name: 'Copy Code' }).waitFor({ timeout: 4000 });
      expect(Date.now() - copiedAt).toBeGreaterThan(1500);

      await teacher.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }, 30_000);

    it('shows where each student is: in a batch, in overflow, waiting; and completed batches', async () => {
      await front.post('/api/queue', { sessionId, vehicleNumber: '104', vehicleType: 'car' });
      const batch = (await front.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
      await front.post(`/api/batches/${batch.id}/vehicles`);
      await front.post(`/api/batches/${batch.id}/vehicles`);
      // Car 104 leaves its batch for the overflow area.
      const entries = (await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[];
      const car104 = entries.find((entry) => entry.vehicleNumber === '104');
      await front.put(`/api/queue/${car104.id}`, { batchId: null, status: 'overflow' });
      await front.post('/api/queue', { sessionId, vehicleNumber: '107', vehicleType: 'car' });

      await tab(teacher, 'Arrival/Departure').click();
      const status = region(teacher, 'Student Batch Status');
      const overflow = region(status, 'Students in Overflow - URGENT');
      await text(overflow, 'Sofia Martinez').waitFor();
      await text(overflow, 'In overflow area').waitFor();
      const batched = region(status, 'Students in Active Batches');
      await text(batched, 'Ava Martinez').waitFor();
      await text(batched, `In Batch #${batch.batchNumber}`).waitFor();
      const waiting = region(status, 'Students Waiting for Batch Assignment');
      await text(waiting, 'Ava Johnson').waitFor();
      await text(waiting, 'Waiting in queue').waitFor();
      const mine = region(teacher, 'My Classroom');
      await text(counter(mine, 'Ready'), '3').waitFor();
      await text(counter(mine, 'In Class'), '7').waitFor();
      // The Ready list puts the car being loaded now first (then the others, newest first).
      const order = () =>
        readyList(teacher)
          .getByRole('listitem')
          .evaluateAll((items) =>
            items.map((item) =>
              (item as unknown as { getAttribute(name: string): string }).getAttribute('aria-label'),
            ),
          );
      await expect.poll(order).toEqual(['Ava Martinez', 'Ava Johnson', 'Sofia Martinez']);
      await teacher.screenshot({ path: join(shotsDir(), 'teacher-ready-loading-first.png') });
      const queue = region(teacher, 'Queue Status');
      await text(queue, '2 vehicles waiting').waitFor();

      await front.put(`/api/batches/${batch.id}`, {
        status: 'completed',
        confirmUnreleased: true,
        endTime: new Date().toISOString(),
      });
      await text(region(teacher, 'Completed Batches Today'), `Batch #${batch.batchNumber}`).waitFor();
      await text(counter(mine, 'Picked Up'), '1').waitFor();
      await text(batched, 'Ava Martinez').waitFor({ state: 'detached' });
    }, 30_000);

    it('keeps counting picked-up students after hundreds of pickups', async () => {
      const mine = region(teacher, 'My Classroom');
      await text(counter(mine, 'Picked Up'), '1').waitFor();
      // 200 walk-up pickups complete after Ava Martinez's batch...
      const { queue } = await import('@curbside/store');
      for (let start = 1; start <= 200; start += 20) {
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const now = new Date().toISOString();
            const entry = await queue.add(
              suite.server.db,
              {
                sessionId,
                schoolId: 1,
                vehicleId: null,
                vehicleNumber: `W${start + i}`,
                vehicleType: 'car',
                entryTime: now,
                queueTime: now,
                vehicle: null,
                students: [],
              },
              rec,
            );
            await queue.complete(suite.server.db, entry, rec);
          }),
        );
      }
      // ...then car 122 is picked up at the curb.
      const added = await front.post('/api/queue', { sessionId, vehicleNumber: '122', vehicleType: 'car' });
      expect(added.status).toBe(201);
      const done = await front.put(`/api/queue/${added.body.id}/status`, {
        status: 'completed',
        confirmUnreleased: true,
      });
      expect(done.status).toBe(200);
      await text(counter(mine, 'Picked Up'), '2').waitFor();
      await text(counter(mine, 'In Class'), '6').waitFor();
      const status = region(teacher, 'Student Batch Status');
      expect(await text(status, 'Ava Martinez').count()).toBe(0);
    }, 60_000);

    it("follows more classrooms, shows walkers as not openable, and offers no code for another teacher's students", async () => {
      const rooms = region(teacher, 'Classrooms');
      await rooms.getByRole('checkbox', { name: 'Room 7' }).click();
      await text(rooms, 'Selected Classrooms (2)').waitFor();
      await tab(teacher, 'Attendance').click();
      const room7 = region(teacher, 'Students: Room 7');
      const walker = row(room7.getByRole('list', { name: 'Students in class' }), 'Chloe Brown');
      await text(walker, 'No vehicle').waitFor();
      // No button at all: the walker's name opens nothing, and Room 7 is another teacher's
      // classroom, whose pickup codes a teacher cannot make (issue 49).
      expect(await walker.getByRole('button').count()).toBe(0);
      expect(await walker.locator('[data-openable="false"]').count()).toBe(1);
      expect(await room7.getByRole('button', { name: /^Pickup Code/ }).count()).toBe(0);
      // Her own classroom's students keep theirs.
      const room12 = region(teacher, 'Students: Room 12');
      expect(await room12.getByRole('button', { name: /^Pickup Code/ }).count()).toBeGreaterThan(0);
      await expectAccessible(teacher);
      await painted(teacher);
      await room7.screenshot({ path: join(shotsDir(), 'teacher-other-classroom-no-code-tablet.png') });
      await tab(teacher, 'Arrival/Departure').click();
      await rooms.getByRole('checkbox', { name: 'Room 7' }).click();
      await text(rooms, 'Selected Classrooms (1)').waitFor();
    });

    it('asks to select classrooms when none is selected', async () => {
      await region(teacher, 'Classrooms').getByRole('checkbox', { name: 'Room 12' }).click();
      await text(region(teacher, 'Classrooms'), 'Selected Classrooms (0)').waitFor();
      await tab(teacher, 'Attendance').click();
      await text(teacher, 'Select classrooms to view and manage students.').waitFor();
      await tab(teacher, 'Arrival/Departure').click();
      await region(teacher, 'Classrooms').getByRole('checkbox', { name: 'Room 12' }).click();
    });

    it('takes screenshots of both tabs and the code dialog on a tablet and a phone', async () => {
      // Now: Sofia Martinez in overflow, Ava Johnson in a batch, Sofia Johnson waiting,
      // and on each screen one student who just arrived.
      const batch = (await front.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
      await front.post(`/api/batches/${batch.id}/vehicles`);
      await front.post('/api/queue', { sessionId, vehicleNumber: '110', vehicleType: 'car' });
      const arriving = { tablet: ['113', 'Ava Nguyen'], phone: ['116', 'Sofia Nguyen'] } as const;
      const dir = shotsDir();
      for (const [name, viewport] of Object.entries(viewports) as [keyof typeof viewports, any][]) {
        const [car, student] = arriving[name];
        // Its own sign-in: it waits for a live arrival beside the open `teacher` page.
        const page = await open('teacher_demo', '/teacher', viewport, name === 'phone', undefined, true);
        const status = region(page, 'Student Batch Status');
        await text(region(status, 'Students in Active Batches'), 'Ava Johnson').waitFor();
        await text(region(status, 'Students Waiting for Batch Assignment'), 'Sofia Johnson').waitFor();
        await painted(page);
        const wide = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
        expect(wide).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(dir, `teacher-arrival-${name}.png`), fullPage: true });

        await tab(page, 'Attendance').click();
        await row(readyList(page), 'Sofia Johnson').waitFor();
        // The car queued next arrives on this page's live connection.
        await connected(page);
        await front.post('/api/queue', { sessionId, vehicleNumber: car, vehicleType: 'car' });
        await text(row(readyList(page), student), 'JUST ARRIVED!').waitFor();
        await painted(page);
        await page.screenshot({ path: join(dir, `teacher-attendance-${name}.png`), fullPage: true });

        await row(readyList(page), student)
          .getByRole('button', { name: /^Pickup Code/ })
          .click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: 'Generate Pickup Code' }).click();
        await dialog.getByRole('img', { name: /^QR code for / }).waitFor();
        await painted(page);
        await page.screenshot({ path: join(dir, `teacher-code-${name}.png`) });
        await page.close();
      }
      // The ready list in the dark theme.
      const dark = await open('teacher_demo', '/teacher', viewports.tablet, false, 'dark', true);
      await tab(dark, 'Attendance').click();
      await row(readyList(dark), 'Sofia Johnson').waitFor();
      await connected(dark);
      await front.post('/api/queue', { sessionId, vehicleNumber: '119', vehicleType: 'car' });
      await text(row(readyList(dark), 'Ava Patel'), 'JUST ARRIVED!').waitFor();
      await dark.screenshot({ path: join(dir, 'teacher-attendance-dark.png'), fullPage: true });
      await dark.close();
    }, 90_000);

    it('logs no errors', () => {
      expect(suite.errors).toEqual([]);
    });
  });
});
