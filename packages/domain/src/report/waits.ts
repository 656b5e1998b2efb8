import type { ReportPickup } from '../record';

/** How long pickups waited: the figure of a pickup, the quantiles of many. */

/** The value at quantile q (0..1) of sorted numbers, nearest rank; null when empty. */
export const quantile = (sorted: readonly number[], q: number): number | null => {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
};

const seconds = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

/** Wait of a pickup: queued → picked up, in seconds. */
export const pickupWaitSeconds = (pickup: Pick<ReportPickup, 'queuedAt' | 'pickedUpAt'>): number | null =>
  pickup.pickedUpAt === null ? null : seconds(pickup.queuedAt, pickup.pickedUpAt);
