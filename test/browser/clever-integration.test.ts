import { type FakeClever, startFakeClever } from '@curbside/local';
import { importJobs, students } from '@curbside/store';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

/**
 * The Student Information Import page in Chromium, against the fake Clever
 * (three schools of 200 students): district_demo signs in, imports the Clever
 * district into the demo district, one of its schools, previews that school's
 * first 10 students and the total, and imports them with a progress bar that
 * reaches 100 % and the final counts; a reload keeps following the job; the
 * school admin's rosters then list the students (also a roster read before the
 * import, in the same page). Screenshots on a tablet and a phone, light and
 * dark; axe on each.
 */
// Registered before the suite's own start: the server reads both when it imports.
beforeAll(() => {
  // Pages of 50 records, so a school's 200 students cross pages.
  process.env.CLEVER_PAGE_SIZE = '50';
  // A failed request is retried after 50 ms, then 100, 200, 400 (not half a second, then 1, 2, 4 s):
  // the tests that make Clever fail wait for the job to stop, not for its retries' timing.
  process.env.CLEVER_RETRY_MS = '50';
});
afterAll(() => {
  delete process.env.CLEVER_PAGE_SIZE;
  delete process.env.CLEVER_RETRY_MS;
});

// No page signs out, and each test's pages close when it ends (an import page follows its job
// with polls): one sign-in per account; the sign-in through the form signs in on its own.
const suite = browserSuite({
  // 200 students a school, not the fake's 500: the pages and the progress are the same, in less than half the time.
  clever: () => startFakeClever({ district: { studentsPerSchool: 200 } }),
  timeout: 180_000,
  reuseSignIns: true,
  closeAfterEach: true,
});
const { errors } = suite;
let clever: FakeClever;
let server: (typeof suite)['server'];
beforeAll(() => {
  clever = suite.clever;
  server = suite.server;
});

/** A page on `path`, signed in as district_demo (or `as` another, or signed out, `signedOut`). */
const open = async (
  path: string,
  options: {
    viewport?: { width: number; height: number };
    theme?: 'dark';
    signedOut?: boolean;
    as?: string;
    /** Console errors the page is expected to log (a read the server refuses on purpose). */
    expectedErrors?: RegExp[];
  } = {},
) => {
  const { page } = await suite.open(options.signedOut ? null : (options.as ?? 'district_demo'), path, {
    viewport: options.viewport ?? viewports.tablet,
    ...(options.theme ? { theme: options.theme } : {}),
    ...(options.expectedErrors ? { expectedErrors: options.expectedErrors } : {}),
  });
  return page;
};

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title });
const management = (page: Page) => page.getByRole('region', { name: 'School Management', exact: true });
/** The Students tab's count (its badge) on the school admin screen. */
const studentCount = (page: Page, count: number) =>
  management(page).getByLabel(`${count} students`, { exact: true });
/** The students of a Clever school. */
const cleverStudents = (cleverSchoolId: string | undefined) =>
  clever.data.users.filter((user) => user.roles.student?.school === cleverSchoolId);
/** Finds a student by last name on the Students tab. */
const findStudent = async (page: Page, first: string, last: string) => {
  await management(page).getByLabel('Search students').fill(last);
  await management(page)
    .getByRole('cell', { name: `${first} ${last}`, exact: true })
    .first()
    .waitFor({ timeout: 30_000 });
};
const progress = (page: Page) => page.getByRole('progressbar', { name: 'Import progress' });
const panel = (page: Page) => page.getByRole('region', { name: 'Import progress' });
/** Waits for the followed job to finish and answers its panel. */
const finished = async (page: Page): Promise<Locator> => {
  await panel(page).getByText('Finished', { exact: true }).waitFor({ timeout: 90_000 });
  expect(await progress(page).getAttribute('aria-valuenow')).toBe('100');
  return panel(page);
};
/**
 * The panel's state looked at (axe, a screenshot named `shot`), then Resume:
 * the job resumes and finishes; answers the finished panel.
 */
const resumeToTheEnd = async (page: Page, shot: string): Promise<Locator> => {
  await expectAccessible(page);
  await page.screenshot({ path: `${shotsDir()}/${shot}` });
  await panel(page).getByRole('button', { name: 'Resume import' }).click();
  await toast(page, 'Import Resumed').waitFor();
  return finished(page);
};
/** The finished panel's Students row ('Students' then new, updated, unchanged, deactivated). */
const studentsRow = (done: Locator) =>
  expect.poll(async () => (await done.getByRole('row', { name: /^Students/ }).textContent()) ?? '');

let jobUrl = '';

describe('the Clever district, assigned by the super admin', () => {
  it('the import page tells a district admin with none to ask the super admin, who assigns it on their dashboard', async () => {
    const before = await open('/clever-integration');
    await before
      .getByText(
        'No Clever district is assigned to your district yet. Ask your super admin to assign one on the Super Admin Dashboard.',
      )
      .waitFor();
    await expectAccessible(before);

    const page = await open('/super-admin', { as: 'super_demo' });
    const row = page
      .getByRole('region', { name: 'Clever Districts' })
      .getByRole('group', { name: clever.data.district.name });
    await row
      .getByLabel(`Assign ${clever.data.district.name} to`)
      .selectOption({ label: 'Demo Unified School District' });
    await row.getByRole('button', { name: 'Assign', exact: true }).click();
    await toast(page, 'Clever District Assigned').waitFor();
    await row.getByText('Assigned to Demo Unified School District').waitFor();
    await expectAccessible(page);
    await page
      .getByRole('region', { name: 'Clever Districts' })
      .screenshot({ path: `${shotsDir()}/super-admin-clever-districts.png` });
  });
});

describe('the Student Information Import page as district_demo', () => {
  it('imports the district, a school, and the school’s students with a progress bar and the final counts', async () => {
    const page = await open('/login', { signedOut: true });
    await page.getByLabel('Username', { exact: true }).fill('district_demo');
    await page.getByLabel('Password', { exact: true }).fill('demo1234');
    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).click();
    await page.getByRole('heading', { name: 'District Administration' }).waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Student Information Import' }).click();
    await page.getByRole('heading', { name: 'Student Information Import', level: 1 }).waitFor();

    // 1. The district.
    await page.getByRole('radio', { name: clever.data.district.name }).check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Import District' }).click();
    await toast(page, 'District Imported').waitFor();
    await finished(page);
    await page.getByRole('button', { name: 'Next' }).click();

    // 2. A school, into the demo district (its id is filled in).
    const school = clever.data.schools[0];
    await page.getByRole('radio', { name: school?.name }).check();
    expect(await page.getByLabel('Local district ID').inputValue()).toBe('1');
    // Specification §5: Import School is disabled while the local district id is empty.
    await page.getByLabel('Local district ID').fill('');
    expect(await page.getByRole('button', { name: 'Import School' }).isDisabled()).toBe(true);
    await page.getByLabel('Local district ID').fill('1');
    await page.getByRole('button', { name: 'Import School' }).click();
    await toast(page, 'School Imported').waitFor();
    const schoolPanel = await finished(page);
    await schoolPanel.getByRole('rowheader', { name: 'Schools' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    // 3. The preview: the first 10 and the total; the new school's id is filled in.
    const preview = page.getByRole('table', { name: 'Student preview' });
    await preview.waitFor({ timeout: 30_000 });
    const total = cleverStudents(school?.id).length;
    await page.getByText(`${total} students in this school; the first 10:`).waitFor();
    expect(await preview.getByRole('row').count()).toBe(11);
    const localSchool = await page.getByLabel('Local school ID').inputValue();
    expect(Number(localSchool)).toBeGreaterThan(2);
    // Import Students is disabled while the local school id is empty (and the field stays empty).
    await page.getByLabel('Local school ID').fill('');
    await expect.poll(() => page.getByRole('button', { name: 'Import Students' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Local school ID').inputValue()).toBe('');
    await page.getByLabel('Local school ID').fill(localSchool);
    expect(await page.getByRole('switch', { name: 'Create missing classrooms' }).isChecked()).toBe(true);

    // Clever throttles the import's first page of teachers: the job waits it out, visibly running.
    clever.throttleNext(1, 3, (path) => path.includes('role=teacher'));
    await page.getByRole('button', { name: 'Import Students' }).click();
    await toast(page, 'Import started').waitFor();
    await panel(page).getByText('Running', { exact: true }).waitFor();
    expect(Number(await progress(page).getAttribute('aria-valuenow'))).toBeLessThan(100);
    // "Students Imported" only once it has: not at 0%.
    expect(await toast(page, 'Students Imported').count()).toBe(0);
    const done = await finished(page);
    await toast(page, 'Students Imported').waitFor({ timeout: 30_000 });
    await done
      .getByText(
        /^Clever brings no vehicles: add the families' cars .* before this school can run a car line\.$/,
      )
      .waitFor();
    const studentsRow = done.getByRole('row', { name: /^Students/ });
    await expect.poll(async () => (await studentsRow.textContent()) ?? '').toBe(`Students${total}000`);
    for (const kind of ['Teachers', 'Classrooms', 'Parents'])
      await done.getByRole('rowheader', { name: kind }).waitFor();
    await expectAccessible(page);
    jobUrl = new URL(page.url()).pathname + new URL(page.url()).search;
    expect(jobUrl).toMatch(/^\/clever-integration\?job=[0-9a-f-]{36}$/);
    expect((await students.listAll(server.db, Number(localSchool))).length).toBe(total);

    // A reload keeps following the job.
    await page.reload();
    await finished(page);

    // The school admin's rosters of the new school list the students.
    await panel(page).getByRole('link', { name: 'Open School Rosters' }).click();
    await page.getByRole('heading', { name: 'School Administration' }).waitFor();
    expect(new URL(page.url()).search).toBe(`?schoolId=${localSchool}`);
    await studentCount(page, total).waitFor({ timeout: 30_000 });
    const [child] = cleverStudents(school?.id);
    await findStudent(page, child?.name.first as string, child?.name.last as string);
  }, 180_000);

  it('shows a stopped import with its reason, resumes it to the end, and the demo school’s roster read before shows the students', async () => {
    // The demo school's roster, read (and kept) before the import in this same page.
    const before = (await students.listAll(server.db, 1)).length;
    const page = await open('/school-admin?schoolId=1');
    await studentCount(page, before).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Curbside home' }).click();
    await page.getByRole('heading', { name: 'District Administration' }).waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Student Information Import' }).click();
    await page.getByRole('radio', { name: clever.data.district.name }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    const school = clever.data.schools[1];
    await page.getByRole('radio', { name: school?.name }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('table', { name: 'Student preview' }).waitFor({ timeout: 30_000 });
    // Into the demo school (id 1); Clever fails every try of the first sections page.
    await page.getByLabel('Local school ID').fill('1');
    clever.failNext(5, 502, (path) => path.includes('/sections'));
    await page.getByRole('button', { name: 'Import Students' }).click();
    await panel(page).getByText('Stopped', { exact: true }).waitFor({ timeout: 90_000 });
    await panel(page)
      .getByText(/Import stopped: Clever answered 502/)
      .waitFor();
    const done = await resumeToTheEnd(page, 'clever-integration-stopped-tablet.png');
    const total = cleverStudents(school?.id).length;
    await studentsRow(done).toBe(`Students${total}000`);

    // Back on the demo school's rosters (same page, same cache): read again, with the students.
    await done.getByRole('link', { name: 'Open School Rosters' }).click();
    await page.getByRole('heading', { name: 'School Administration' }).waitFor();
    await studentCount(page, before + total).waitFor({ timeout: 30_000 });
    const [child] = cleverStudents(school?.id);
    await findStudent(page, child?.name.first as string, child?.name.last as string);
  }, 180_000);

  it('shows an import whose run died as stalled, and Resume finishes it', async () => {
    // The demo school's students again (as the test before), stopped on the sections page by Clever…
    const school = clever.data.schools[1];
    const page = await open('/clever-integration');
    clever.failNext(5, 502, (path) => path.includes('/sections'));
    const started = await page.request.post('/api/clever/import/students', {
      data: { cleverSchoolId: school?.id, localSchoolId: 1 },
    });
    expect(started.status()).toBe(202);
    const { job } = (await started.json()) as { job: { id: string } };
    await expect
      .poll(async () => (await importJobs.get(server.db, job.id))?.job.status, { timeout: 60_000 })
      .toBe('failed');
    // …then made to look as a run that died there would: still running, not moved for 7 minutes.
    const stored = await importJobs.get(server.db, job.id);
    if (!stored) throw new Error(`No job ${job.id}`);
    const updatedAt = new Date(Date.now() - 7 * 60_000).toISOString();
    const dead = { ...stored.job, status: 'running' as const, message: 'Reading sections…', updatedAt };
    expect(await importJobs.save(server.db, { ...stored, job: dead })).toBe(true);

    await page.goto(`/clever-integration?job=${job.id}`);
    await panel(page).getByText('Stalled', { exact: true }).waitFor({ timeout: 30_000 });
    await panel(page)
      .getByText(
        'No progress for 7 minutes: the import stopped where it was. Resume it to continue from there.',
      )
      .waitFor();
    const done = await resumeToTheEnd(page, 'clever-integration-stalled-tablet.png');
    await studentsRow(done).toBe(`Students00${cleverStudents(school?.id).length}0`);
  }, 180_000);

  it('a read that fails shows its toast and the reason, and Try again reads it again', async () => {
    // The district's Clever token refused: the server answers 503 with the reason.
    clever.revokeDistrictToken();
    try {
      const page = await open('/clever-integration', { expectedErrors: [/status of 503/] });
      await toast(page, 'Failed to fetch districts')
        .getByText(/Clever refused the district’s token/)
        .waitFor();
      // On the page too, until it works (the toast goes after 5 s).
      const alert = page.getByRole('alert', { name: 'Failed to fetch districts', exact: true });
      await alert.getByText(/Clever refused the district’s token/).waitFor();
      await expectAccessible(page);
      await page.screenshot({ path: `${shotsDir()}/clever-integration-read-failed-tablet.png` });
      clever.restoreDistrictToken();
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('radio', { name: clever.data.district.name }).waitFor();
      expect(await alert.count()).toBe(0);
    } finally {
      clever.restoreDistrictToken();
    }
  }, 60_000);

  it('on a tablet and a phone, light and dark', async () => {
    for (const theme of [undefined, 'dark'] as const) {
      for (const [name, viewport] of Object.entries(viewports)) {
        const page = await open(jobUrl, { viewport, theme });
        await finished(page);
        await page.getByRole('radio').first().waitFor();
        await expectAccessible(page);
        await page.screenshot({
          path: `${shotsDir()}/clever-integration-${name}-${theme ?? 'light'}.png`,
          fullPage: true,
        });
        // The third step: the preview table, the local school and the switch.
        await page.getByRole('radio', { name: clever.data.district.name }).check();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('radio', { name: clever.data.schools[0]?.name }).check();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('table', { name: 'Student preview' }).waitFor({ timeout: 30_000 });
        await expectAccessible(page);
        await page.screenshot({
          path: `${shotsDir()}/clever-integration-preview-${name}-${theme ?? 'light'}.png`,
          fullPage: true,
        });
        await page.close();
      }
    }
  }, 120_000);

  it('met no page errors', () => {
    expect(errors).toEqual([]);
  });
});
