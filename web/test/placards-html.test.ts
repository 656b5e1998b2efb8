import { describe, expect, it } from 'vitest';
import { numberSize, placardsHtml } from '../src/features/print-placards/placards-html';

/** Width of a placard's number, in points, at the heavy weight the sheet prints it in. */
const widthOf = (label: string) => numberSize(label) * 0.65 * label.length;

describe('placard numbers', () => {
  it('print three digits large and longer numbers smaller, always within the card (108 pt inside)', () => {
    expect(numberSize('104')).toBe(54);
    expect(numberSize('B12')).toBe(54);
    expect(numberSize('12345')).toBeLessThan(54);
    for (const label of ['1', '104', 'B12', '1234', 'B1234', '123456789012']) {
      expect(widthOf(label)).toBeLessThanOrEqual(108);
    }
  });

  it('lay the cards out in columns that never grow past the page', () => {
    const html = placardsHtml([{ type: 'car', number: '104', label: '104' } as never], 'Lincoln Elementary');
    expect(html).toContain('repeat(4, minmax(0, 1fr))');
    expect(html).toContain('font-size: 54pt');
  });
});

describe('placard QR codes', () => {
  it('put the vehicle’s code on its placard and its lanyard, named for the vehicle', () => {
    const html = placardsHtml(
      [
        { type: 'car', number: '104', label: '104' },
        { type: 'bus', number: '7', label: 'B7' },
      ],
      'Lincoln Elementary',
      3,
    );
    expect(html.match(/aria-label="QR code of Car 104"/g)).toHaveLength(2);
    expect(html.match(/aria-label="QR code of Bus B7"/g)).toHaveLength(2);
    expect(html).not.toMatch(/Lincoln Elementary<\/svg|CURBSIDE/);
  });
});
