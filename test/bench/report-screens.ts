/** The report's section on the staff screens' reads (split from report.ts by part). */
import { n, table, units } from './format';
import { type BenchReport, READ_REASONS, type ScreenReads } from './types';

/** The staff screens' reads in the rush, side by side with the refetch-on-every-event baseline. */
export const screenLines = (report: BenchReport): string[] => {
  const { screens } = report;
  const { rush, baseline } = screens;
  const lines = [
    `${screens.staff.front} front, ${screens.staff.back} back and ${screens.staff.teacher} teacher screens; on opening they read ` +
      `${n(screens.loads.calls)} lists (${units(screens.loads.readUnits)} read units). Reads then per route, and why:`,
  ];
  const columns = baseline ? [rush, baseline] : [rush];
  const name = (reads: ScreenReads) =>
    reads.mode === 'patch' ? 'patching (web client)' : 'refetch on every event (baseline)';
  lines.push(
    table(
      ['', ...columns.map(name)],
      [
        ['rush', ...columns.map((r) => `${r.cars} cars over ${r.arrivalWindowSec} s (${r.seconds} s)`)],
        ['staff events', ...columns.map((r) => n(r.events))],
        ['screen reads (calls)', ...columns.map((r) => n(r.calls))],
        ...READ_REASONS.filter((reason) => reason !== 'load').map((reason) => [
          `  after ${reason === 'mount' ? 'a new card' : reason === 'gap' ? 'a missed event' : reason === 'poll' ? 'a poll (5 s queue, 30 s alerts)' : 'an event'}`,
          ...columns.map((r) => n(r.byReason[reason])),
        ]),
        ['sequence gaps seen', ...columns.map((r) => n(r.gaps))],
        ['screen read units', ...columns.map((r) => units(r.readUnits))],
        ['read units per staff event', ...columns.map((r) => r.readUnitsPerEvent.toFixed(2))],
        ['read units per 30-minute dismissal', ...columns.map((r) => n(r.perDismissal))],
        ...Object.keys({ ...rush.byRoute, ...(baseline?.byRoute ?? {}) }).map((route) => [
          `  ${route}`,
          ...columns.map(
            (r) => `${n(r.byRoute[route]?.calls ?? 0)} (${units(r.byRoute[route]?.readUnits ?? 0)} RCU)`,
          ),
        ]),
      ],
    ),
  );
  if (screens.ratio !== null) {
    lines.push(
      `Patching reads ${(screens.ratio * 100).toFixed(1)}% of the baseline's read units per event. The baseline ran ` +
        `in a session of its own after the rush, with ${baseline?.cars} cars over ${baseline?.arrivalWindowSec} s (the same arrival rate); ` +
        "its per-dismissal figure takes its reads per event over the main rush's events.",
    );
  }
  return lines;
};
