import type { FanOutGate } from '@curbside/store';

/**
 * Whether a position that came after this second's fan-out can leave the next
 * second's fan-out to the fleet (issue 31; issue 33: decided from what every
 * instance shares, not what one saw): the school's fan-outs of this second and
 * the one before were both claimed, and not both by this bus. The fleet reports
 * steadily, so a position of the next second claims that second's fan-out and
 * carries every bus that moved since the previous one, this one included. A
 * bus alone, a burst (one second claimed), or a fleet that stopped reporting:
 * the position waits for the next second itself.
 */
export const fleetCarriesNext = (gate: FanOutGate | undefined, slot: number, busId: string): boolean =>
  gate !== undefined &&
  gate.slot === slot &&
  gate.prevSlot === slot - 1 &&
  (gate.bus !== busId || gate.prevBus !== busId);
