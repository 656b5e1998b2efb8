/** Reading the server's meter: what changed between two snapshots, per label, and per-call figures. */
import type { MeterCounters, MeterSnapshot } from '@curbside/store';
import { round } from './stats';
import type { LabelFigures } from './types';

export const diff = (after: MeterSnapshot, before: MeterSnapshot): MeterSnapshot => {
  const out: MeterSnapshot = {};
  for (const [label, counters] of Object.entries(after)) {
    const was = before[label] ?? {};
    const changed: MeterCounters = {};
    for (const [name, value] of Object.entries(counters)) {
      const delta = value - (was[name] ?? 0);
      if (delta !== 0) changed[name] = delta;
    }
    if (Object.keys(changed).length > 0) out[label] = changed;
  }
  return out;
};

export const figuresOf = (counters: MeterCounters | undefined): LabelFigures => ({
  invocations: counters?.['lambda.invocations'] ?? 0,
  billedMs: counters?.['lambda.billedMs'] ?? 0,
  readUnits: counters?.['ddb.readUnits'] ?? 0,
  writeUnits: counters?.['ddb.writeUnits'] ?? 0,
  billedMessages: counters?.['live.billedMessages'] ?? 0,
});

export const allFigures = (snapshot: MeterSnapshot): Record<string, LabelFigures> =>
  Object.fromEntries(Object.entries(snapshot).map(([label, counters]) => [label, figuresOf(counters)]));

export const sumOf = (snapshot: MeterSnapshot, counter: string) =>
  Object.values(snapshot).reduce((sum, counters) => sum + (counters[counter] ?? 0), 0);

export const perCall = (counters: MeterCounters | undefined, name: string) => {
  const calls = counters?.['lambda.invocations'] ?? 0;
  return calls > 0 ? (counters?.[name] ?? 0) / calls : 0;
};

export const operationsOf = (counters: MeterCounters | undefined) => {
  const out: Record<string, { callsPerCall: number; unitsPerCall: number }> = {};
  for (const name of Object.keys(counters ?? {})) {
    const match = /^ddb\.(\w+)\.calls$/.exec(name);
    if (!match) continue;
    const operation = match[1] as string;
    out[operation] = {
      callsPerCall: round(perCall(counters, name), 2),
      unitsPerCall: round(perCall(counters, `ddb.${operation}.units`), 2),
    };
  }
  return out;
};

/** Events published to a channel in a window (the meter counts each publish under `live.published.{channel}`). */
export const publishedTo = (window: MeterSnapshot, channel: string) =>
  sumOf(window, `live.published.${channel}`);

/** Every event published in a window, on any channel. */
export const publishedAll = (window: MeterSnapshot) =>
  Object.values(window).reduce(
    (sum, counters) =>
      sum +
      Object.entries(counters)
        .filter(([name]) => name.startsWith('live.published.'))
        .reduce((s, [, n]) => s + n, 0),
    0,
  );
