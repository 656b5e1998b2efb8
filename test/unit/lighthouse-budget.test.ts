import { describe, expect, it } from 'vitest';
import { medianRun, missedBudget, type RunFigures } from '../lighthouse/budget';

/** `npm run lighthouse` (issue 57): a page passes on the median of its runs, every figure on its own. */
const run = (figures: Partial<RunFigures>): RunFigures => ({
  performance: 95,
  accessibility: 100,
  fcpMs: 1500,
  lcpMs: 2000,
  tbtMs: 100,
  speedIndexMs: 1800,
  cls: 0,
  ...figures,
});

describe('the phone budget', () => {
  it('passes a page at performance 90, LCP 2.5 s, TBT 200 ms and accessibility 100', () => {
    expect(missedBudget(run({ performance: 90, lcpMs: 2500, tbtMs: 200 }))).toEqual([]);
  });

  it('names each figure a page misses', () => {
    expect(missedBudget(run({ performance: 89, lcpMs: 2510, tbtMs: 201, accessibility: 98 }))).toEqual([
      'performance 89 is under 90',
      'LCP 2510 ms is over 2500 ms',
      'TBT 201 ms is over 200 ms',
      'accessibility 98 is under 100',
    ]);
  });

  it('fails a page whose figure is missing (a run that measured nothing)', () => {
    expect(missedBudget(run({ lcpMs: Number.NaN }))).toHaveLength(1);
  });

  it('takes the median of each figure over the runs, so one slow run does not fail a page', () => {
    const median = medianRun([
      run({ tbtMs: 900, performance: 60 }),
      run({ tbtMs: 120 }),
      run({ tbtMs: 150 }),
    ]);
    expect(median.tbtMs).toBe(150);
    expect(median.performance).toBe(95);
    expect(missedBudget(median)).toEqual([]);
  });
});
