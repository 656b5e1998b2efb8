import { describe, expect, it } from 'vitest';
import { pagesOf } from '../src/features/display/pages';

describe("the hallway display's pages", () => {
  it('keeps everything on one page when it fits', () => {
    const rows = [0, 0, 1].map((group) => ({ group, height: 100 }));
    expect(pagesOf(rows, [60, 60], 20, 1000)).toEqual([[0, 1, 2]]);
  });

  it('moves on to the next page when a row would not fit, paying the heading again where a group continues', () => {
    // Group 0: heading 60 + 5 rows of 100; a page of 400 holds the heading and 3 rows.
    const rows = [0, 0, 0, 0, 0, 1].map((group) => ({ group, height: 100 }));
    expect(pagesOf(rows, [60, 60], 20, 400)).toEqual([[0, 1, 2], [3, 4], [5]]);
  });

  it('gives a row taller than a page a page of its own', () => {
    const rows = [
      { group: 0, height: 100 },
      { group: 0, height: 900 },
      { group: 0, height: 100 },
    ];
    expect(pagesOf(rows, [50], 20, 400)).toEqual([[0], [1], [2]]);
  });
});
