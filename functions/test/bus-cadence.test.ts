import type { FanOutGate } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { fleetCarriesNext } from '../src/services/bus-cadence';

const gate = (slot: number, bus: string, prevSlot: number, prevBus: string): FanOutGate => ({
  slot,
  bus,
  prevSlot,
  prevBus,
});

describe('fleetCarriesNext (the relay’s trailing wait, issues 31 and 33)', () => {
  it('leaves the next fan-out to a fleet whose last two seconds both fanned out', () => {
    expect(fleetCarriesNext(gate(100, 'B1', 99, 'B3'), 100, 'B2')).toBe(true);
    // This bus claimed one of the two: another bus claimed the other.
    expect(fleetCarriesNext(gate(100, 'B2', 99, 'B1'), 100, 'B2')).toBe(true);
    expect(fleetCarriesNext(gate(100, 'B1', 99, 'B2'), 100, 'B2')).toBe(true);
  });

  it('waits for a bus alone, a burst, a fleet that stopped, or a gate it cannot read', () => {
    // Only this bus reports: its own next position may never come (it stopped).
    expect(fleetCarriesNext(gate(100, 'B2', 99, 'B2'), 100, 'B2')).toBe(false);
    // A burst: this second fanned out, the one before did not.
    expect(fleetCarriesNext(gate(100, 'B1', 97, 'B3'), 100, 'B2')).toBe(false);
    // The first fan-out ever.
    expect(fleetCarriesNext(gate(100, 'B1', -1, ''), 100, 'B2')).toBe(false);
    // A gate of another second (a clock ahead), or none.
    expect(fleetCarriesNext(gate(101, 'B1', 100, 'B3'), 100, 'B2')).toBe(false);
    expect(fleetCarriesNext(undefined, 100, 'B2')).toBe(false);
  });
});
