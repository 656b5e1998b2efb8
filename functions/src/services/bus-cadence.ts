import { BUS_FANOUT_MS } from '@curbside/domain';

/**
 * When the buses of a school report, as this instance saw it: the last two
 * positions of each bus. The relay asks it whether a position that came after
 * this second's fan-out must wait for the next second's (issue 31): not when
 * another bus reports steadily, about once a second, and its next position is
 * due within about a second — that position claims the next second's fan-out,
 * which carries every bus that moved since the last one. A burst of positions
 * (several at once, then nothing) is no cadence: the position waits, as does
 * the one of a bus alone, or of a fleet that stopped.
 */
export class BusCadence {
  private readonly schools = new Map<number, Map<string, { prev: number; last: number }>>();

  /** A position of `busId` reached this instance at `at`. */
  report(schoolId: number, busId: string, at: number): void {
    let buses = this.schools.get(schoolId);
    if (!buses) {
      buses = new Map();
      this.schools.set(schoolId, buses);
    }
    const seen = buses.get(busId);
    buses.set(busId, { prev: seen?.last ?? Number.NEGATIVE_INFINITY, last: at });
    // Buses that stopped reporting long ago are forgotten (a school's fleet is small: one pass).
    for (const [id, other] of buses) if (at - other.last > 60_000) buses.delete(id);
  }

  /**
   * `busId`'s driver stopped tracking: no next position of it is due. Answers
   * whether another bus reported within the last second (its position may be
   * waiting for this bus's next one, which will not come).
   */
  forget(schoolId: number, busId: string, now: number): boolean {
    const buses = this.schools.get(schoolId);
    buses?.delete(busId);
    for (const { last } of buses?.values() ?? []) if (now - last < BUS_FANOUT_MS) return true;
    return false;
  }

  /**
   * Whether another bus of the school reports about every second (its last
   * two positions half a second to a quarter more than a second apart) and
   * reported within the last second: its next position is due within about
   * a second of `now`.
   */
  anotherDue(schoolId: number, busId: string, now: number): boolean {
    for (const [id, { prev, last }] of this.schools.get(schoolId) ?? []) {
      if (id === busId) continue;
      const spacing = last - prev;
      const steady = spacing >= BUS_FANOUT_MS / 2 && spacing <= BUS_FANOUT_MS * 1.25;
      if (steady && now - last < BUS_FANOUT_MS) return true;
    }
    return false;
  }
}
