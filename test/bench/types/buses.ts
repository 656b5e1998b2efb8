import type { Priced } from './cost';
import type { Summary } from './options';

export interface BusWindowFigures {
  relay: 'coalesced' | 'naive';
  seconds: number;
  /** Messages the drivers sent (positions and heartbeats): one `$default` invocation each. */
  driverMessages: number;
  /** Bus messages per viewer per second: the mean, and the most any viewer got in one second. */
  perViewerPerSecond: { mean: number; max: number };
  /** Bus messages received by every viewer and admin map screen. */
  messagesOut: number;
  /** Per second of the window: usage the meter saw under `ws/default` (the drivers' share of it). */
  usagePerSecond: { lambdaGbSeconds: number; readUnits: number; writeUnits: number };
}

/** The bus fleet of the run, as measured: the rush (coalesced relay) and the naive relay after it. */
export interface BusRun {
  buses: number;
  viewers: number;
  adminScreens: number;
  /** During the rush (coalesced relay): new positions delivered to the viewers. */
  deliveryMs: Summary;
  rush: BusWindowFigures;
  naive: BusWindowFigures;
  /** Any bus message carrying a field that could name a child. */
  leaks: number;
  /** Messages to a viewer, an admin map or a driver that named another school's records. */
  crossed: number;
}

export interface BusFigures extends BusRun {
  /** A dismissal's bus traffic at AWS prices, coalesced and naive. */
  dismissal: { coalesced: Priced; naive: Priced };
  dismissalMinutes: number;
}

// ── What the phases answer ───────────────────────────────────────────────────
