import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, completeAnyway } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The parent portal at phone size, in English and in Spanish: an invite link
 * from a teacher's pickup code, sign-up, the automatic link, and the child's
 * pickup followed live on the dashboard.
 */
// One sign-in per account for the file (the API clients share theirs with the teacher and
// front screens): no page signs out of a reused session (the portal's own test signs in and
// out through the form), and parent_demo's one page at a time follows its child live.
const suite = browserSuite({ reuseSignIns: true });
const { errors } = suite;
let front: Client;
let back: Client;
let teacher: Client;
let admin: Client;

beforeAll(async () => {
  [front, back, teacher, admin] = await Promise.all([
    suite.client('front_demo'),
    suite.client('back_demo'),
    suite.client('teacher_demo'),
    suite.client('admin_demo'),
  ]);
});

const shoot = (page: Page, name: string) => page.screenshot({ path: join(shotsDir(), `parent-${name}.png`) });

/** A phone in the given language on `path`, signed in as `username` when one is given. */
const phone = async (locale: string, path: string, username?: string) => {
  const { page } = await suite.open(username ?? null, path, {
    viewport: viewports.phone,
    touch: true,
    locale,
    label: locale,
    // The invite page's refused lookups are answers the page shows, not errors of the page.
    expectedErrors: [/status of 40\d/],
  });
  return page;
};

const text = (scope: Page | Locator, value: string) => scope.getByText(value, { exact: true });

interface Child {
  id: number;
  firstName: string;
  lastName: string;
  vehicle: { type: 'car' | 'bus'; number: string } | null;
}

/** Students of teacher_demo's classroom who ride alone in a registered car (nobody else's parent follows the car). */
let riders: Child[];
beforeAll(async () => {
  const roster = (await teacher.get('/api/teacher/students')).body as Child[];
  const perCar = new Map<string, number>();
  for (const student of roster) {
    if (student.vehicle?.type === 'car')
      perCar.set(student.vehicle.number, (perCar.get(student.vehicle.number) ?? 0) + 1);
  }
  riders = roster.filter(
    (student) =>
      student.vehicle?.type === 'car' && perCar.get(student.vehicle.number) === 1 && student.id !== 1,
  );
  expect(riders.length).toBeGreaterThanOrEqual(2);
});

/** The teacher's screen: the pickup code of a student, generated in the dialog (the QR's link). */
const generateCode = async (child: Child) => {
  const { page } = await suite.open('teacher_demo', '/teacher');
  await page
    .getByRole('button', { name: `Pickup Code for ${child.firstName} ${child.lastName}` })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Generate Pickup Code' }).click();
  const shown = dialog.getByLabel('Pickup code', { exact: true });
  await shown.waitFor();
  const code = (await shown.textContent()) as string;
  const link = await dialog.getByText(/\/invite\/[A-Z2-9]{4}$/).textContent();
  await page.close();
  return { code, path: new URL(link as string).pathname };
};

/** The child's card on the dashboard, and its status badge. */
const card = (page: Page, child: Child) =>
  page.getByRole('article', { name: `${child.firstName} ${child.lastName}`, exact: true });

const LANGUAGES = {
  en: {
    locale: 'en-US',
    signUpTab: 'Create Account',
    name: 'Full name',
    username: 'Username',
    password: 'Password',
    email: 'Email',
    phone: 'Phone number',
    create: 'Create Account',
    linked: 'Child linked successfully',
    notInQueue: 'Not in Queue',
    inQueue: 'In Queue',
    ready: 'Ready for Pickup',
    pickedUp: 'Picked Up',
    position: 'Queue position',
    wait: 'Estimated wait',
    oneMinute: '1 min',
    pickedUpAt: /^Picked up at \d{1,2}:\d{2}\s(AM|PM)$/,
  },
  es: {
    locale: 'es-MX',
    signUpTab: 'Crear cuenta',
    name: 'Nombre completo',
    username: 'Usuario',
    password: 'Contraseña',
    email: 'Correo electrónico',
    phone: 'Número de teléfono',
    create: 'Crear cuenta',
    linked: 'Hijo vinculado correctamente',
    notInQueue: 'No está en la fila',
    inQueue: 'En la fila',
    ready: 'Listo para recoger',
    pickedUp: 'Recogido',
    position: 'Lugar en la fila',
    wait: 'Espera estimada',
    oneMinute: '1 min',
    pickedUpAt: /^Recogido a las \d{1,2}:\d{2}/,
  },
} as const;

describe('a parent follows their child from an invite link', () => {
  for (const [language, words] of Object.entries(LANGUAGES)) {
    it(`in ${language === 'en' ? 'English' : 'Spanish'}: signs up, is linked, and sees the pickup live`, async () => {
      const child = riders[language === 'en' ? 0 : 1] as Child;
      const { path } = await generateCode(child);
      const page = await phone(words.locale, path);

      await page.getByRole('tab', { name: words.signUpTab }).waitFor();
      await page
        .getByRole('heading', { level: 1, name: new RegExp(`${child.firstName} ${child.lastName[0]}\\.`) })
        .waitFor();
      await shoot(page, `${language}-invite`);
      await expectAccessible(page);
      // Everything empty: each field says what it needs.
      await page.getByRole('button', { name: words.create, exact: true }).click();
      if (language === 'en') {
        for (const message of [
          'Name is required',
          'Username is required',
          'Password must be at least 8 characters',
          'Valid email is required',
          'Phone number is required',
        ]) {
          await text(page, message).waitFor();
        }
      }
      const username = `family_${language}_${Date.now()}`;
      await page.getByLabel(words.name).fill(`${child.lastName} Family`);
      await page.getByLabel(words.username).fill(username);
      await page.getByLabel(words.password, { exact: true }).fill('secret-pass-1');
      await page.getByLabel(words.email).fill(`${username}@example.com`);
      await page.getByLabel(words.phone).fill('555-0199');
      await page.getByRole('button', { name: words.create, exact: true }).click();

      await page.getByRole('status').getByText(words.linked, { exact: true }).waitFor();
      const linkedAt = Date.now();
      await page.waitForURL('**/parent-dashboard');
      expect(Date.now() - linkedAt).toBeGreaterThanOrEqual(1500);
      const childCard = card(page, child);
      await text(childCard, words.notInQueue).waitFor();

      const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
      const queued = await front.post('/api/queue', {
        sessionId,
        vehicleNumber: child.vehicle?.number,
        vehicleType: 'car',
      });
      expect(queued.status).toBe(201);
      const queuedAt = Date.now();
      await text(childCard, words.inQueue).waitFor({ timeout: 10_000 });
      const shownAfter = Date.now() - queuedAt;
      // Live, without a reload: well inside the 30 s poll (the issue asks for 2 s).
      expect(shownAfter).toBeLessThan(2_000);
      await text(childCard, words.position).waitFor();
      await text(childCard, '#1').waitFor();
      await text(childCard, words.wait).waitFor();
      await text(childCard, words.oneMinute).waitFor();
      await shoot(page, `${language}-in-queue`);
      await expectAccessible(page);

      const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
      expect(batch.currentCount).toBe(1);
      await text(childCard, String(batch.batchNumber)).waitFor();
      expect((await teacher.put(`/api/teacher/students/${child.id}/release`)).status).toBe(200);
      await text(childCard, words.ready).waitFor();
      await shoot(page, `${language}-ready`);

      await back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true });
      await text(childCard, words.pickedUp).waitFor();
      await childCard.getByText(words.pickedUpAt).waitFor();
      await shoot(page, `${language}-picked-up`);
      await admin.put(`/api/sessions/${sessionId}/end`);
      await page.context().close();
    }, 90_000);
  }
});

describe("'Child picked up' on the front queue", () => {
  for (const [language, words] of Object.entries(LANGUAGES)) {
    it(`shows the parent Picked Up and the time (phone, ${language === 'en' ? 'English' : 'Spanish'})`, async () => {
      const page = await phone(words.locale, '/parent-dashboard', 'parent_demo');
      const [child] = (await (await page.request.get('/api/parent/students')).json()) as Child[];
      const roster = (await teacher.get('/api/teacher/students')).body as Child[];
      const car = roster.find((student) => student.id === child?.id)?.vehicle?.number as string;
      const childCard = card(page, child as Child);
      await text(childCard, words.notInQueue).waitFor();

      const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
      expect(
        (await front.post('/api/queue', { sessionId, vehicleNumber: car, vehicleType: 'car' })).status,
      ).toBe(201);
      await text(childCard, words.inQueue).waitFor({ timeout: 10_000 });

      // The front queue's menu on the car: Child picked up (sent at once; the toast offers Undo).
      // The screen asks before sending when it knows the child is not released; if the car's
      // release marks are not read yet, the server's 409 asks the same question (ADR 0011).
      const { page: tablet } = await suite.open('front_demo', '/front-queue', {
        expectedErrors: [{ text: /status of 409/, url: /\/api\/queue\// }],
      });
      await tablet.getByRole('button', { name: `Actions for Car ${car}`, exact: true }).click();
      await tablet.getByRole('menuitem', { name: 'Child picked up', exact: true }).click();
      // No teacher released the child: the screen asks first.
      await completeAnyway(tablet);

      await text(childCard, words.pickedUp).waitFor({ timeout: 20_000 });
      await childCard.getByText(words.pickedUpAt).waitFor();
      await shoot(page, `${language}-child-picked-up`);
      await tablet.close();
      await admin.put(`/api/sessions/${sessionId}/end`);
      await page.context().close();
    }, 90_000);
  }
});

describe('the parent portal', () => {
  it('leads from the landing to sign-in, with the demo account shown and Sign In enabled once both fields are filled', async () => {
    const page = await phone('en-US', '/parent');
    await page.getByRole('heading', { name: 'Parent Portal' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/parent-login');
    await text(page, 'Username parent_demo · Password demo1234').waitFor();
    const submit = page.getByRole('button', { name: 'Sign In', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Username').fill('parent_demo');
    await page.getByLabel('Password', { exact: true }).fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('demo1234');
    await shoot(page, 'login');
    await expectAccessible(page);
    await submit.click();
    await text(page, 'Login successful').waitFor();
    await text(page, 'Welcome to the parent portal').waitFor();
    await page.waitForURL('**/parent-dashboard');
    await card(page, { id: 1, firstName: 'Ava', lastName: 'Martinez', vehicle: null }).waitFor();
    await shoot(page, 'dashboard');
    await expectAccessible(page);

    // A wrong code: the server's answer, and nothing linked.
    const code = page.getByLabel('Pickup Code');
    const link = page.getByRole('button', { name: 'Link Student' });
    expect(await link.isDisabled()).toBe(true);
    await code.fill(' zzzzz ');
    expect(await code.inputValue()).toBe('ZZZZ');
    await link.click();
    await text(page, 'Failed to link student').waitFor();
    // The server's message, with the request's reference beneath it (issue 55).
    await page
      .getByText(/^Invalid or expired code\s*Reference: [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
      .waitFor();

    // The language switch, remembered on the device.
    await page.getByText('Español', { exact: true }).click();
    await page.getByRole('heading', { name: 'Mis hijos' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Mis hijos' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('es');
    await page.getByText('English', { exact: true }).click();
    await page.getByRole('heading', { name: 'My Children' }).waitFor();

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/parent-login');
    expect((await page.request.get('/api/parent/students')).status()).toBe(401);
  }, 60_000);

  it('says what is wrong with an invite link', async () => {
    const page = await phone('en-US', '/invite/ZZZZ');
    await page.getByRole('heading', { name: 'Invalid or Expired Invite' }).waitFor();
    await page.goto('/invite/x');
    await page.getByRole('heading', { name: 'Invalid Invite' }).waitFor();
    await text(page, 'This invite link is missing a valid code.').waitFor();
    await expectAccessible(page);
  }, 30_000);

  it('adds a trusted adult for today, the choice moved among the radios with the arrow keys (h57p: native radios)', async () => {
    const page = await phone('en-US', '/parent-dashboard', 'parent_demo');
    const card = page.getByRole('region', { name: /^Who else may pick up / }).first();
    const when = card.getByRole('radiogroup', { name: 'When' });
    const everyDay = when.getByRole('radio', { name: 'Every day' });
    await everyDay.waitFor({ timeout: 60_000 });
    expect(await everyDay.isChecked()).toBe(true);
    // A radio group: one stop for Tab, the arrows move the choice.
    await everyDay.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => when.getByRole('radio', { name: 'Today only' }).isChecked()).toBe(true);
    expect(await everyDay.isChecked()).toBe(false);
    expect(await card.getByRole('textbox', { name: 'Date' }).count()).toBe(0);
    await card.getByRole('textbox', { name: 'Name' }).fill('Rosa Diaz');
    await card.getByRole('textbox', { name: 'Relationship' }).fill('Neighbor');
    await card.getByRole('textbox', { name: 'Phone number' }).fill('5125550142');
    await card.getByRole('button', { name: 'Add person' }).click();
    const added = card.getByRole('listitem').filter({ hasText: 'Rosa Diaz' });
    await added.getByText(/Neighbor · .+ · Today only$/).waitFor();
    // The form is reset to "Every day".
    await expect.poll(() => everyDay.isChecked()).toBe(true);
    await card.getByRole('button', { name: 'Remove Rosa Diaz' }).click();
    await expect.poll(() => added.count()).toBe(0);
  }, 60_000);

  it('logs no errors', () => {
    expect(errors).toEqual([]);
  });
});
