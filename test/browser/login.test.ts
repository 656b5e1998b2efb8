import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

const suite = browserSuite();

/**
 * A fresh, signed-out browser on `path`, with the errors its page logs: all but the 401 of
 * `GET /api/me` that a signed-out visitor gets, and the 401 of a refused sign-in.
 */
const openSignedOut = (path: string, viewport: { width: number; height: number } = viewports.tablet) =>
  suite.open(null, path, {
    viewport,
    expectedErrors: [{ text: /status of 401/, url: /\/api\/login$/ }],
  });

const signInThroughForm = async (page: Page, username: string, password = 'demo1234') => {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).click();
};

const HOMES = [
  {
    username: 'front_demo',
    name: 'Frankie Front',
    role: 'Front Queue',
    path: '/front-queue',
    shows: 'No Active Session',
  },
  {
    username: 'back_demo',
    name: 'Bailey Back',
    role: 'Back Queue',
    path: '/back-queue',
  },
  { username: 'teacher_demo', name: 'Taylor Teacher', role: 'Teacher', path: '/teacher' },
  {
    username: 'admin_demo',
    name: 'Alex Admin',
    role: 'School Admin',
    path: '/school-admin',
  },
  {
    username: 'district_demo',
    name: 'Dana District',
    role: 'District Admin',
    path: '/district-admin',
  },
  {
    username: 'super_demo',
    name: 'Sam Super',
    role: 'Super Admin',
    path: '/super-admin',
  },
] as const;

describe('the login screen', () => {
  it('opens on the sandbox form with the four demo accounts, and the back link leads to the login options', async () => {
    const { page, errors } = await openSignedOut('/login');

    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    for (const username of ['front_demo', 'teacher_demo', 'admin_demo', 'district_demo']) {
      await expect(page.getByText(username, { exact: true }).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByText('demo1234', { exact: true }).isVisible()).resolves.toBe(true);

    // A demo account fills the form.
    await page.getByRole('button', { name: /teacher_demo/ }).click();
    await expect(page.getByLabel('Username', { exact: true }).inputValue()).resolves.toBe('teacher_demo');
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('demo1234');

    await page.getByRole('button', { name: '← Back to login options' }).click();
    await page.getByRole('heading', { name: 'Production Login' }).waitFor();
    await page.getByText('Gives full system permissions.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Use Demo Login' }).click();
    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('production sign-in, not set up here, comes back to the login options saying so', async () => {
    const { page, errors } = await openSignedOut('/login');
    await page.getByRole('button', { name: '← Back to login options' }).click();
    await page.getByRole('button', { name: 'Continue with Single Sign-On' }).click();
    await page.waitForURL(/\/login\?sso=unavailable$/);
    await page.getByRole('heading', { name: 'Choose how to sign in' }).waitFor();
    await page
      .getByRole('alert')
      .getByText(
        'Single sign-on is not set up for this deployment yet. Use the sandbox demo sign-in instead.',
      )
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('says why a single sign-on did not sign in', async () => {
    const { page, errors } = await openSignedOut('/login?sso=unknown');
    await page
      .getByRole('alert')
      .getByText(
        'Your Clever account is not linked to a Curbside staff account. Ask your district administrator to add you.',
      )
      .waitFor();
    await page.getByRole('button', { name: 'Use Demo Login' }).click();
    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the login screen at / for a signed-out visitor', async () => {
    const { page, errors } = await openSignedOut('/');
    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(errors).toEqual([]);
  });

  for (const [index, home] of HOMES.entries()) {
    // Alternate screens: every other account signs in on a phone.
    const [screen, viewport] = index % 2 === 0 ? ['tablet', viewports.tablet] : ['phone', viewports.phone];
    it(`signs ${home.username} in and lands on ${home.path} (${screen})`, async () => {
      const { page, errors } = await openSignedOut('/login', viewport);

      await signInThroughForm(page, home.username);

      await page.waitForURL((url) => url.pathname === home.path);
      if ('shows' in home) await page.getByText(home.shows, { exact: true }).waitFor();
      const account = page.getByRole('button', { name: `Account menu for ${home.name}` });
      await account.waitFor();
      await expect(account.textContent()).resolves.toContain(home.role);
      await page.getByText(`Welcome back, ${home.name}!`, { exact: true }).waitFor();
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        viewport.width,
      );

      // Signed in, /login and / lead back to the role's home.
      await page.goto('/login');
      await page.waitForURL((url) => url.pathname === home.path);
      expect(errors).toEqual([]);
    });
  }

  it('shows the server message on the form and in a toast when the password is wrong', async () => {
    const { page, errors } = await openSignedOut('/login');

    await signInThroughForm(page, 'admin_demo', 'wrong-password');

    await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).first().waitFor();
    await page.getByText('Login failed', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect(
      page.getByRole('button', { name: 'Sign In to Demo', exact: true }).isEnabled(),
    ).resolves.toBe(true);
    expect(errors).toEqual([]);
  });

  it('asks for both fields when the form is sent empty', async () => {
    const { page, errors } = await openSignedOut('/login');
    let loginCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/login') loginCalls += 1;
    });

    await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).click();

    await page.getByText('Username is required', { exact: true }).waitFor();
    await page.getByText('Password is required', { exact: true }).waitFor();
    expect(loginCalls).toBe(0);
    expect(errors).toEqual([]);
  });
});
