import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { holdRequests, shotsDir, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { createStaff, sessionBody } from '../support/fixtures';

// One sign-in per account for the file, but the page that logs out signs in on its own; each
// test's pages close when it ends, so no page waits for a live event beside another of its account.
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });

/**
 * A browser signed in as `username` (through the API), on `path`, with its page's errors: all
 * but the 401 of `GET /api/me` that a signed-out visitor gets (after a sign-out too).
 */
const openAs = (
  username: string | null,
  path: string,
  viewport: { width: number; height: number } = viewports.tablet,
  ownSignIn = false,
) =>
  suite.open(username, path, {
    viewport,
    ownSignIn,
    // Signed out (the logout below): who is signed in is refused, and on the front queue the
    // running session too, which the early script asks with it (h57w).
    expectedErrors: [{ text: /status of 401/, url: /\/api\/(me|sessions\/active)$/ }],
  });

const accountMenu = (page: Page) => page.getByRole('button', { name: /^Account menu for / });
const menuItem = (page: Page, name: string) => page.getByRole('menuitem', { name, exact: true });
const pill = (page: Page) => page.getByTestId('session-pill');
const SCHEME = "document.documentElement.getAttribute('data-mantine-color-scheme')";

describe('the role guard', () => {
  it("tells a teacher opening the school admin screen that they don't have permission", async () => {
    const { page, errors } = await openAs('teacher_demo', '/school-admin');

    await page.getByText("You don't have permission to access this page.", { exact: true }).waitFor();
    await accountMenu(page).waitFor();
    expect(await page.getByRole('heading', { name: 'School Administration' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the login screen to a signed-out visitor of /teacher', async () => {
    const { page, errors } = await openAs(null, '/teacher');

    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/teacher');
    expect(await accountMenu(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('lets a school admin switch the view to a lower role, and offers no Switch View to a district admin', async () => {
    const { page, errors } = await openAs('admin_demo', '/school-admin');
    await accountMenu(page).click();
    await page.getByText('Switch View', { exact: true }).waitFor();
    for (const role of ['Front Queue', 'Back Queue', 'Teacher', 'School Admin']) {
      await menuItem(page, role).waitFor();
    }
    expect(await menuItem(page, 'District Admin').count()).toBe(0);
    await menuItem(page, 'Teacher').click();
    await page.waitForURL((url) => url.pathname === '/teacher');
    await accountMenu(page).waitFor();
    expect(await page.getByText("You don't have permission to access this page.").count()).toBe(0);

    const district = await openAs('district_demo', '/district-admin');
    await accountMenu(district.page).click();
    await menuItem(district.page, 'Profile').waitFor();
    expect(await district.page.getByText('Switch View', { exact: true }).count()).toBe(0);
    // Neither the session pill nor Start Session above a single school.
    expect(await district.page.getByRole('button', { name: 'Start Session', exact: true }).count()).toBe(0);
    expect([...errors, ...district.errors]).toEqual([]);
  });

  it('does not send a district admin on /front-queue to a header button they do not have', async () => {
    const { page, errors } = await openAs('district_demo', '/front-queue');
    await page.getByRole('heading', { name: 'No Active Session', exact: true }).waitFor();
    await page.getByText(/Sessions are started by a school's own staff/).waitFor();
    expect(await page.getByText(/using the button in the header/).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Session/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the SANDBOX badge to staff of a sandboxed school', async () => {
    await createStaff(suite.server.db, {
      username: 'sandbox_front',
      role: 'front_queue_wrangler',
      schoolId: 2,
      districtId: 1,
    });
    const { page, errors } = await openAs('sandbox_front', '/front-queue');
    await page.getByText('SANDBOX', { exact: true }).waitFor();

    const live = await openAs('front_demo', '/front-queue');
    await accountMenu(live.page).waitFor();
    expect(await live.page.getByText('SANDBOX', { exact: true }).count()).toBe(0);
    expect([...errors, ...live.errors]).toEqual([]);
  });
});

describe('the header', () => {
  for (const [screen, viewport] of Object.entries(viewports)) {
    it(`starts a session from the header, counts it down and ends it (${screen})`, async () => {
      const { page, errors } = await openAs('admin_demo', '/school-admin', viewport);

      await page.getByRole('button', { name: 'Start Session', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Start New Session' });
      await dialog.waitFor();
      const name = dialog.getByLabel('Session name');
      await expect(name.inputValue()).resolves.toBe('Afternoon Pickup');

      // Validation: an empty name and an end before the start.
      await name.fill('');
      const start = await dialog.getByLabel('Start time').inputValue();
      await dialog.getByLabel('End time').fill(start.replace(/T\d\d/, 'T00'));
      await dialog.getByRole('button', { name: 'Start Session', exact: true }).click();
      await dialog.getByText('Session name is required', { exact: true }).waitFor();
      await dialog.getByText('End time must be after start time', { exact: true }).waitFor();

      // Choosing the type resets the name and the times.
      await dialog.getByText('Morning Dropoff', { exact: true }).click();
      await expect(name.inputValue()).resolves.toBe('Morning Dropoff');
      await dialog.getByText('Afternoon Pickup', { exact: true }).click();
      await expect(name.inputValue()).resolves.toBe('Afternoon Pickup');
      const sessionName = `Dismissal ${screen}`;
      await name.fill(sessionName);
      await dialog.getByRole('button', { name: 'Start Session', exact: true }).click();

      await page.getByText('The new session has been started successfully', { exact: true }).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await expect(pill(page).textContent()).resolves.toContain(sessionName);
      const first = (await pill(page).textContent()) ?? '';
      expect(first).toMatch(/1:59:\d\d|2:00:00/);
      // The countdown ticks: its text changes within the next second.
      await expect.poll(() => pill(page).textContent(), { timeout: 5_000 }).not.toBe(first);
      expect(await page.getByRole('button', { name: 'Start Session', exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'New Session', exact: true }).waitFor();

      await pill(page).click();
      await menuItem(page, 'End Session').click();
      const confirm = page.getByRole('dialog', { name: 'End the session?' });
      await confirm.getByText('No vehicles are in the queue.', { exact: true }).waitFor();
      await confirm.getByRole('button', { name: 'End Session', exact: true }).click();
      await page.getByText('The session has been ended successfully', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Start Session', exact: true }).waitFor();
      expect(await pill(page).count()).toBe(0);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(errors).toEqual([]);
    });
  }

  it('asks before ending a session with cars queued, naming how many, and lets only back queue staff and above end it', async () => {
    const admin = await suite.client('admin_demo');
    const sessionId = (await admin.post('/api/sessions', sessionBody())).body.id;
    for (const vehicleNumber of ['301', '302', '303']) {
      expect((await admin.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' })).status).toBe(
        201,
      );
    }

    // Front queue staff see the session but cannot end it.
    const front = await openAs('front_demo', '/front-queue');
    await pill(front.page).click();
    await front.page.getByText('Back Queue staff and above can end the session.', { exact: true }).waitFor();
    expect(await menuItem(front.page, 'End Session').count()).toBe(0);

    // New Session while one runs says so.
    const { page, errors } = await openAs('back_demo', '/back-queue');
    await page.getByRole('button', { name: 'New Session', exact: true }).click();
    const create = page.getByRole('dialog', { name: 'Start New Session' });
    await create.getByText('A session is already running', { exact: true }).waitFor();
    await expect(
      create.getByRole('button', { name: 'Start Session', exact: true }).isDisabled(),
    ).resolves.toBe(true);
    await create.getByRole('button', { name: 'Cancel', exact: true }).click();
    await create.waitFor({ state: 'hidden' });

    // One tap does not end the dismissal: the dialog counts the queued cars; Keep Session keeps it.
    await pill(page).click();
    await menuItem(page, 'End Session').click();
    const confirm = page.getByRole('dialog', { name: 'End the session?' });
    await confirm.getByText('3 vehicles are still in the queue.', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Keep Session', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await admin.get('/api/sessions/active')).body?.id).toBe(sessionId);

    await pill(page).click();
    await menuItem(page, 'End Session').click();
    await confirm.getByText('3 vehicles are still in the queue.', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'End Session', exact: true }).click();
    await page.getByText('The session has been ended successfully', { exact: true }).waitFor();
    expect((await admin.get('/api/sessions/active')).body).toBeNull();
    expect([...errors, ...front.errors]).toEqual([]);
  });

  it('shows a disabled button as a button in the Dark theme, not as grey text on its card', async () => {
    const { page } = await suite.open(null, '/parent-login', { theme: 'dark' });
    const submit = page.locator('button[type=submit]');
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true); // both fields empty
    expect(await page.evaluate<string | null>(SCHEME)).toBe('dark');
    // The button's fill against the first filled box behind it (the card).
    const [button, behind] = await page.evaluate<[string, string]>(`(() => {
      const fill = (el) => getComputedStyle(el).backgroundColor;
      const button = document.querySelector('button[type=submit]');
      let up = button.parentElement;
      while (up && (fill(up) === 'rgba(0, 0, 0, 0)' || fill(up) === 'transparent')) up = up.parentElement;
      return [fill(button), up ? fill(up) : 'none'];
    })()`);
    expect(button).not.toBe(behind);
    await page.screenshot({ path: `${shotsDir()}/disabled-button-dark-tablet.png` });
  });

  it('keeps the Dark theme across a reload under one storage key', async () => {
    const { page, errors } = await openAs('admin_demo', '/school-admin');
    // Browser-side expressions are strings: this project's test code has no DOM types.
    const scheme = () => page.evaluate<string | null>(SCHEME);
    await accountMenu(page).waitFor();
    expect(await scheme()).toBe('light');

    await accountMenu(page).click();
    await menuItem(page, 'Dark').click();
    await page.waitForFunction(`${SCHEME} === 'dark'`);
    const storage = await page.evaluate<Record<string, string>>('({ ...window.localStorage })');
    expect(storage).toEqual({ 'curbside-theme': 'dark' });

    await page.reload();
    await accountMenu(page).waitFor();
    expect(await scheme()).toBe('dark');
    await expect(page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).resolves.not.toBe(
      'rgb(255, 255, 255)',
    );

    // The settings page holds the same choice.
    await page.goto('/settings');
    await expect(page.getByRole('radio', { name: /^Dark/ }).isChecked()).resolves.toBe(true);
    await page.getByRole('radio', { name: /^Bright/ }).check();
    await page.waitForFunction(`${SCHEME} === 'light'`);
    expect(await page.evaluate<string | null>("window.localStorage.getItem('curbside-theme')")).toBe(
      'bright',
    );
    expect(errors).toEqual([]);
  });

  it('shows the profile of the signed-in user', async () => {
    const { page, errors } = await openAs('teacher_demo', '/teacher');
    await accountMenu(page).click();
    await menuItem(page, 'Profile').click();
    await page.waitForURL((url) => url.pathname === '/profile');
    for (const text of ['Taylor Teacher', 'teacher_demo', 'teacher_demo@curbside.example', 'Teacher']) {
      await page.getByRole('cell', { name: text, exact: true }).waitFor();
    }
    expect(errors).toEqual([]);
  });

  it('opens the user menu by keyboard after the paint: focus into it, Escape gives it back to the button', async () => {
    const { page, errors } = await openAs('front_demo', '/front-queue');
    const button = accountMenu(page);
    await button.waitFor();
    // With a session running, the keypad takes the focus once drawn: after that, not before.
    await page
      .getByRole('heading', { name: 'Add Vehicle to Queue' })
      .or(page.getByText('No Active Session'))
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    const focusedRole = () => page.locator(':focus').getAttribute('role');
    for (const key of ['Enter', 'Space', 'ArrowDown']) {
      await button.focus();
      await page.keyboard.press(key);
      await menuItem(page, 'Profile').waitFor();
      await expect.poll(focusedRole, { timeout: 10_000 }).toMatch(/^menuitem/);
      await page.keyboard.press('Escape');
      await menuItem(page, 'Profile').waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.locator(':focus').textContent(), { timeout: 10_000 })
        .toContain('Account menu for ');
    }
    expect(errors).toEqual([]);
  });

  it('opens the user menu tapped before its code has come (h57y: it loads after the paint)', async () => {
    const { page, errors } = await openAs('front_demo', '/front-queue');
    const release = await holdRequests(page, '**/assets/header-menus-*.js');
    await page.reload();
    await accountMenu(page).click();
    expect(await menuItem(page, 'Profile').count()).toBe(0);
    release();
    await menuItem(page, 'Profile').waitFor();
    await expect
      .poll(() => page.locator(':focus').getAttribute('role'), {
        timeout: 10_000,
      })
      .toMatch(/^menuitem/);
    expect(errors).toEqual([]);
  });

  it('keeps the session pill pale green once its menu has come after the paint (h57y)', async () => {
    const admin = await suite.client('admin_demo');
    const created = await admin.post('/api/sessions', sessionBody());
    const { page, errors } = await openAs('admin_demo', '/front-queue');
    await pill(page).waitFor();
    await page.waitForLoadState('networkidle');
    // Mantine's green-1, the pill's background (header.module.css), with the menu's button in place.
    await expect
      .poll(
        () =>
          page.evaluate<string>(
            "getComputedStyle(document.querySelector('[data-testid=session-pill]')).backgroundColor",
          ),
        { timeout: 10_000 },
      )
      .toBe('rgb(211, 249, 216)');
    await pill(page).click();
    await page.getByText(/^Ends in /).waitFor();
    await page.keyboard.press('Escape');
    if (created.status === 201) {
      await pill(page).click();
      await menuItem(page, 'End Session').click();
      await page.getByRole('button', { name: 'End Session', exact: true }).click();
      await page.getByText('The session has been ended successfully', { exact: true }).waitFor();
    }
    expect(errors).toEqual([]);
  });

  it('logs out to the login screen', async () => {
    // Its own sign-in: the logout ends the session it signed in with.
    const { page, errors } = await openAs('front_demo', '/front-queue', viewports.tablet, true);

    await accountMenu(page).click();
    await menuItem(page, 'Logout').click();

    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Logged out successfully', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    await page.goto('/front-queue');
    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});
