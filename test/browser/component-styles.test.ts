import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

/**
 * Mantine's styles arrive per component with the chunk that draws it (ADR 0026). A Radio,
 * Checkbox or Switch is built on Mantine's InlineInput, whose styles put the label beside the
 * control: without them the label falls under its circle or box, on every screen.
 */
const suite = browserSuite();

/** The control's box and its label's: the label starts right of the control, on the same line. */
const besideItsLabel = async (control: Locator, label: Locator) => {
  await expect
    .poll(async () => (await label.boundingBox())?.width ?? 0, { timeout: 30_000 })
    .toBeGreaterThan(0);
  const box = await control.boundingBox();
  const text = await label.boundingBox();
  if (!box || !text) throw new Error('not drawn');
  expect(text.x).toBeGreaterThanOrEqual(box.x + box.width);
  expect(text.y).toBeLessThan(box.y + box.height);
  expect(text.y + text.height).toBeGreaterThan(box.y);
};

describe("Mantine's inline inputs", () => {
  it("a parent's radio choices show their label beside the circle, on a phone", async () => {
    const { page } = await suite.open('parent_demo', '/parent-dashboard', {
      viewport: viewports.phone,
      touch: true,
    });
    const radio = page.getByRole('radio', { name: 'Every day' });
    await radio.waitFor({ timeout: 60_000 });
    await besideItsLabel(radio, page.locator('label', { hasText: 'Every day' }));
    expect(suite.errors).toEqual([]);
  });
});
