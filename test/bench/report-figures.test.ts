import { describe, expect, it } from 'vitest';
import { assembleReport, screenReadsOf } from './assemble';
import { busWindow, CHANNEL, phases } from './assemble-fixtures';
import { checkBudgets } from './budgets';
import { busDismissal } from './cost';
import { formatReport } from './report';
import type { PhaseResults } from './types';

/**
 * The report's smaller figures on the same hand-made phases (assemble-fixtures.ts): the
 * screens' reads, the bus dismissal's cost, and the formatted report.
 */
describe('screenReadsOf', () => {
  it('counts only the staff screens’ list routes of the window', () => {
    const p = phases();
    const reads = screenReadsOf(p.rush, p.afterRush.reads, CHANNEL, {
      events: 160,
      loadReadUnits: 0,
      pollsPerMinute: {},
    });
    expect(Object.keys(reads.byRoute)).toEqual(['listQueue', 'listAlerts']);
    expect(reads.calls).toBe(50);
  });
});

describe('busDismissal', () => {
  it("projects a window's bus traffic to a dismissal: messages in and out, connections the whole time", () => {
    // 60 driver messages and 700 out in 10 s; 14 connections (2 buses, 10 viewers, 2 admin maps) over 30 minutes.
    const { usage } = busDismissal(busWindow('coalesced', 700), 14, 30);
    expect(usage.lambdaRequests).toBe(6 * 1800);
    expect(usage.webSocketMessages).toBe(76 * 1800);
    expect(usage.connectionMinutes).toBe(14 * 30);
    expect(usage.writeUnits).toBe(6 * 1800);
    // The 12 map screens' pings: 2 a minute each, a ping in and a pong out.
    const withPings = busDismissal(busWindow('coalesced', 700), 14, 30, 12).usage;
    expect(withPings.webSocketMessages - usage.webSocketMessages).toBe(12 * 2 * 30 * 2);
    expect(withPings.lambdaRequests - usage.lambdaRequests).toBe(12 * 2 * 30);
  });
});

describe('formatReport', () => {
  it('prints every section in order and one line per budget', () => {
    const report = assembleReport(phases());
    const budgets = checkBudgets(report);
    const text = formatReport(report, budgets);
    const titles = [
      'API latency (client-side over HTTP, rush) and cost per call (server meter)',
      'Live events',
      'Staff screens, as the web client runs them (rush)',
      'DynamoDB (rush, as AWS bills it)',
      'The rush over time',
      'Memory',
      'CPU during the rush',
      'Floor (same machine, same run; ratios over the lower run)',
      'AWS cost (list prices, us-east-1; test/bench/aws-prices.ts)',
      'Budgets (DESIGN.md)',
    ];
    const at = titles.map((title) => text.indexOf(`\n${title}\n${'═'.repeat(title.length)}\n`));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const verdicts = text.split('\n').filter((line) => /^(PASS|FAIL) {2}/.test(line));
    expect(verdicts).toHaveLength(budgets.length);
    expect(text).toContain('lost 3, extra 1');
    expect(text).toMatch(/teacher\s+2\s+108\s+1\.35\s+4\s+0\.05/);
    expect(text).toContain('× that floor');
  });

  it("checks the session report's read time, and fails a report that did not answer", () => {
    const line = (p: PhaseResults) =>
      checkBudgets(assembleReport(p)).find((check) => check.budget.startsWith('A session report reads'));
    expect(line(phases())).toMatchObject({ pass: true, value: expect.stringContaining('80 cars') });
    expect(line(phases((p) => Object.assign(p.sessionReport, { slowestMs: 1200 })))?.pass).toBe(false);
    expect(line(phases((p) => Object.assign(p.sessionReport, { status: 500, cars: 0 })))?.pass).toBe(false);
  });
});
