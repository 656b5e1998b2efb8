import type { DayWay, WayOptions } from '@curbside/domain';

/**
 * The ways a school offers as the values of a select (`car`, `walker`,
 * `absent`, `bus:7`, `program:9`), and back. `label` names each in the
 * screen's language (the staff screens: `wayText`; the parent portal its own).
 */
export const valueOfWay = (way: DayWay): string =>
  way.mode === 'bus'
    ? `bus:${way.vehicleId}`
    : way.mode === 'program'
      ? `program:${way.programId}`
      : way.mode;

export const wayOfValue = (value: string): DayWay => {
  const [mode, id] = value.split(':');
  if (mode === 'bus') return { mode: 'bus', vehicleId: Number(id) };
  if (mode === 'program') return { mode: 'program', programId: Number(id) };
  return { mode: mode === 'walker' ? 'walker' : mode === 'absent' ? 'absent' : 'car' };
};

/** Car, every bus, walking, every active program (and absent, for a day's change). */
export const wayChoices = (
  options: WayOptions,
  label: (way: DayWay) => string,
  { absent }: { absent: boolean },
): Array<{ value: string; label: string }> =>
  (
    [
      { mode: 'car' },
      ...options.buses.map((bus) => ({ mode: 'bus', vehicleId: bus.id }) as const),
      { mode: 'walker' },
      ...options.programs
        .filter((program) => program.active)
        .map((program) => ({ mode: 'program', programId: program.id }) as const),
      ...(absent ? [{ mode: 'absent' } as const] : []),
    ] as DayWay[]
  ).map((way) => ({ value: valueOfWay(way), label: label(way) }));
