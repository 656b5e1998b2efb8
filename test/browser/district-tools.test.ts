import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { signedIn } from '../support/server';

/**
 * No placeholder on the admin screens (issue 50, item 13): Edit District sets
 * the district's name and its new schools' time zone; Export Data downloads a
 * zip of CSV files, a folder per school, from the district's screen and from
 * the school admin's.
 */
const suite = browserSuite();

/** The names of a stored zip's entries, from its central directory. */
const entriesOf = (bytes: Buffer) => {
  const end = bytes.length - 22;
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt16LE(at + 28);
    names.push(bytes.subarray(at + 46, at + 46 + length).toString('utf8'));
    at += 46 + length + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return names;
};

describe('the district admin', () => {
  it('edits the district: its name and the time zone of its new schools', { timeout: 120_000 }, async () => {
    const { page } = await suite.open('district_demo', '/district-admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Edit District' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit District' });
    await dialog.getByLabel('District name').fill('Demo Unified');
    const zone = dialog.getByRole('textbox', { name: 'Time zone for new schools' });
    await zone.click();
    await zone.fill('Denver');
    await page.getByRole('option', { name: 'America/Denver' }).click();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('District updated successfully').waitFor({ timeout: 15_000 });
    await page.getByText('America/Denver', { exact: true }).waitFor();
    await page.getByText('Demo Unified ·', { exact: false }).first().waitFor();
    await page.screenshot({ path: join(shotsDir(), 'district-settings.png'), fullPage: true });
    const api = await signedIn(suite.server.url, 'district_demo');
    expect((await api.get('/api/districts/1')).body).toMatchObject({
      name: 'Demo Unified',
      timeZone: 'America/Denver',
    });
    await api.put('/api/districts/1', { name: 'Demo Unified School District', timeZone: 'America/Chicago' });
  });

  it("exports the district's data: a zip with a folder of CSV files per school", {
    timeout: 120_000,
  }, async () => {
    const { page } = await suite.open('district_demo', '/district-admin', { acceptDownloads: true });
    await page.getByRole('tab', { name: 'Settings' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: 'Export Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^demo-unified-school-district-export-\d{4}-\d{2}-\d{2}\.zip$/,
    );
    const names = entriesOf(readFileSync((await download.path()) as string));
    expect(names).toContain('lincoln-elementary/students.csv');
    expect(names).toContain('lincoln-elementary/dismissals.csv');
    expect(names).toContain('riverside-elementary/students.csv');
  });
});

describe('the school admin', () => {
  it("exports the school's data from Reports and Configuration; no tile is a placeholder", {
    timeout: 120_000,
  }, async () => {
    const { page } = await suite.open('admin_demo', '/school-admin', { acceptDownloads: true });
    const reports = page.getByRole('region', { name: 'Reports and Configuration' });
    await reports.getByRole('button', { name: 'Export Data' }).waitFor({ timeout: 30_000 });
    expect(await reports.getByText('Soon', { exact: true }).count()).toBe(0);
    expect(await reports.getByText('Documentation').count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      reports.getByRole('button', { name: 'Export Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^lincoln-elementary-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const names = entriesOf(readFileSync((await download.path()) as string));
    expect(names).toEqual([
      'lincoln-elementary/students.csv',
      'lincoln-elementary/classrooms.csv',
      'lincoln-elementary/teachers.csv',
      'lincoln-elementary/parents.csv',
      'lincoln-elementary/vehicles.csv',
      'lincoln-elementary/programs.csv',
      'lincoln-elementary/dismissals.csv',
    ]);
  });
});
