import type { ImportJob, ImportStarted } from '@curbside/domain';
import { type FakeUser, startFakeClever } from '@curbside/local';
import { parents, students } from '@curbside/store';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { shotsDir, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn } from '../support/server';

/**
 * After a Clever import into the demo school, in Chromium: the school admin's
 * rosters show the imported students, teachers (with their classrooms) and
 * parents; a guardian, given a password by the school admin (the roster's
 * password reset), signs in to the parent portal and sees their child; the
 * front queue queues the guardian's car and shows the child.
 */
const suite = browserSuite({ clever: () => startFakeClever(), timeout: 180_000 });
let district: Client;
let admin: Client;

/** Follows an import job until it is no longer running (in a hook: vi.waitFor, not expect.poll). */
const finished = async (client: Client, started: ImportStarted): Promise<ImportJob> => {
  let job = started.job;
  await vi.waitFor(
    async () => {
      if (job.status === 'running') job = (await client.get<ImportJob>(`/api/import-jobs/${job.id}`)).body;
      if (job.status === 'running') throw new Error(`import job ${job.id} still running: ${job.message}`);
    },
    { timeout: 180_000, interval: 250 },
  );
  return job;
};

/** The Clever student and guardian the test follows: the first student of the first school, with its first contact. */
const followed = () => {
  const school = suite.clever.data.schools[0]?.id as string;
  const child = suite.clever.data.users.find((user) => user.roles.student?.school === school);
  const guardian = suite.clever.data.users.find((user) =>
    user.roles.contact?.student_relationships.some((relation) => relation.student === child?.id),
  );
  const teacherId = suite.clever.data.sections.find((section) =>
    section.students.includes(child?.id as string),
  )?.teacher;
  const teacher = suite.clever.data.users.find((user) => user.id === teacherId);
  return { child, guardian, teacher } as Record<'child' | 'guardian' | 'teacher', FakeUser>;
};

beforeAll(async () => {
  district = await signedIn(suite.server.url, 'district_demo');
  admin = await signedIn(suite.server.url, 'admin_demo');
  // The super admin assigns the Clever district to the demo district; its district admin imports it
  // and the first Clever school's roster into the demo school (the import page itself is tested in
  // clever-integration.test.ts).
  const superAdmin = await signedIn(suite.server.url, 'super_demo');
  const assigned = await superAdmin.put('/api/districts/1/clever', {
    cleverDistrictId: suite.clever.districtId,
  });
  expect(assigned.status).toBe(200);
  const connected = await district.post<ImportStarted>('/api/clever/import/district', {
    cleverDistrictId: suite.clever.districtId,
  });
  expect((await finished(district, connected.body)).status).toBe('succeeded');
  const roster = await district.post<ImportStarted>('/api/clever/import/students', {
    cleverSchoolId: suite.clever.data.schools[0]?.id,
    localSchoolId: 1,
    createMissingClassrooms: true,
  });
  const job = await finished(district, roster.body);
  expect(job.status, job.error ?? '').toBe('succeeded');
}, 240_000);

const open = async (
  path: string,
  username?: string,
  viewport: { width: number; height: number } = viewports.tablet,
): Promise<Page> => {
  const { page } = await suite.open(username ?? null, path, {
    viewport,
    // A signed-out page asks who is signed in (401) before the sign-in.
    ...(username ? {} : { expectedErrors: [/status of 401/] }),
    label: path,
  });
  return page;
};

describe('the demo school after a Clever import', () => {
  it('lists the imported students, teachers with their classrooms, and parents on the school admin screen', async () => {
    const { child, guardian, teacher } = followed();
    const page = await open('/school-admin', 'admin_demo');
    const management = page.getByRole('region', { name: 'School Management', exact: true });
    const childName = `${child.name.first} ${child.name.last}`;
    await management.getByLabel('Search students').fill(child.name.last);
    await management.getByRole('cell', { name: childName, exact: true }).first().waitFor({ timeout: 30_000 });
    const section = suite.clever.data.sections.find((s) => s.students.includes(child.id));
    await management
      .getByText(section?.name as string)
      .first()
      .waitFor();

    await management.getByRole('tab', { name: /Teachers/ }).click();
    await management.getByLabel('Search teachers').fill(teacher.name.last);
    await management
      .getByRole('cell', { name: `${teacher.name.first} ${teacher.name.last}`, exact: true })
      .first()
      .waitFor({ timeout: 30_000 });

    await management.getByRole('tab', { name: /Parents/ }).click();
    await management.getByLabel('Search parents').fill(guardian.email as string);
    const row = management
      .getByRole('cell', { name: `${guardian.name.first} ${guardian.name.last}`, exact: true })
      .first();
    await row.waitFor({ timeout: 30_000 });
    await expect.poll(() => management.getByRole('row').count(), { timeout: 30_000 }).toBe(2); // header + the guardian
    // No password yet: the badge says so in full beside the long email, not "N…".
    await management.getByText('Not yet', { exact: true }).waitFor();
    // Browser-side expressions are strings: this project's test code has no DOM types.
    const whole = await page.evaluate<boolean>(`(() => {
      const labels = [...document.querySelectorAll('.mantine-Badge-label')]
        .filter((label) => label.textContent.trim() === 'Not yet');
      return labels.length > 0 && labels.every((label) => label.scrollWidth <= label.clientWidth);
    })()`);
    expect(whole).toBe(true);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shotsDir()}/clever-roster-parents-tablet.png` });
  }, 90_000);

  it('a guardian given a password by the school signs in to the parent portal, chooses their own and sees their child', async () => {
    const { child, guardian } = followed();
    const local = (await parents.listAll(suite.server.db, 1)).find((p) => p.user.cleverId === guardian.id);
    expect(local).toBeDefined();
    // The school admin's password reset (Parents tab): a one-time password, shown once.
    const reset = await admin.request('PUT', `/api/parents/${local?.user.id}?schoolId=1`, {
      ...pick(local?.user),
      resetPassword: true,
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const { username, password } = reset.body.credentials as { username: string; password: string };

    const page = await open('/parent-login', undefined, viewports.phone);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/parent-dashboard', { timeout: 30_000 });
    // A one-time password: the guardian chooses their own before anything else.
    await page.getByRole('heading', { name: 'Choose Your Password' }).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${shotsDir()}/clever-roster-guardian-password-phone.png` });
    await page.getByLabel('One-time password').fill(password);
    await page.getByLabel('New password', { exact: true }).fill('guardian-own-2026');
    await page.getByLabel('Confirm new password').fill('guardian-own-2026');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await page
      .getByRole('article', { name: `${child.name.first} ${child.name.last}`, exact: true })
      .waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${shotsDir()}/clever-roster-guardian-phone.png` });
  }, 90_000);

  it('the front queue queues the guardian’s car and shows the child', async () => {
    const { child, guardian } = followed();
    const local = (await students.listAll(suite.server.db, 1)).find((s) => s.cleverId === child.id);
    const car = await admin.post('/api/vehicles?schoolId=1', {
      number: '9001',
      type: 'car',
      parentName: `${guardian.name.first} ${guardian.name.last}`,
      studentIds: [local?.id],
    });
    expect(car.status, JSON.stringify(car.body)).toBe(201);
    const front = await signedIn(suite.server.url, 'front_demo');
    expect((await front.post('/api/sessions', sessionBody())).status).toBe(201);

    const page = await open('/front-queue', 'front_demo');
    await page.getByLabel('Vehicle Number').fill('9001');
    await page.getByRole('button', { name: 'Add to Queue' }).click();
    const card = page.getByRole('group', { name: 'Car 9001', exact: true });
    await card.waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await card.textContent()) ?? '', { timeout: 30_000 })
      .toContain(`${child.name.first} ${child.name.last.slice(0, 1)}.`);
  }, 90_000);

  it('met no page errors', () => {
    expect(suite.errors).toEqual([]);
  });
});

/** The parent's editable fields, as the roster's edit form sends them back. */
const pick = (user: Record<string, unknown> | undefined) => ({
  firstName: user?.firstName,
  lastName: user?.lastName,
  email: user?.email,
  phone: user?.phone,
  studentIds: user?.studentIds,
});
