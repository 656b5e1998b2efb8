import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, painted } from '../support/browser-suite';
import { Client, signedIn } from '../support/server';

/**
 * A parent's password on screen (issue 50 item 12): "Forgot password?" on the
 * parent sign-in, the emailed link read on the laptop's mail page (/dev/mail),
 * the link's page choosing a new one; and the password rules every parent
 * form checks (at least 8 characters, not a common one), in English and Spanish.
 */
const suite = browserSuite();

const SENT =
  'If a parent account uses that email address, we sent it a link to choose a new password. The link works for 1 hour.';

/** A signed-out page on a phone, in `locale`. */
const phonePage = async (path: string, locale = 'en-US', expectedErrors: RegExp[] = []) => {
  const context = await suite.newContext({ viewport: viewports.phone, touch: true, locale });
  const page = await context.newPage();
  suite.watch(page, `signed out (${locale})`, true, expectedErrors);
  await page.goto(path);
  return page;
};

describe('"Forgot password?" on the parent sign-in', () => {
  it('emails a link that lets the parent choose a new password and sign in with it; the link works once', async () => {
    const registered = await new Client(suite.server.url).post('/api/auth/parent/register', {
      name: 'Rosa Forgets',
      username: 'rosa_forgets',
      password: 'first-pass-99',
      email: 'rosa.forgets@family.example',
      phone: '555-0170',
    });
    expect(registered.status).toBe(201);

    const page = await phonePage('/parent-login');
    const forgot = page.getByRole('link', { name: 'Forgot password?' });
    await forgot.waitFor({ timeout: 30_000 });
    await painted(page);
    await page.screenshot({ path: join(shotsDir(), 'parent-login-forgot-phone.png') });
    await forgot.click();
    await page.getByRole('heading', { name: 'Forgot Your Password?' }).waitFor({ timeout: 30_000 });
    const email = page.getByLabel('Email address', { exact: true });
    await email.fill('rosa.forgets');
    await page.getByRole('button', { name: 'Email Me a Link' }).click();
    await page.getByText('Valid email is required', { exact: true }).waitFor();
    await email.fill('rosa.forgets@family.example');
    await page.getByRole('button', { name: 'Email Me a Link' }).click();
    await page.getByRole('status').getByText(SENT, { exact: true }).waitFor({ timeout: 30_000 });
    await painted(page);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'parent-forgot-password-phone.png'), fullPage: true });

    // The laptop's mail page shows the message; its link opens the page that sets the new password.
    const mail = await suite.open(null, '/dev/mail', { label: 'mail page' });
    const message = mail.page.getByRole('article').filter({ hasText: 'rosa.forgets@family.example' });
    await message
      .getByRole('heading', { name: /^Choose a new Curbside password/ })
      .waitFor({ timeout: 30_000 });
    const link = (await message
      .getByRole('link', { name: /\/parent\/reset-password\?t=/ })
      .first()
      .getAttribute('href')) as string;
    const reset = new URL(link);
    await page.goto(`${reset.pathname}${reset.search}`);
    await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor({ timeout: 30_000 });
    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password', { exact: true });
    const save = page.getByRole('button', { name: 'Save Password' });
    await password.fill('short');
    await confirm.fill('short');
    await save.click();
    await page.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await password.fill('Password123');
    await confirm.fill('Password123');
    await save.click();
    await page
      .getByText('This password is too common. Choose one that is harder to guess.', { exact: true })
      .waitFor();
    await password.fill('rosas-own-2026');
    await confirm.fill('rosas-own-2027');
    await save.click();
    await page.getByText('The two new passwords do not match', { exact: true }).waitFor();
    await painted(page);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'parent-reset-password-phone.png'), fullPage: true });
    await confirm.fill('rosas-own-2026');
    await save.click();
    await page
      .getByRole('status')
      .getByText('Your password was changed. Sign in with your new password.', { exact: true })
      .waitFor({ timeout: 30_000 });

    await page.getByRole('link', { name: 'Sign In', exact: true }).click();
    await page.getByLabel('Username', { exact: true }).fill('rosa_forgets');
    await page.getByLabel('Password', { exact: true }).fill('rosas-own-2026');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/parent-dashboard', { timeout: 30_000 });

    // The same link again: it does not work any more, and offers a new one.
    const again = await phonePage(`${reset.pathname}${reset.search}`, 'en-US', [/status of 410/]);
    await again.getByLabel('New password', { exact: true }).fill('another-one-88');
    await again.getByLabel('Confirm new password', { exact: true }).fill('another-one-88');
    await again.getByRole('button', { name: 'Save Password' }).click();
    await again
      .getByText('This link does not work any more. Ask for a new one.')
      .waitFor({ timeout: 30_000 });
    await again.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    expect(suite.errors).toEqual([]);
  }, 180_000);

  it('in Spanish: answers the same for an address no account has, and says when a link does not work', async () => {
    const page = await phonePage('/parent/forgot-password', 'es-ES');
    await page.getByRole('heading', { name: '¿Olvidó su contraseña?' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Correo electrónico', { exact: true }).fill('nadie@family.example');
    await page.getByRole('button', { name: 'Enviarme un enlace' }).click();
    await page
      .getByRole('status')
      .getByText(
        'Si una cuenta de padre o madre usa ese correo electrónico, le enviamos un enlace para elegir una nueva contraseña. El enlace funciona durante 1 hora.',
        { exact: true },
      )
      .waitFor({ timeout: 30_000 });
    await painted(page);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'parent-forgot-password-es.png'), fullPage: true });
    expect(suite.server.mail.list().filter((mail) => mail.to.includes('nadie@family.example'))).toEqual([]);

    const broken = await phonePage('/parent/reset-password?t=not-a-token', 'es-ES');
    await broken.getByText('Este enlace ya no funciona. Pida uno nuevo.').waitFor({ timeout: 30_000 });
    await broken.getByRole('link', { name: 'Pedir un enlace nuevo' }).waitFor();
    expect(suite.errors).toEqual([]);
  }, 90_000);
});

describe("a parent's new account", () => {
  it('asks for at least 8 characters and no common password, before anything is sent', async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const invite = (await admin.post('/api/parent-invites', { studentIds: [25] })).body.invites[0];
    const url = new URL(invite.url as string);
    const page = await phonePage(`${url.pathname}${url.search}`);
    await page.getByLabel('First name', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByLabel('First name', { exact: true }).fill('Sam');
    await page.getByLabel('Last name', { exact: true }).fill('Weak');
    await page.getByLabel('Username', { exact: true }).fill('sam_weak');
    await page.getByLabel('Phone number', { exact: true }).fill('555-0171');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('abc1234');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await password.fill('iloveyou');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page
      .getByText('This password is too common. Choose one that is harder to guess.', { exact: true })
      .waitFor();
    await password.fill('sams-own-pass-1');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/parent-dashboard', { timeout: 30_000 });
    expect(suite.errors).toEqual([]);
  }, 90_000);
});
