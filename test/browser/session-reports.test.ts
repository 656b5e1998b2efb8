import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RETENTION_DAYS, type Recording } from '@curbside/domain';
import { batches, pickupSessions, queue, releases, students, vehicles } from '@curbside/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { signedIn } from '../support/server';

/**
 * Session Reports in Chromium: the school admin opens yesterday's dismissal
 * from the admin screen, sees its charts and its pickups, searches them and
 * exports the CSV.
 */
const suite = browserSuite();
let sessionId: number;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Yesterday at 15:00 UTC plus some minutes. */
const yesterday = (minutes: number) => {
  const day = new Date(Date.now() - DAY_MS);
  day.setUTCHours(15, 0, 0, 0);
  return new Date(day.getTime() + minutes * 60_000).toISOString();
};

/**
 * Yesterday's dismissal, made through the store with its own times (as the
 * routes would have made it then): six cars queued a minute apart by
 * front_demo, loaded in one batch by back_demo, completed minutes later.
 */
const runYesterday = async () => {
  const users = {
    front: (await (await signedIn(suite.server.url, 'front_demo')).get('/api/me')).body,
    back: (await (await signedIn(suite.server.url, 'back_demo')).get('/api/me')).body,
  };
  const as = (user: { id: number; username: string; role: 'front_queue_wrangler' }): Recording => ({
    actor: { id: user.id, username: user.username, role: user.role },
    retentionDays: DEFAULT_RETENTION_DAYS,
  });
  const schoolId = users.front.schoolId as number;
  const session = await pickupSessions.create(
    suite.server.db,
    {
      schoolId,
      name: 'Afternoon Pickup',
      type: 'afternoon_pickup',
      startTime: yesterday(0),
      endTime: yesterday(120),
      notes: null,
    },
    as(users.front),
  );
  const batch = await batches.create(
    suite.server.db,
    { sessionId: session.id, schoolId, vehicleType: 'car', maxCapacity: 8 },
    as(users.back),
  );
  /** Car `number` queued by front_demo `minutes` after 15:00 yesterday. */
  const queueAt = async (number: string, minutes: number, sessionId: number) => {
    const vehicle = await vehicles.byNumber(suite.server.db, schoolId, 'car', number);
    const riders = await students.getMany(suite.server.db, schoolId, vehicle?.studentIds ?? []);
    return queue.add(
      suite.server.db,
      {
        sessionId,
        schoolId,
        vehicleId: vehicle?.id ?? null,
        vehicleNumber: number,
        vehicleType: 'car',
        entryTime: yesterday(minutes),
        queueTime: yesterday(minutes),
        vehicle: null,
        students: riders.map(({ id, firstName, lastName, grade, classroomId }) => ({
          id,
          firstName,
          lastName,
          grade,
          classroomId,
        })),
      },
      as(users.front),
    );
  };
  const entries = [];
  for (const [i, number] of ['101', '102', '103', '104', '105', '106'].entries()) {
    const entry = await queueAt(number, 2 + i, session.id);
    expect(await batches.addEntry(suite.server.db, batch, entry, as(users.back))).toMatchObject({
      status: 'loading',
    });
    entries.push({ ...entry, batchId: batch.id, batchNumber: batch.batchNumber, version: entry.version + 1 });
  }
  const loaded = await batches.withMembers(suite.server.db, batch.id);
  expect(await batches.complete(suite.server.db, loaded!.batch, entries, yesterday(14), as(users.back))).toBe(
    true,
  );
  // Car 107 is removed, queued again, its child released on that later visit, and picked up.
  const first107 = await queueAt('107', 8, session.id);
  await queue.remove(suite.server.db, first107, as(users.front), 'removed', yesterday(9));
  const second107 = await queueAt('107', 10, session.id);
  const [child107] = second107.students;
  await releases.release(
    suite.server.db,
    { schoolId, sessionId: session.id },
    child107!,
    as(users.back),
    yesterday(11),
  );
  const marks = await releases.ofStudents(suite.server.db, session.id, second107.students);
  await queue.complete(suite.server.db, second107, as(users.back), yesterday(12), marks);
  // Car 108 is still waiting when the session ends.
  await queueAt('108', 13, session.id);
  await pickupSessions.end(suite.server.db, session, as(users.back), yesterday(20));
  return session.id;
};

beforeAll(async () => {
  sessionId = await runYesterday();
}, 120_000);

describe('Session Reports', () => {
  it("opens yesterday's session from the admin screen, shows its charts and pickups, and exports the CSV", async () => {
    const { page, context } = await suite.open('admin_demo', '/school-admin', { acceptDownloads: true });
    await page.getByRole('link', { name: 'Session Reports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Session Reports' }).waitFor();
    const sessions = page.getByRole('table', { name: 'Sessions' });
    const row = sessions.getByRole('row').filter({ hasText: 'Afternoon Pickup' }).first();
    await row.getByRole('cell', { name: '9', exact: true }).first().waitFor();
    await page.screenshot({ path: join(shotsDir(), 'session-reports-list.png'), fullPage: true });
    await row.getByRole('link', { name: /^Open report of Afternoon Pickup/ }).click();

    await page.waitForURL(`**/session-reports/${sessionId}`);
    await page.getByRole('heading', { level: 1, name: 'Afternoon Pickup' }).waitFor();
    // The charts draw their bars (SVG) once their chunk has loaded.
    for (const chart of ['Cars per minute', 'Wait distribution']) {
      const region = page.getByRole('region', { name: chart });
      await expect
        .poll(() => region.locator('svg .recharts-bar-rectangle').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
    }
    const pickups = page.getByRole('table', { name: 'Pickups' });
    await expect.poll(() => pickups.locator('tbody tr').count()).toBe(9);
    const car101 = pickups.locator('tbody tr').filter({ hasText: /^101/ });
    await car101.getByText('Picked up', { exact: true }).waitFor();
    // People by their names, not their usernames.
    await car101.getByText(/· Frankie Front$/).waitFor();
    await car101.getByText(/· Bailey Back$/).waitFor();
    expect(await pickups.getByText(/front_demo|back_demo/).count()).toBe(0);
    // 107's removed visit shows no release; the release made on its later visit shows there.
    const [removed107, picked107] = [0, 1].map((i) =>
      pickups.locator('tbody tr').filter({ hasText: /^107/ }).nth(i),
    );
    await removed107!.getByText('Removed', { exact: true }).waitFor();
    await removed107!.getByText(/^\w+: —$/).waitFor();
    await picked107!.getByText(/^\w+: \d+:\d\d [AP]M · Bailey Back$/).waitFor();
    // 108 was still waiting when the session ended.
    const car108 = pickups.locator('tbody tr').filter({ hasText: /^108/ });
    await car108.getByText('Left in queue at end', { exact: true }).waitFor();
    await page.screenshot({ path: join(shotsDir(), 'session-report-tablet.png'), fullPage: true });

    await page.getByRole('textbox', { name: 'Search pickups' }).fill('103');
    await expect.poll(() => pickups.locator('tbody tr').count()).toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^session-${sessionId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const csv = readFileSync((await download.path()) as string, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^Vehicle,Type,Outcome,Student ID,First Name,Last Name/);
    // The school's time, with its zone in the header: 15:02 UTC yesterday is 9:02 or 10:02 in Chicago.
    expect(lines[0]).toContain(',Queued At (America/Chicago),Queued By,Released At (America/Chicago),');
    const row101 = lines.find((line) => line.startsWith('101,car,picked_up')) as string;
    expect(row101).toMatch(/,\d{4}-\d\d-\d\d (09|10):02:00,Frankie Front \(front queue wrangler\),/);
    expect(row101).not.toContain('T15:02');
    expect(lines.some((line) => line.startsWith('108,car,left_in_queue_at_end'))).toBe(true);
    await context.close();
  }, 120_000);

  it('shows every outcome badge whole on a 1440 px screen', async () => {
    const { page } = await suite.open('admin_demo', `/session-reports/${sessionId}`, {
      viewport: { width: 1440, height: 900 },
    });
    const pickups = page.getByRole('table', { name: 'Pickups' });
    await expect.poll(() => pickups.locator('tbody tr').count()).toBe(9);
    await suite.painted(page);
    await page.screenshot({ path: join(shotsDir(), 'session-report-1440.png'), fullPage: true });
    const labels = pickups.locator('.mantine-Badge-label');
    // A label cut short ("Picked…") is wider inside than it is shown.
    const cut = await labels.evaluateAll((all) =>
      all
        .map((label) => label as unknown as { scrollWidth: number; clientWidth: number; textContent: string })
        .filter((label) => label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent),
    );
    expect(cut).toEqual([]);
    await expectAccessible(page);
  }, 60_000);

  it('logs no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
