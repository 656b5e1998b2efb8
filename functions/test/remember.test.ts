import { describe, expect, it } from 'vitest';
import { remember } from '../src/lib/remember';

describe('what an instance remembers', () => {
  it('keeps at most the limit: a new key past it empties the map first, a known key is replaced in place', () => {
    const known = new Map<number, string>();
    expect(remember(known, 1, 'a', 2)).toBe('a');
    remember(known, 2, 'b', 2);
    remember(known, 2, 'b2', 2);
    expect([...known]).toEqual([
      [1, 'a'],
      [2, 'b2'],
    ]);
    remember(known, 3, 'c', 2);
    expect([...known]).toEqual([[3, 'c']]);
  });
});
