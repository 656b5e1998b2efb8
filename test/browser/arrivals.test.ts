import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, connected, signIn } from '../support/browser-suite';
import { startFreshSession } from '../support/car-line';
import { createSchoolWithStaff } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * Families announce their arrival (issue 53), in Chromium: a parent on a phone
 * with a faked position outside the school's geofence is told how far away
 * they are, inside it is announced; the front screen's Arriving list shows the
 * family's car and one tap queues it; the child's teacher sees "Parent here".
 */
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
const { errors } = suite;
let admin: Client;
let parentApi: Client;
let sessionId: number;

/** The school's point; a metre of latitude is 1 / 111,195 of a degree (the haversine's sphere). */
const SCHOOL = { lat: 40, lon: -90 };
const north = (metres: number) => ({ latitude: SCHOOL.lat + metres / 111_195, longitude: SCHOOL.lon });

beforeAll(async () => {
  [admin, parentApi] = await Promise.all([suite.client('admin_demo'), suite.client('parent_demo')]);
  const settings = (await admin.get('/api/schools/1/settings')).body;
  const put = await admin.put('/api/schools/1/settings', {
    ...settings,
    arrival: { mode: 'confirm', geofence: { ...SCHOOL, radiusM: 200 } },
  });
  expect(put.status).toBe(200);
  sessionId = await startFreshSession(admin);
});

afterEach(() => {
  expect(errors.splice(0)).toEqual([]);
});

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(shotsDir(), `arrivals-${name}.png`), fullPage: true });

describe('announcing an arrival', () => {
  it('outside the fence the parent is told the distance; inside, the front screen queues the car with one tap and the teacher sees "Parent here"', {
    timeout: 240_000,
  }, async () => {
    const [child] = (await parentApi.get('/api/parent/students')).body as Array<{
      id: number;
      firstName: string;
      lastName: string;
    }>;
    if (!child) throw new Error('parent_demo follows no child');
    const { page: phone, context } = await suite.open('parent_demo', '/parent-dashboard', {
      viewport: viewports.phone,
      touch: true,
      permissions: ['geolocation'],
      // The refused announcement (outside the fence) is an answer the card shows.
      expectedErrors: [/status of 409/],
    });
    await context.setGeolocation({ ...north(2300), accuracy: 10 });
    const card = phone.getByRole('region', { name: 'Arriving at pickup' });
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: "I'm here" }).click();
    await card
      .getByRole('alert')
      .getByText('You are 2.3 km from the school; announce when you arrive')
      .waitFor({ timeout: 20_000 });
    await expectAccessible(phone);
    await shoot(phone, 'parent-outside');

    await context.setGeolocation({ ...north(150), accuracy: 20 });
    await card.getByRole('button', { name: "I'm here" }).click();
    await card.getByText('Announced — the school knows you are here').waitFor({ timeout: 20_000 });
    await expect.poll(() => card.getByRole('alert').count()).toBe(0);
    await expectAccessible(phone);
    await shoot(phone, 'parent-announced');

    // The front screen opened after the announcement reads it; the car is the family's.
    const mine = (await parentApi.get('/api/parent/arrivals')).body.schools[0].arrival;
    expect(mine.vehicleNumber).toEqual(expect.any(String));
    const { page: front } = await suite.open('front_demo', '/front-queue', { viewport: viewports.tablet });
    const arriving = front.getByRole('region', { name: /^Arriving/ });
    const row = arriving.getByRole('listitem', { name: new RegExp(`^Car ${mine.vehicleNumber}: `) });
    await row.getByText('Here', { exact: true }).waitFor({ timeout: 30_000 });
    await row.getByText(`${child.firstName} ${child.lastName}`, { exact: false }).waitFor();
    await expectAccessible(front);
    await shoot(front, 'front-arriving');

    // The child's teacher (if the child is in teacher_demo's classroom) sees "Parent here".
    const teacherApi = await suite.client('teacher_demo');
    const roster = (await teacherApi.get('/api/teacher/students')).body as Array<{ id: number }>;
    if (roster.some((student) => student.id === child.id)) {
      const { page: teacher } = await suite.open('teacher_demo', '/teacher');
      await teacher
        .locator(`[data-student-id="${child.id}"]`)
        .getByText('Parent here', { exact: true })
        .first()
        .waitFor({ timeout: 30_000 });
      await expectAccessible(teacher);
      await shoot(teacher, 'teacher-parent-here');
    }

    // One tap queues the car, through the same add as typing its number.
    await connected(front);
    await row.getByRole('button', { name: `Queue Car ${mine.vehicleNumber}` }).click();
    await row.getByText('In the queue').waitFor({ timeout: 20_000 });
    await expect
      .poll(async () =>
        ((await admin.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{ vehicleNumber: string }>).map(
          (entry) => entry.vehicleNumber,
        ),
      )
      .toEqual([mine.vehicleNumber]);
    // The parent's card follows: the car is in the line (read on the live queue message or the poll).
    await phone.getByText('In Queue', { exact: true }).first().waitFor({ timeout: 45_000 });
  });
});

describe('the arrival setting', () => {
  it('the school admin picks the mode, the school point on the map (no tiles needed) and the radius', {
    timeout: 180_000,
  }, async () => {
    const before = (await admin.get('/api/schools/1/settings')).body;
    await admin.put('/api/schools/1/settings', { ...before, arrival: { mode: 'off', geofence: null } });
    const { page } = await suite.open('admin_demo', '/school-settings', { viewport: viewports.tablet });
    await page.getByRole('heading', { name: "Families' arrival" }).waitFor({ timeout: 30_000 });
    await page.getByRole('radio', { name: "“I'm here” queues the family's car at once" }).check();
    await page.getByRole('checkbox', { name: /^Only from near the school/ }).check();
    const latitude = page.getByRole('textbox', { name: 'Latitude' });
    const shown = await latitude.inputValue();
    const map = page.getByRole('application', { name: /^Map of the school's arrival area/ });
    await map.locator('canvas').waitFor({ timeout: 30_000 });
    // A tap off the centre moves the school's point there.
    await map.scrollIntoViewIfNeeded();
    await expect
      .poll(
        async () => {
          const box = await map.boundingBox();
          if (!box) return 'not on screen';
          await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.3);
          return latitude.inputValue();
        },
        { timeout: 20_000 },
      )
      .not.toBe(shown);
    await page.getByRole('textbox', { name: 'Radius' }).fill('500');
    await expectAccessible(page);
    await shoot(page, 'settings');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('School settings saved.').waitFor({ timeout: 20_000 });
    const saved = (await admin.get('/api/schools/1/settings')).body.arrival;
    expect(saved).toEqual({
      mode: 'auto',
      geofence: { lat: Number(await latitude.inputValue()), lon: expect.any(Number), radiusM: 500 },
    });
    expect(saved.geofence.lat).toBeGreaterThan(Number(shown));
  });
});

describe('Scan at the curb', () => {
  /**
   * A Motion JPEG "camera" showing `codes` in turn (each for `frames` frames): each code is the
   * print screen's own QR (its SVG, as printed) drawn big on white, as a placard held up to a tablet.
   */
  const cameraFile = async (codes: string[], frames = 12) => {
    const { page } = await suite.open(null, '/', { viewport: { width: 640, height: 480 } });
    const jpegs: Buffer[] = [];
    for (const svg of codes) {
      await page.setContent(
        `<body style="margin:0;background:#fff;display:flex;align-items:center;justify-content:center;width:640px;height:480px">${svg.replace('<svg ', '<svg width="360" height="360" ')}</body>`,
      );
      const jpeg = await page.screenshot({ type: 'jpeg', quality: 90 });
      for (let i = 0; i < frames; i++) jpegs.push(jpeg);
    }
    const file = join(tmpdir(), `curbside-scan-${process.pid}-${Date.now()}.mjpeg`);
    writeFileSync(file, Buffer.concat(jpegs));
    return file;
  };

  /** The QR code (SVG) of a vehicle on a school's print screen. */
  const printedQr = async (username: string, vehicle: string) => {
    const { page } = await suite.open(username, '/print-placards');
    const sheet = page.frameLocator('iframe[title="Placards preview"]');
    const qr = sheet.getByRole('img', { name: `QR code of ${vehicle}` }).first();
    await qr.waitFor({ timeout: 30_000 });
    return qr.evaluate((element) => (element as unknown as { outerHTML: string }).outerHTML);
  };

  it("queues a car from its placard's QR code shown to the camera, once, and refuses another school's placard", {
    timeout: 240_000,
  }, async () => {
    const front = await suite.client('front_demo');
    const car = (
      (await front.get('/api/vehicles?limit=100')).body.items as Array<{
        number: string;
        type: string;
        active: boolean;
      }>
    ).find((vehicle) => vehicle.type === 'car' && vehicle.active && vehicle.number !== '101');
    if (!car) throw new Error('The demo school has no car');
    const ours = await printedQr('admin_demo', `Car ${car.number}`);
    const other = await createSchoolWithStaff(suite.server.db, 'scan_other');
    const otherAdmin = await suite.client('scan_other_school_admin');
    expect((await otherAdmin.post('/api/vehicles', { number: '777', type: 'car' })).status).toBe(201);
    const theirs = await printedQr('scan_other_school_admin', 'Car 777');
    expect(ours).not.toEqual(theirs);
    const file = await cameraFile([ours, theirs]);

    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${file}`,
      ],
    });
    try {
      const context = await browser.newContext({ baseURL: suite.server.url, viewport: viewports.tablet });
      await context.grantPermissions(['camera'], { origin: new URL(suite.server.url).origin });
      await signIn(context, 'front_demo');
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto('/front-queue');
      await page.getByRole('button', { name: 'Scan', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Scan placards' });
      const scanned = dialog.getByRole('status', { name: 'Scanned' });
      await scanned.getByText(`Queued Car ${car.number}`).waitFor({ timeout: 60_000 });
      await scanned
        .getByText("This placard is another school's. It was not queued.")
        .waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(shotsDir(), 'arrivals-scan.png') });
      // Seen over and over for seconds, the placard was queued once; the other school's never.
      await expect
        .poll(async () =>
          ((await front.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{ vehicleNumber: string }>)
            .map((entry) => entry.vehicleNumber)
            .filter((number) => number === car.number || number === '777'),
        )
        .toEqual([car.number]);
      expect(await scanned.getByText(`Queued Car ${car.number}`).count()).toBe(1);
      expect(problems).toEqual([]);
      expect(other.id).not.toBe(1);
    } finally {
      await browser.close();
    }
  });
});
