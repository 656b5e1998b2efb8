import type { ReportPickup } from '../record';
import { pickupWaitSeconds } from './waits';
/** The report's charts: pickups per minute, the distribution of waits. */

/** Cars that reached the front per minute (picked up), from the first to the last minute with a pickup. */
export const pickupsPerMinute = (pickups: readonly Pick<ReportPickup, 'pickedUpAt'>[]) => {
  const minutes = new Map<number, number>();
  for (const pickup of pickups) {
    if (pickup.pickedUpAt === null) continue;
    const minute = Math.floor(Date.parse(pickup.pickedUpAt) / 60_000);
    minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
  }
  if (minutes.size === 0) return [];
  const first = Math.min(...minutes.keys());
  const last = Math.max(...minutes.keys());
  return Array.from({ length: last - first + 1 }, (_, i) => ({
    minute: new Date((first + i) * 60_000).toISOString(),
    cars: minutes.get(first + i) ?? 0,
  }));
};

/** How many pickups waited 0–1, 1–2, … minutes (the last bucket open-ended at `cap` minutes). */
export const waitDistribution = (
  pickups: readonly Pick<ReportPickup, 'queuedAt' | 'pickedUpAt'>[],
  cap = 15,
) => {
  const buckets = Array.from({ length: cap + 1 }, (_, i) => ({
    label: i === cap ? `${cap}+ min` : `${i}–${i + 1} min`,
    cars: 0,
  }));
  for (const pickup of pickups) {
    const wait = pickupWaitSeconds(pickup);
    if (wait === null) continue;
    const bucket = buckets[Math.min(cap, Math.floor(wait / 60))];
    if (bucket) bucket.cars += 1;
  }
  return buckets;
};
