/** Small numeric helpers for the benchmark: percentiles, a seeded random source, bounded parallelism. */
import type { Summary } from './types';

/** Nearest-rank percentile of an ascending array (`q` in 0..1); 0 for none. */
export const percentile = (sorted: ArrayLike<number>, q: number): number => {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
};

export const summarize = (values: readonly number[] | Float64Array): Summary => {
  const sorted = Float64Array.from(values).sort();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : 0,
    mean: sorted.length > 0 ? total / sorted.length : 0,
  };
};

/**
 * A growable list of numbers that stays cheap at a few hundred thousand
 * samples, each with the time it was taken (epoch ms) for windowed figures.
 */
export class Samples {
  private data = new Float64Array(1024);
  private times = new Float64Array(1024);
  length = 0;
  push(value: number, at = Date.now()) {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
      const grownTimes = new Float64Array(this.times.length * 2);
      grownTimes.set(this.times);
      this.times = grownTimes;
    }
    this.times[this.length] = at;
    this.data[this.length++] = value;
  }
  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
  /** The values taken in [from, to) (epoch ms). */
  between(from: number, to: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const at = this.times[i] as number;
      if (at >= from && at < to) out.push(this.data[i] as number);
    }
    return out;
  }
  summary(): Summary {
    return summarize(this.values());
  }
}

/** The one `sleep` (`@curbside/domain`), as the benchmark's modules import it. */
export { sleep } from '@curbside/domain';
export { seededRandom } from '@curbside/local/random';

/** Runs `task` over `items` with at most `limit` in flight; answers the results in order. */
export const mapBounded = async <T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
};

export const round = (value: number, digits = 2) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
