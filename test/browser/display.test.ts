import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * The hallway display in Chromium at 1920×1080 (issue 32): opened from the
 * school's display link, it shows a called student within 2 s and removes
 * them when picked up, in English and in Spanish, with no serious axe
 * violation; the school admin screen shows the link.
 */
const suite = browserSuite();
const TV = { width: 1920, height: 1080 };

describe('the hallway display', () => {
  it('shows the display link on the school admin screen', async () => {
    const { page } = await suite.open('admin_demo', '/school-admin');
    const card = page.getByRole('region', { name: 'Hallway Display' });
    await expect
      .poll(() => card.getByLabel('Display link').textContent(), { timeout: 30_000 })
      .toMatch(/\/display\?t=[A-Za-z0-9_-]{32}$/);
    expect(await card.getByRole('link', { name: 'Open Display' }).getAttribute('href')).toMatch(
      /\/display\?t=/,
    );
  });

  it.each([
    ['en', 'Students called for pickup', 'Batch', 'No students called yet'],
    ['es', 'Estudiantes llamados para recoger', 'Grupo', 'Todavía no se ha llamado a ningún estudiante'],
  ] as const)(
    'in %s: a called student shows within 2 s and leaves when picked up',
    async (lang, title, batchWord, empty) => {
      const admin = await signedIn(suite.server.url, 'admin_demo');
      const back = await signedIn(suite.server.url, 'back_demo');
      const url = new URL((await admin.get('/api/display-link')).body.url);
      const active = (await back.get('/api/sessions/active')).body;
      if (active) await back.put(`/api/sessions/${active.id}/end`);
      const sessionId = (await back.post('/api/sessions', sessionBody())).body.id as number;
      await back.post('/api/queue', { sessionId, vehicleNumber: '101', vehicleType: 'car' });
      const entry = (
        (await back.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{
          vehicleNumber: string;
          students: Array<{ firstName: string; lastName: string }>;
        }>
      ).find((row) => row.vehicleNumber === '101');
      const student = entry?.students[0] as { firstName: string; lastName: string };

      const { page } = await suite.open(null, `/display${url.search}&lang=${lang}`, { viewport: TV });
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 })
        .toBe(title);
      await expect.poll(() => page.getByText(empty).count(), { timeout: 30_000 }).toBe(1);

      const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
      const called = Date.now();
      const name = `${student.firstName} ${student.lastName.charAt(0).toUpperCase()}.`;
      await page.getByText(name, { exact: false }).first().waitFor({ timeout: 2_000 });
      expect(Date.now() - called).toBeLessThan(2_000);
      expect(await page.getByRole('heading', { name: `${batchWord} #${batch.batchNumber}` }).count()).toBe(1);
      expect(await page.getByText('101', { exact: false }).count()).toBeGreaterThan(0);
      expect(await page.content()).not.toContain(student.lastName.length > 1 ? student.lastName : '\u0000');
      await page.screenshot({ path: join(shotsDir(), `display-${lang}.png`) });
      await expectAccessible(page);

      await back.put(`/api/batches/${batch.id}`, {
        status: 'completed',
        confirmUnreleased: true,
        endTime: new Date().toISOString(),
      });
      await expect.poll(() => page.getByText(name, { exact: false }).count(), { timeout: 10_000 }).toBe(0);
      await back.put(`/api/sessions/${sessionId}/end`);
    },
  );

  it('logged no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
