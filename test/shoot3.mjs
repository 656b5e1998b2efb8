import { chromium } from 'playwright-core';
const base = 'http://localhost:3199';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
const login = async (ctx, user) => (await ctx.request.post(`${base}/api/login`, { data: { username: user, password: 'demo1234' } })).status();
const tablet = { viewport: { width: 1024, height: 768 } };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const shot = async (page, name) => page.screenshot({ path: `/tmp/shots3/${name}.png`, fullPage: true });
{
  const ctx = await browser.newContext(tablet);
  console.log('district', await login(ctx, 'district_demo'));
  const page = await ctx.newPage();
  await page.goto(base + '/district-admin');
  await page.getByText('Schools', { exact: false }).first().waitFor({ timeout: 60000 });
  await page.waitForLoadState('networkidle');
  await shot(page, 'district-admin');
  const edit = page.getByRole('button', { name: /Edit District/i });
  if (await edit.count()) {
    await edit.first().click();
    const name = page.getByLabel('District name');
    await name.fill('');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.waitForTimeout(500);
    await shot(page, 'edit-district-error');
  }
}
{
  const ctx = await browser.newContext(tablet);
  console.log('front', await login(ctx, 'front_demo'));
  const page = await ctx.newPage();
  await page.goto(base + '/front-queue');
  await page.waitForLoadState('networkidle');
  await shot(page, 'front');
}
{
  const ctx = await browser.newContext(phone);
  const page = await ctx.newPage();
  await page.goto(base + '/parent-login');
  await page.waitForLoadState('networkidle');
  await shot(page, 'parent-login');
  const r = await ctx.request.post(`${base}/api/auth/parent/login`, { data: { username: 'parent_demo', password: 'demo1234' } });
  console.log('parent', r.status());
  await page.goto(base + '/parent-dashboard');
  await page.waitForLoadState('networkidle');
  await shot(page, 'parent-dashboard');
}
await browser.close();
