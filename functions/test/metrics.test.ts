import { describe, expect, it, vi } from 'vitest';
import { countMetric, flushMetrics } from '../src/lib/log';

/**
 * The business metrics an invocation sends (issue 54: a bus of 30's pickup
 * counts a live post for each rider's parents): a count as one value, its sum,
 * in the invocation's one metrics line; a measure keeps each value.
 */
describe('business metrics', () => {
  it('send a count made many times in an invocation as one value, its sum, and a measure value by value', () => {
    process.env.LOG_LEVEL = 'info';
    process.env.LOG_FORMAT = 'json';
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    try {
      for (let i = 0; i < 150; i++) countMetric('livePosts', 2);
      countMetric('alertAckSeconds', 12);
      countMetric('alertAckSeconds', 30);
      flushMetrics();
    } finally {
      spy.mockRestore();
      process.env.LOG_LEVEL = 'silent';
      delete process.env.LOG_FORMAT;
    }
    const sent = lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => 'LivePosts' in line || 'AlertAcknowledgeSeconds' in line);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ LivePosts: 300, AlertAcknowledgeSeconds: [12, 30] });
  });
});
