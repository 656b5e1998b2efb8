/**
 * Issue 57's budget for a phone on cellular, as Lighthouse's mobile profile measures it (a
 * mid-range phone, slow 4G, 4× CPU slowdown): every page at least performance 90 and
 * accessibility 100, its largest contentful paint at most 2.5 s (Core Web Vitals' "good") and
 * its total blocking time at most 200 ms. Lighthouse's figures vary from run to run: each page
 * is measured `runs` times and every figure is the median of its runs.
 */
export const LIGHTHOUSE_BUDGET = {
  minPerformance: 90,
  minAccessibility: 100,
  maxLcpMs: 2500,
  maxTbtMs: 200,
} as const;

/** One Lighthouse run of a page: the category scores (0–100) and the metrics (ms). */
export interface RunFigures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  speedIndexMs: number;
  cls: number;
}

export interface PageResult {
  page: string;
  /** The median of each figure over the runs. */
  median: RunFigures;
  runs: RunFigures[];
  /** The machine's 1-minute load average when the page's runs began and ended (`uptime`'s first figure). */
  load: { before: number; after: number };
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Every figure's median over the runs. */
export const medianRun = (runs: readonly RunFigures[]): RunFigures => {
  const of = (key: keyof RunFigures) => median(runs.map((run) => run[key]));
  return {
    performance: of('performance'),
    accessibility: of('accessibility'),
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    speedIndexMs: of('speedIndexMs'),
    cls: of('cls'),
  };
};

/** What a page's medians miss of the budget, one sentence each; empty when it passes. */
export const missedBudget = (figures: RunFigures, budget = LIGHTHOUSE_BUDGET): string[] => {
  const missed: string[] = [];
  if (!(figures.performance >= budget.minPerformance))
    missed.push(`performance ${figures.performance} is under ${budget.minPerformance}`);
  if (!(figures.lcpMs <= budget.maxLcpMs))
    missed.push(`LCP ${Math.round(figures.lcpMs)} ms is over ${budget.maxLcpMs} ms`);
  if (!(figures.tbtMs <= budget.maxTbtMs))
    missed.push(`TBT ${Math.round(figures.tbtMs)} ms is over ${budget.maxTbtMs} ms`);
  if (!(figures.accessibility >= budget.minAccessibility))
    missed.push(`accessibility ${figures.accessibility} is under ${budget.minAccessibility}`);
  return missed;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The results as a Markdown table (medians), one row per page, with the load beside each. */
export const formatTable = (results: readonly PageResult[]): string => {
  const rows = results.map(({ page, median: m, load }) =>
    [
      page,
      String(m.performance),
      seconds(m.fcpMs),
      seconds(m.lcpMs),
      `${Math.round(m.tbtMs)} ms`,
      seconds(m.speedIndexMs),
      m.cls.toFixed(3),
      String(m.accessibility),
      `${load.before.toFixed(2)} → ${load.after.toFixed(2)}`,
      missedBudget(m).length === 0 ? 'pass' : 'FAIL',
    ].join(' | '),
  );
  return [
    'page | performance | FCP | LCP | TBT | Speed Index | CLS | accessibility | load (1 min) | budget',
    '--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---',
    ...rows,
  ]
    .map((row) => `| ${row} |`)
    .join('\n');
};
