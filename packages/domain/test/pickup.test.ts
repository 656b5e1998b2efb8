import { describe, expect, it } from 'vitest';
import {
  CODE_GUESS_BUDGET,
  dailyHitChance,
  guessWithinBudget,
  PICKUP_CODE_SPACE,
  readyOrder,
  wrongGuessCost,
  wrongGuessesPerWindow,
} from '../src/pickup';

/**
 * The budget of wrong pickup-code guesses, per school and per address: an
 * attacker spending an address's whole budget every hour has under a 1%
 * chance per day of hitting an active code of the school (the figure the
 * store README states); a guess is let through while nothing is spent.
 */
describe('the pickup-code guessing budget', () => {
  it('is computed over all 923,521 codes: 384 units an hour', () => {
    expect(PICKUP_CODE_SPACE).toBe(923_521);
    expect(CODE_GUESS_BUDGET.windowsPerDay).toBe(24);
    expect(CODE_GUESS_BUDGET.unitsPerWindow).toBe(384);
  });

  it.each([
    [0, 384],
    [1, 384],
    [10, 38],
    [25, 15],
    [100, 3],
    [384, 1],
    [385, 0],
  ])('with %i active codes lets %i wrong guesses through an hour', (active, allowed) => {
    expect(wrongGuessesPerWindow(active)).toBe(allowed);
  });

  it.each([1, 2, 5, 10, 25, 50, 100, 200, 384])(
    'gives an attacker under a 1%% chance per day of hitting any of %i active codes',
    (active) => {
      const chance = dailyHitChance(active);
      expect(chance).toBeLessThan(0.01);
      // The budget is not needlessly tight: it allows at least half of the 1%.
      expect(chance).toBeGreaterThan(0.005);
    },
  );

  it('charges a wrong guess the chance it had of hitting one of the active codes', () => {
    expect(wrongGuessCost(0)).toBe(1);
    expect(wrongGuessCost(7)).toBe(7);
    // 24 windows of the whole budget, each unit a 1 / 923,521 chance: the union bound.
    expect(
      (CODE_GUESS_BUDGET.windowsPerDay * CODE_GUESS_BUDGET.unitsPerWindow) / PICKUP_CODE_SPACE,
    ).toBeCloseTo(0.00998, 5);
  });

  it("finds a school's codes for an address while its wrong guesses cost under the budget, and always at first", () => {
    expect(guessWithinBudget(7, 48)).toBe(true);
    expect(guessWithinBudget(8, 48)).toBe(false);
    expect(guessWithinBudget(0, 5_000)).toBe(true);
    expect(guessWithinBudget(1, 5_000)).toBe(false);
    expect(guessWithinBudget(383, 0)).toBe(true);
  });
});

describe("the teacher's Ready list", () => {
  const at = (minute: number) => `2026-11-24T21:${String(minute).padStart(2, '0')}:00.000Z`;
  const student = (
    name: string,
    minute: number,
    queueStatus: 'waiting' | 'ready' | 'overflow',
    batchNumber: number | null = null,
  ) => ({ name, queueTime: at(minute), queueStatus, batchId: batchNumber && 100 + batchNumber, batchNumber });

  it('puts the cars being loaded now first (longest-loading batch first, then cars called on their own), then the others newest first', () => {
    const list = [
      student('waiting early', 1, 'waiting'),
      student('batch 2', 3, 'waiting', 2),
      student('overflow', 2, 'overflow'),
      student('just arrived', 9, 'waiting'),
      student('called', 4, 'ready'),
      student('batch 1, later car', 6, 'waiting', 1),
      student('batch 1', 5, 'waiting', 1),
    ];
    expect(readyOrder(list).map((s) => s.name)).toEqual([
      'batch 1',
      'batch 1, later car',
      'batch 2',
      'called',
      'just arrived',
      'overflow',
      'waiting early',
    ]);
  });
});
