import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  admin,
  alertsSuite,
  banner,
  bannerRow,
  driverAlert,
  EMERGENCY_TONES,
  open,
  SOUND_BAR,
  soundBar,
  sounded,
  tap,
  turnOnSound,
  waitForTextUntapped,
} from '../support/alerts';
import { expectAccessible, expectAccessibleUntapped, shotsDir, viewports } from '../support/browser';
import { painted } from '../support/browser-suite';

/**
 * Alerts that reach someone (issue 27), in Chromium on a tablet and a phone:
 * every staff screen shows the school's active alerts on a banner at the top
 * and sounds them, session or not; a page that may not make sound yet (after
 * a reload) asks for a tap and sounds the next alert after it; an emergency
 * nobody is on sounds again every 30 s (Playwright's clock) until someone
 * says "I'm on it"; the screen that raised an emergency keeps its toast.
 * "Sounds" is measured in the page: every tone started while its audio
 * context runs (a suspended context makes no sound).
 */
alertsSuite();

describe.each([
  ['tablet', viewports.tablet],
  ['phone', viewports.phone],
] as const)('on a %s', (device, viewport) => {
  it('the school admin dashboard shows and sounds a driver’s emergency raised with no session running', {
    timeout: 120_000,
  }, async () => {
    expect((await admin.get('/api/sessions/active')).body ?? null).toBeNull();
    const page = await open('admin_demo', '/school-admin', viewport);
    await turnOnSound(page);

    const alert = await driverAlert('emergency', 'B3', 'Bus 3');
    const row = bannerRow(page, 'Bus 3 driver');
    await row.waitFor();
    await row.getByText('Nobody on it yet', { exact: true }).waitFor();
    expect(await row.textContent()).toMatch(/^EMERGENCY Bus 3 · by Bus 3 driver · just now · /);
    await expect.poll(() => sounded(page), { timeout: 10_000 }).toEqual(EMERGENCY_TONES);

    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), `alert-banner-school-admin-${device}.png`) });

    // "I'm on it": the banner says who, on this screen and (by the live event) every other.
    const front = await open('front_demo', '/front-queue', viewport);
    await bannerRow(front, 'Bus 3 driver').waitFor();
    await tap(page, row.getByRole('button', { name: `I'm on it: ${alert.message}` }));
    await row.getByText('Alex Admin is on it', { exact: true }).waitFor();
    await banner(front).getByText('Alex Admin is on it', { exact: true }).waitFor();
    await page.screenshot({ path: join(shotsDir(), `alert-banner-acknowledged-${device}.png`) });
  });

  it('an emergency nobody is on sounds again after 30 s, and stops after “I’m on it”', {
    timeout: 120_000,
  }, async () => {
    const page = await open('teacher_demo', '/teacher', viewport, { clock: true });
    await turnOnSound(page);
    const alert = await driverAlert('emergency', 'B4', 'Bus 4');
    await bannerRow(page, 'Bus 4 driver').waitFor();
    await expect.poll(() => sounded(page), { timeout: 10_000 }).toEqual(EMERGENCY_TONES);

    await page.clock.fastForward(29_000);
    expect(await sounded(page)).toEqual(EMERGENCY_TONES);
    await page.clock.fastForward(2_000);
    await expect
      .poll(() => sounded(page), { timeout: 10_000 })
      .toEqual([...EMERGENCY_TONES, ...EMERGENCY_TONES]);

    await tap(page, banner(page).getByRole('button', { name: `I'm on it: ${alert.message}` }));
    await banner(page).getByText('Taylor Teacher is on it', { exact: true }).waitFor();
    await page.clock.fastForward(31_000);
    await page.clock.fastForward(31_000);
    // The ticks that would have sounded it had their chance: nothing more.
    await banner(page).getByText('Taylor Teacher is on it', { exact: true }).waitFor();
    expect(await sounded(page)).toEqual([...EMERGENCY_TONES, ...EMERGENCY_TONES]);
  });
});

describe('a reloaded front-queue tablet', () => {
  it('shows the “Tap to turn on alert sounds” bar, stays silent until a tap, then sounds', {
    timeout: 120_000,
  }, async () => {
    const page = await open('front_demo', '/front-queue', viewports.tablet);
    await turnOnSound(page);
    await page.reload();
    await waitForTextUntapped(page, SOUND_BAR);
    await expectAccessibleUntapped(page);

    // An alert while sound is blocked: on the banner at once, the bar stays.
    await driverAlert('help', 'B2', 'Bus 2');
    await waitForTextUntapped(page, 'HELP Bus 2 · by Bus 2 driver');
    await waitForTextUntapped(page, SOUND_BAR);

    // A tap on the bar's explanation, beside its button, is the bar's too.
    const why = await page
      .getByText('Until then this screen cannot sound alerts.', { exact: true })
      .boundingBox();
    if (!why) throw new Error('no explanation on the sound bar');
    await page.mouse.click(why.x + why.width / 2, why.y + why.height / 2);
    await soundBar(page).waitFor({ state: 'detached' });
    // The alert that came while it was blocked sounds now, once; the next one as it comes.
    await expect.poll(() => sounded(page), { timeout: 10_000 }).toEqual([440]);
    await driverAlert('emergency', 'B2', 'Bus 2');
    await bannerRow(page, 'Bus 2 driver')
      .filter({ hasText: /^EMERGENCY Bus 2 · / })
      .waitFor();
    await expect.poll(() => sounded(page), { timeout: 10_000 }).toEqual([440, ...EMERGENCY_TONES]);
  });
});

/**
 * Records the page's audio contexts and every click (what it landed on), before the app's
 * own scripts.
 */
const RECORD_CLICKS = `(() => {
  window.audioContexts = [];
  const Native = window.AudioContext;
  window.AudioContext = class extends Native {
    constructor(...args) {
      super(...args);
      window.audioContexts.push(this);
    }
  };
  window.clicks = [];
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('button, a') ?? event.target : null;
    window.clicks.push(target ? (target.getAttribute('aria-label') ?? target.textContent.trim()) : String(event.target));
  }, { capture: true });
})();`;

describe('a phone’s “Tap to turn on alert sounds” bar', () => {
  it('takes the whole tap, however long the finger stays on it: nothing under the bar is pressed', {
    timeout: 120_000,
  }, async () => {
    // The school admin dashboard on a phone has the Bus Tracking card's buttons under the bar.
    const page = await open('admin_demo', '/school-admin', viewports.phone);
    await page.context().addInitScript({ content: RECORD_CLICKS });
    await page.reload();
    await waitForTextUntapped(page, SOUND_BAR);
    await page.getByRole('button', { name: 'Rotate links' }).waitFor();
    const box = await soundBar(page).boundingBox();
    if (!box) throw new Error('no sound bar');
    const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };

    // A finger down on the bar: sound comes on at once (the browser allows it from this touch) …
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await expect
      .poll(() => page.evaluate<boolean>(`window.audioContexts.some((audio) => audio.state === 'running')`), {
        timeout: 10_000,
      })
      .toBe(true);
    // … the screen has drawn what follows from that, and the finger comes up only now, as a
    // person's tap does (a tenth of a second or more).
    await page.evaluate<void>(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))',
    );
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();

    await soundBar(page).waitFor({ state: 'detached' });
    expect(await page.evaluate<string[]>('window.clicks')).toEqual([SOUND_BAR]);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

/**
 * Scrolls to the end of the page and answers where the footer's Live Bus Map is, or what is
 * over it; read without a user gesture.
 */
const FOOTER_LINK_AT_END = `(() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const link = [...document.querySelectorAll('footer a')].find((a) => a.textContent === 'Live Bus Map');
  if (!link) return 'no footer link';
  const box = link.getBoundingClientRect();
  const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
  const hit = document.elementFromPoint(point.x, point.y);
  return link.contains(hit) ? point : (hit?.textContent ?? 'nothing').trim();
})()`;

describe.each([
  ['tablet', viewports.tablet, 'front_demo', '/front-queue'],
  ['phone', viewports.phone, 'admin_demo', '/school-admin'],
] as const)('a %s page waiting for a tap to sound alerts', (device, viewport, username, path) => {
  it('ends above the “Tap to turn on alert sounds” bar, and a tap on its footer’s link opens it', {
    timeout: 120_000,
  }, async () => {
    const page = await open(username, path, viewport);
    await page.context().addInitScript({ content: RECORD_CLICKS });
    await page.reload();
    await waitForTextUntapped(page, SOUND_BAR);
    const cdp = await page.context().newCDPSession(page);
    try {
      // Where the link is once the page has drawn all it shows: the same place in three reads
      // in a row (a list still loading above it moves it).
      const reads: string[] = [];
      await expect
        .poll(
          async () => {
            const found = await cdp.send('Runtime.evaluate', {
              expression: FOOTER_LINK_AT_END,
              returnByValue: true,
            });
            reads.push(JSON.stringify(found.result.value));
            return reads.length >= 3 && reads.slice(-3).every((read) => read === reads.at(-1));
          },
          { timeout: 30_000, interval: 300 },
        )
        .toBe(true);
      const point = JSON.parse(reads.at(-1) ?? '""') as { x: number; y: number } | string;
      if (typeof point === 'string') throw new Error(`the footer's link is under: ${point}`);

      // The finger (or the mouse button) goes down on the link. A mouse button down turns sound
      // on at once: the bar goes away while the button is still down, and must not move the
      // link from under it before the click (a touch turns sound on only as the finger lifts).
      if (device === 'phone') {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      } else {
        await page.mouse.move(point.x, point.y);
        await page.mouse.down();
        await expect
          .poll(
            () => page.evaluate<boolean>(`window.audioContexts.some((audio) => audio.state === 'running')`),
            { timeout: 10_000 },
          )
          .toBe(true);
      }
      await painted(page);
      if (device === 'phone')
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      else await page.mouse.up();
    } finally {
      await cdp.detach();
    }
    await page.getByRole('heading', { name: 'Live Bus Map', level: 1 }).waitFor();
    expect(await page.evaluate<string[]>('window.clicks')).toEqual(['Live Bus Map']);
  });
});
