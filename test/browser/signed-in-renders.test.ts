import type { WebSocketRoute } from 'playwright-core';
import { expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';

/**
 * Issue 57: the signed-in pages' main thread on a phone. The parent dashboard paints what the
 * parent came for in one go, once its first answers are in (its header, the children and their
 * forms: the largest text, a change form's, with the first paint), and a screen that ticks (the
 * queue's waits) draws again only what changed.
 */
const suite = browserSuite({ reuseSignIns: true });

/** The parent dashboard as a parent opens it on a phone, with the page's init scripts. */
const openDashboardOnPhone = (...initScripts: string[]) =>
  suite.open('parent_demo', '/parent-dashboard', { viewport: viewports.phone, touch: true, initScripts });

/**
 * Records, at the first change of the page that shows the dashboard's title, whether a child's
 * card was already there, and at the first that shows a child's card, whether a change form was
 * (drawn in one go, both came in the same change) and whether the link form was
 * (`window.__curbsideLinkWithChild`).
 */
const FIRST_CHILD = `(() => {
  window.__curbsideTitleWithChild = null;
  window.__curbsideFormWithChild = null;
  window.__curbsideLinkWithChild = null;
  new MutationObserver((_, observer) => {
    if (window.__curbsideTitleWithChild === null && document.querySelector('h1')) {
      window.__curbsideTitleWithChild = document.querySelector('article') !== null;
    }
    if (!document.querySelector('article')) return;
    const headings = [...document.querySelectorAll('h2')].map((heading) => heading.textContent);
    window.__curbsideFormWithChild = headings.some((heading) => /^Change how .+ goes home$/.test(heading));
    window.__curbsideLinkWithChild = headings.includes('Link a Student');
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
})()`;

it('the parent dashboard draws its header, the children and their forms in one go; the link form, below them, after its paint (h57p)', async () => {
  const { page } = await openDashboardOnPhone(FIRST_CHILD);
  await page.getByRole('article').first().waitFor();
  await page.getByRole('heading', { name: 'Link a Student' }).waitFor();
  expect(await page.evaluate('window.__curbsideTitleWithChild')).toBe(true);
  expect(await page.evaluate('window.__curbsideFormWithChild')).toBe(true);
  // The link form lies below a phone's first screen (under the trusted adults): not in the page's
  // first commit, which the largest paint waits for; it came after, whole.
  expect(await page.evaluate('window.__curbsideLinkWithChild')).toBe(false);
  await page.getByRole('textbox', { name: 'Pickup Code' }).waitFor();
  // Everything the page had is there: the children's changes and the trusted adults.
  await page
    .getByRole('heading', { name: /^Change how .+ goes home$/ })
    .first()
    .waitFor();
  await page.getByRole('textbox', { name: 'Note for the school (optional)' }).first().waitFor();
});

/**
 * Records, at the first change of the page that shows a child's card, whether a trusted adults'
 * card (its heading "Who else may pick up …") came with it.
 */
const PICKUPS_WITH_CHILD = `(() => {
  window.__curbsidePickupsWithChild = null;
  new MutationObserver((_, observer) => {
    if (!document.querySelector('article')) return;
    window.__curbsidePickupsWithChild = [...document.querySelectorAll('h2')].some((heading) =>
      /^Who else may pick up /.test(heading.textContent ?? ''),
    );
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
})()`;

it('the parent dashboard draws the trusted adults after its first paint, below what the parent came for (h57f)', async () => {
  const { page } = await openDashboardOnPhone(PICKUPS_WITH_CHILD);
  await page.getByRole('article').first().waitFor();
  await page
    .getByRole('heading', { name: /^Who else may pick up / })
    .first()
    .waitFor();
  expect(await page.evaluate('window.__curbsidePickupsWithChild')).toBe(false);
  // The cards are whole: the add form under each.
  await page.getByRole('button', { name: 'Add person' }).first().waitFor();
});

/**
 * Keeps the page's largest-paint entries' times and its layout shifts (those not right after an
 * input), from the start of each load.
 */
const PAINTS_AND_SHIFTS = `(() => {
  window.__curbsidePaints = [];
  window.__curbsideShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__curbsidePaints.push(entry.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__curbsideShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
})()`;

it('the parent dashboard paints without waiting for the changes: read once its paint is reported, they take their place without a shift (h57k)', async () => {
  const { page } = await openDashboardOnPhone(PAINTS_AND_SHIFTS);
  const form = page.getByRole('heading', { name: /^Change how .+ goes home$/ }).first();
  await form.waitFor();
  // The family's changes held on the way: the page is drawn all the same.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/dismissal-changes\?/, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  await page.reload();
  await form.waitFor({ timeout: 30_000 });
  await page.getByRole('article').first().waitFor();
  const changes = page.getByRole('region', { name: /^Changes: / }).first();
  await expect.poll(() => changes.getByLabel('Loading').count(), { timeout: 30_000 }).toBe(1);
  const before = await changes.boundingBox();
  release();
  await changes.getByText(/^No changes: .+ goes home the usual way\.$/).waitFor({ timeout: 30_000 });
  // The read left once the browser had reported the page's largest paint, and its answer moved
  // nothing: the list's line holds the place the loader had.
  const [started, paints] = (await page.evaluate(`[
    performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/dismissal-changes?'))?.startTime,
    window.__curbsidePaints,
  ]`)) as [number, number[]];
  // (The first: the page is painted in one go; later ones are what came after it.)
  expect(paints.length).toBeGreaterThan(0);
  expect(started).toBeGreaterThan(paints[0] as number);
  expect(await changes.boundingBox(), JSON.stringify(before)).toEqual(before);
  expect(await page.evaluate('window.__curbsideShift')).toBe(0);
});

/** The React props object of an element: React replaces it each time it draws the element again. */
const propsOf = (selector: string) => `(() => {
  const element = document.querySelector(${JSON.stringify(selector)});
  const key = element && Object.keys(element).find((name) => name.startsWith('__reactProps$'));
  return key ? element[key] : null;
})()`;

it('the front queue draws a card again when it changes, not each second: only its wait ticks', async () => {
  const front = await suite.client('front_demo');
  const session = (await front.post('/api/sessions', sessionBody())).body as { id: number };
  await front.post('/api/queue', { sessionId: session.id, vehicleNumber: '101', vehicleType: 'car' });
  const { page } = await suite.open('front_demo', '/front-queue', { viewport: viewports.tablet });
  const card = page.getByRole('group', { name: 'Car 101' });
  await card.waitFor();
  // Past the first reads and the live connection's reading again once open.
  await connected(page);
  await page.waitForLoadState('networkidle');
  await page.evaluate(`window.__curbsideCard = ${propsOf('[data-entry-id]')}`);
  const waited = async () => ((await card.textContent()) ?? '').match(/In queue\s*([\d:]+)/)?.[1] ?? '';
  const first = await waited();
  // The wait goes on ticking (twice, so a redraw of the card a second would have come)...
  await expect.poll(waited, { timeout: 10_000 }).not.toBe(first);
  const second = await waited();
  await expect.poll(waited, { timeout: 10_000 }).not.toBe(second);
  // ...and the card itself was not drawn again.
  expect(await page.evaluate(`window.__curbsideCard === ${propsOf('[data-entry-id]')}`)).toBe(true);
});

/**
 * Keeps, in `window.__curbside<key>`, the React props object of the button named `name` as it is
 * first drawn (`window.__curbside<key>Now()`: its props object now).
 */
const firstButtonProps = (name: string, key: string) => `(() => {
  window.__curbside${key}Now = () => {
    const button = [...document.querySelectorAll('button')].find((item) => item.textContent === '${name}');
    const key = button && Object.keys(button).find((name) => name.startsWith('__reactProps$'));
    return key ? button[key] : null;
  };
  new MutationObserver((_, observer) => {
    const props = window.__curbside${key}Now();
    if (!props) return;
    window.__curbside${key} = props;
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
})()`;

/** The driver page's Start Tracking button as first drawn (`window.__curbsideStart`). */
const FIRST_START_BUTTON = firstButtonProps('Start Tracking', 'Start');

it('the driver page does not draw its bus card again when its connection drops and comes back', async () => {
  const admin = await suite.client('admin_demo');
  const driver = new URL(((await admin.get('/api/bus-links')).body as { driverUrl: string }).driverUrl);
  const context = await suite.newContext({
    viewport: viewports.phone,
    touch: true,
    initScripts: [FIRST_START_BUTTON],
  });
  // The page's live connection, passed through to the server, to be dropped by the test.
  const sockets: WebSocketRoute[] = [];
  await context.routeWebSocket(/\/ws/, (socket) => {
    socket.connectToServer();
    sockets.push(socket);
  });
  const page = await context.newPage();
  suite.watch(page, 'bus driver', true);
  await page.goto(`${driver.pathname}${driver.search}`);
  await page.getByRole('button', { name: 'Start Tracking' }).waitFor();
  await page.getByText('Connected', { exact: true }).waitFor();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate('Boolean(window.__curbsideStart)')).toBe(true);
  // The connection drops (the badge says so) and comes back; the page asks its link again.
  await sockets.at(-1)?.close();
  await page.getByText(/^Disconnected \(retry/).waitFor();
  await page.getByText('Connected', { exact: true }).waitFor();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate('window.__curbsideStart === window.__curbsideStartNow()')).toBe(true);
  // The card still does what it did: a bus is chosen from it.
  const choice = page.getByRole('textbox', { name: 'Select Bus' });
  await choice.click();
  await page.getByRole('option').first().click();
  await expect.poll(() => choice.inputValue()).not.toBe('');
});

it("the parent dashboard draws only the changes' list again when the changes come, not the change form above it (h57m)", async () => {
  const { page } = await openDashboardOnPhone();
  const form = page.getByRole('heading', { name: /^Change how .+ goes home$/ }).first();
  await form.waitFor();
  // The family's changes held on the way, and seen leaving (after the page's paint).
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = false;
  await page.route(/\/api\/dismissal-changes\?/, async (route) => {
    asked = true;
    await held;
    await route.continue().catch(() => {});
  });
  await page.reload();
  await form.waitFor({ timeout: 30_000 });
  await expect.poll(() => asked, { timeout: 30_000 }).toBe(true);
  // What comes after the paint is drawn (the trusted adults' cards), the changes still on the way.
  await page.getByRole('button', { name: 'Add person' }).first().waitFor({ timeout: 30_000 });
  const changes = page.getByRole('region', { name: /^Changes: / }).first();
  expect(await changes.getByLabel('Loading').count()).toBe(1);
  await page.evaluate(
    `window.__curbsideNote = ${propsOf('textarea')}; window.__curbsideSend = ${propsOf('form button[type="submit"]')}`,
  );
  expect(await page.evaluate('Boolean(window.__curbsideNote && window.__curbsideSend)')).toBe(true);
  release();
  await changes.getByText(/^No changes: .+ goes home the usual way\.$/).waitFor({ timeout: 30_000 });
  // The form's note and its button were not drawn again by the changes' answer.
  expect(await page.evaluate(`window.__curbsideNote === ${propsOf('textarea')}`)).toBe(true);
  expect(await page.evaluate(`window.__curbsideSend === ${propsOf('form button[type="submit"]')}`)).toBe(
    true,
  );
});

it("the parent dashboard draws only the trusted adults' list again when they come, not the add form below it (h57m)", async () => {
  const { page } = await openDashboardOnPhone();
  await page.getByRole('article').first().waitFor();
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/parent\/authorized-pickups/, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  await page.reload();
  // The cards are drawn with their add form, their list still on the way.
  const card = page.getByRole('region', { name: /^Who else may pick up / }).first();
  await card.getByRole('button', { name: 'Add person' }).waitFor({ timeout: 30_000 });
  expect(await card.getByLabel('Loading').count()).toBe(1);
  const addButton = propsOf('section[aria-labelledby^="pickups-"] form button[type="submit"]');
  await page.evaluate(`window.__curbsideAdd = ${addButton}`);
  expect(await page.evaluate('Boolean(window.__curbsideAdd)')).toBe(true);
  release();
  await expect.poll(() => card.getByLabel('Loading').count(), { timeout: 30_000 }).toBe(0);
  // The add form was not drawn again by the list's answer.
  expect(await page.evaluate(`window.__curbsideAdd === ${addButton}`)).toBe(true);
});

/**
 * Keeps the times the language switch was measured (an element's box read inside it), the times
 * an `Intl.DateTimeFormat` was made, and the page's largest-paint entries' times.
 */
const MEASURED_BEFORE_PAINT = `(() => {
  window.__curbsideSwitchMeasured = [];
  window.__curbsideFormatsMade = [];
  window.__curbsidePaints = [];
  const box = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    if (this.closest('[role="radiogroup"]')) window.__curbsideSwitchMeasured.push(performance.now());
    return box.call(this);
  };
  Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
    construct(target, args, made) {
      window.__curbsideFormatsMade.push(performance.now());
      return Reflect.construct(target, args, made);
    },
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__curbsidePaints.push(entry.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})()`;

it("the parent dashboard's first paint measures nothing of the language switch, and in English it makes no date formatter; the switch slides once painted (h57d)", async () => {
  const { page } = await openDashboardOnPhone(MEASURED_BEFORE_PAINT);
  await page
    .getByRole('heading', { name: /^Change how .+ goes home$/ })
    .first()
    .waitFor();
  // Once painted, the switch is Mantine's SegmentedControl, its indicator placed on the choice.
  const language = page.getByRole('radiogroup', { name: 'Language' });
  await language.locator('.mantine-FloatingIndicator-root').waitFor({ timeout: 30_000 });
  const [measured, formats, paints] = (await page.evaluate(
    '[window.__curbsideSwitchMeasured, window.__curbsideFormatsMade, window.__curbsidePaints]',
  )) as [number[], number[], number[]];
  expect(paints.length).toBeGreaterThan(0);
  const painted = paints[0] as number;
  // Measured, but after the page's first paint, not in the commit that drew it.
  expect(measured.length).toBeGreaterThan(0);
  expect(measured.filter((time) => time < painted)).toEqual([]);
  // The change form's days are written in English without a formatter made for them.
  expect(formats.filter((time) => time < painted)).toEqual([]);
  // Nor do the trusted adults' cards make one for their school's day (the ways home name it).
  await page.getByRole('button', { name: 'Add person' }).first().waitFor({ timeout: 30_000 });
  expect(await page.evaluate('window.__curbsideFormatsMade')).toEqual([]);
  await expect
    .poll(() => page.getByRole('combobox', { name: 'Day' }).first().locator('option').nth(1).textContent())
    .toMatch(/^(Mon|Tue|Wed|Thu|Fri), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}$/);
  // The switch still switches, its choice remembered (parent.test.ts has the rest).
  await language.getByText('Español', { exact: true }).click();
  await page.getByRole('heading', { name: 'Mis hijos' }).waitFor();
  await page.getByRole('radiogroup', { name: 'Idioma' }).getByText('English', { exact: true }).click();
  await page.getByRole('heading', { name: 'My Children' }).waitFor();
});

/** The dashboard's Sign Out button as first drawn (`window.__curbsideSignOut`). */
const FIRST_SIGN_OUT = firstButtonProps('Sign Out', 'SignOut');

it('the parent dashboard is not drawn again when its paint is reported: only the arrivals, the changes and the trusted adults are (h57d)', async () => {
  const { page } = await openDashboardOnPhone(FIRST_SIGN_OUT);
  await page.getByRole('article').first().waitFor();
  // What comes once the paint is reported has come: the changes and the trusted adults.
  await page
    .getByRole('region', { name: /^Changes: / })
    .first()
    .getByText(/^No changes: .+ goes home the usual way\.$/)
    .waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Add person' }).first().waitFor({ timeout: 30_000 });
  expect(await page.evaluate('Boolean(window.__curbsideSignOut)')).toBe(true);
  // The page around them (its header here) kept what it was first drawn with.
  expect(await page.evaluate('window.__curbsideSignOut === window.__curbsideSignOutNow()')).toBe(true);
});

/** The front queue's Add to Queue button as first drawn (`window.__curbsideAdd`). */
const FIRST_ADD_BUTTON = firstButtonProps('Add to Queue', 'Add');

it("the front queue draws its keypad once: its paint, the live connection's opening and the lists' reveal do not draw it again (h57g)", async () => {
  const front = await suite.client('front_demo');
  await front.post('/api/sessions', sessionBody());
  const running = (await front.get('/api/sessions/active')).body as { id: number };
  await front.post('/api/queue', { sessionId: running.id, vehicleNumber: '131', vehicleType: 'car' });
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.phone,
    initScripts: [FIRST_ADD_BUTTON],
  });
  // The keypad, then the lists beside it once it was painted and the connection opened.
  await page.getByRole('group', { name: 'Car 131' }).waitFor();
  await connected(page);
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate('Boolean(window.__curbsideAdd)')).toBe(true);
  expect(await page.evaluate('window.__curbsideAdd === window.__curbsideAddNow()')).toBe(true);
  // The keypad still answers: a key typed shows in the number.
  await page.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: '7', exact: true }).click();
  await expect.poll(() => page.getByRole('textbox', { name: 'Vehicle Number' }).inputValue()).toBe('7');
});

it("the front queue does not draw a car's card again when a bus joins the line (h57r)", async () => {
  const front = await suite.client('front_demo');
  await front.post('/api/sessions', sessionBody());
  const running = (await front.get('/api/sessions/active')).body as { id: number };
  await front.post('/api/queue', { sessionId: running.id, vehicleNumber: '141', vehicleType: 'car' });
  const { page } = await suite.open('front_demo', '/front-queue', { viewport: viewports.tablet });
  const card = page.getByRole('group', { name: 'Car 141', exact: true });
  await card.waitFor();
  await connected(page);
  await page.waitForLoadState('networkidle');
  const entryId = await card.getAttribute('data-entry-id');
  const cardProps = propsOf(`[data-entry-id="${entryId}"]`);
  await page.evaluate(`window.__curbsideCar = ${cardProps}`);
  // A bus queued from another screen reaches this one live: the cars' line is as it was.
  const bus = await front.post('/api/queue', {
    sessionId: running.id,
    vehicleNumber: '6',
    vehicleType: 'bus',
  });
  expect(bus.status).toBe(201);
  await page.getByRole('group', { name: 'Bus B6', exact: true }).waitFor();
  expect(await page.evaluate(`window.__curbsideCar === ${cardProps}`)).toBe(true);
  // The car's own change still draws it again.
  const moved = await front.put(`/api/queue/${encodeURIComponent(entryId ?? '')}/status`, {
    status: 'overflow',
  });
  expect(moved.status).toBe(200);
  await card.getByText('Overflow', { exact: true }).waitFor();
  expect(await page.evaluate(`window.__curbsideCar === ${cardProps}`)).toBe(false);
}, 60_000);

it('logged no errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
