import { readFile } from 'node:fs/promises';
import { students } from '@curbside/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, viewports } from '../support/browser';
import { browserSuite, painted } from '../support/browser-suite';

/**
 * A family's data (issue 55) on School Management: a student's edit dialog
 * exports their data as a JSON file, and erases them once their first and
 * last name is typed (the button stays disabled until then).
 */
describe("a student's data on School Management", () => {
  const suite = browserSuite({ closeAfterEach: true });
  const made: Record<string, number> = {};

  beforeAll(async () => {
    const admin = await suite.client('admin_demo');
    for (const [name, first] of [
      ['tablet', 'Wilhelmina'],
      ['phone', 'Evangeline'],
    ] as const) {
      const answer = await admin.post('/api/students', {
        firstName: first,
        lastName: 'Thistlewood',
        grade: '4',
      });
      expect(answer.status).toBe(201);
      made[name] = answer.body.id;
    }
  });

  for (const [name, viewport, first] of [
    ['tablet', viewports.tablet, 'Wilhelmina'],
    ['phone', viewports.phone, 'Evangeline'],
  ] as const) {
    it(`exports a student's data, then erases them once their name is typed (${name})`, async () => {
      const { page } = await suite.open('admin_demo', '/school-admin', { viewport, acceptDownloads: true });
      await page.getByRole('textbox', { name: 'Search students' }).fill(first);
      await page.getByRole('button', { name: `Edit ${first} Thistlewood` }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${first} Thistlewood` });
      await edit.waitFor();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        edit.getByRole('button', { name: 'Export Data' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`student-${made[name]}.json`);
      const data = JSON.parse(await readFile((await download.path()) as string, 'utf8'));
      expect(data.student).toMatchObject({ id: made[name], firstName: first, lastName: 'Thistlewood' });

      await edit.getByRole('button', { name: 'Erase Student…' }).click();
      const erase = page.getByRole('dialog', { name: `Erase ${first} Thistlewood?` });
      await erase.waitFor();
      const confirm = erase.getByRole('button', { name: 'Erase Student' });
      const typed = erase.getByLabel("Type the student's first and last name");
      await typed.fill(first);
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill(`${first} Thistlewood`);
      await expect.poll(() => confirm.isEnabled()).toBe(true);
      await painted(page);
      await page.screenshot({ path: `.test-results/student-erase-${name}.png` });
      await expectAccessible(page);

      await confirm.click();
      await page.locator('.mantine-Notification-root').filter({ hasText: 'Student erased' }).waitFor();
      await expect.poll(() => edit.isVisible()).toBe(false);
      await expect
        .poll(() => page.getByRole('button', { name: `Edit ${first} Thistlewood` }).count())
        .toBe(0);
      expect(await students.get(suite.server.db, 1, made[name] as number)).toBeUndefined();
    }, 90_000);
  }
});
