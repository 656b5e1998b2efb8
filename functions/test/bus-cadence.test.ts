import { describe, expect, it } from 'vitest';
import { BusCadence } from '../src/services/bus-cadence';

/** Positions of `busId` every `everyMs` from `from`, `count` of them. */
const reports = (cadence: BusCadence, busId: string, from: number, everyMs: number, count: number) => {
  for (let i = 0; i < count; i++) cadence.report(7, busId, from + i * everyMs);
};

describe('BusCadence (the relay’s trailing wait, issue 31)', () => {
  it('leaves the next fan-out to another bus reporting every second', () => {
    const cadence = new BusCadence();
    reports(cadence, 'B1', 0, 1000, 5); // 0 … 4,000
    cadence.report(7, 'B2', 4_300);
    expect(cadence.anotherDue(7, 'B2', 4_300)).toBe(true);
    // Not for B1 itself: its own next position is no other bus's.
    expect(cadence.anotherDue(7, 'B1', 4_300)).toBe(false);
  });

  it('waits when the other buses stopped, sent a burst, or report too seldom, or for another school', () => {
    const stopped = new BusCadence();
    reports(stopped, 'B1', 0, 1000, 5);
    expect(stopped.anotherDue(7, 'B2', 5_200)).toBe(false);

    const burst = new BusCadence();
    reports(burst, 'B1', 0, 5, 3);
    expect(burst.anotherDue(7, 'B2', 20)).toBe(false);

    const seldom = new BusCadence();
    reports(seldom, 'B1', 0, 3000, 3);
    expect(seldom.anotherDue(7, 'B2', 6_100)).toBe(false);

    const elsewhere = new BusCadence();
    reports(elsewhere, 'B1', 0, 1000, 5);
    expect(elsewhere.anotherDue(8, 'B2', 4_300)).toBe(false);
  });

  it('waits when the bus that reported steadily stopped tracking (its driver pressed stop)', () => {
    const cadence = new BusCadence();
    reports(cadence, 'B1', 0, 1000, 5);
    // B2 reported just before: its position may be waiting for B1's next one.
    cadence.report(7, 'B2', 3_900);
    expect(cadence.anotherDue(7, 'B2', 3_900)).toBe(true);
    expect(cadence.forget(7, 'B1', 4_100)).toBe(true);
    cadence.report(7, 'B2', 4_300);
    expect(cadence.anotherDue(7, 'B2', 4_300)).toBe(false);
    // Nothing reported in the last second: nothing can be waiting.
    expect(cadence.forget(7, 'B2', 6_000)).toBe(false);
  });
});
