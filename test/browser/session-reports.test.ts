import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RETENTION_DAYS, type Recording } from '@curbside/domain';
import { batches, pickupSessions, queue, students, vehicles } from '@curbside/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { shotsDir } from '../support/browser';
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
  const entries = [];
  for (const [i, number] of ['101', '102', '103', '104', '105', '106'].entries()) {
    const vehicle = await vehicles.byNumber(suite.server.db, schoolId, 'car', number);
    const riders = await students.getMany(suite.server.db, schoolId, vehicle?.studentIds ?? []);
    const entry = await queue.add(
      suite.server.db,
      {
        sessionId: session.id,
        schoolId,
        vehicleId: vehicle?.id ?? null,
        vehicleNumber: number,
        vehicleType: 'car',
        entryTime: yesterday(2 + i),
        queueTime: yesterday(2 + i),
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
    expect(await batches.addEntry(suite.server.db, batch, entry, as(users.back))).toBe('added');
    entries.push({ ...entry, batchId: batch.id, batchNumber: batch.batchNumber, version: entry.version + 1 });
  }
  const loaded = await batches.withMembers(suite.server.db, batch.id);
  expect(await batches.complete(suite.server.db, loaded!.batch, entries, yesterday(14), as(users.back))).toBe(
    true,
  );
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
    await row.getByRole('cell', { name: '6', exact: true }).first().waitFor();
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
    await expect.poll(() => pickups.locator('tbody tr').count()).toBe(6);
    const car101 = pickups.locator('tbody tr').filter({ hasText: /^101/ });
    await car101.getByText('Picked up', { exact: true }).waitFor();
    await car101.getByText(/· front_demo$/).waitFor();
    await car101.getByText(/· back_demo$/).waitFor();
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
    expect(lines.filter((line) => line.startsWith('101,car,picked_up')).length).toBeGreaterThanOrEqual(1);
    await context.close();
  }, 120_000);

  it('logs no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
