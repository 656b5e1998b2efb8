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

/**
 * The control's box and its label's: the label starts right of the control, on the same line.
 * Both boxes are read together, again until they hold: the page above them still moves while
 * its reads answer, and two boxes read one after the other can be of two layouts.
 */
const besideItsLabel = async (control: Locator, label: Locator) => {
  const boxes = async () => {
    const [box, text] = await Promise.all([control.boundingBox(), label.boundingBox()]);
    if (!box || !text) throw new Error('not drawn');
    return { box, text };
  };
  const beside = ({ box, text }: Awaited<ReturnType<typeof boxes>>) => ({
    startsRightOfTheControl: text.x >= box.x + box.width,
    startsAboveItsBottom: text.y < box.y + box.height,
    endsBelowItsTop: text.y + text.height > box.y,
  });
  await expect
    .poll(async () => beside(await boxes()), { timeout: 30_000 })
    .toEqual({ startsRightOfTheControl: true, startsAboveItsBottom: true, endsBelowItsTop: true });
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
