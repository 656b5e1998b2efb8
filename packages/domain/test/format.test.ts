import { describe, expect, it } from 'vitest';
import {
  countdownSeconds,
  elapsedSeconds,
  formatClockTime,
  formatDuration,
  formatEstimatedWait,
  formatSpeedMph,
  ordinal,
  plural,
  shortName,
} from '../src/format';

describe('formats', () => {
  it('shows durations under an hour as mm:ss and longer ones as h:mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(65)).toBe('01:05');
    expect(formatDuration(3599)).toBe('59:59');
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(7322)).toBe('2:02:02');
    expect(formatDuration(-5)).toBe('00:00');
  });

  it('shows clock time in US English 12-hour format', () => {
    const afternoon = new Date(2026, 10, 23, 15, 5);
    expect(formatClockTime(afternoon)).toMatch(/^3:05\sPM$/);
    expect(formatClockTime(new Date(2026, 10, 23, 0, 30))).toMatch(/^12:30\sAM$/);
  });

  it('counts elapsed seconds and a countdown that never goes below 0', () => {
    const now = Date.parse('2026-11-23T15:00:00Z');
    expect(elapsedSeconds('2026-11-23T14:59:00Z', now)).toBe(60);
    expect(countdownSeconds('2026-11-23T15:00:30Z', now)).toBe(30);
    expect(countdownSeconds('2026-11-23T14:00:00Z', now)).toBe(0);
  });

  it('shows the parent estimated wait as N min under an hour, else Xh Ym', () => {
    expect(formatEstimatedWait(0)).toBe('0 min');
    expect(formatEstimatedWait(59)).toBe('59 min');
    expect(formatEstimatedWait(60)).toBe('1h 0m');
    expect(formatEstimatedWait(135)).toBe('2h 15m');
  });

  it('uses the singular for exactly one', () => {
    expect(plural(1, 'bus', 'buses')).toBe('1 bus');
    expect(plural(0, 'bus', 'buses')).toBe('0 buses');
    expect(plural(2, 'vehicle')).toBe('2 vehicles');
  });

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });

  it('converts m/s to mph with one decimal', () => {
    expect(formatSpeedMph(10)).toBe('22.4');
    expect(formatSpeedMph(0)).toBe('0.0');
  });

  it('shows a student as first name and last initial', () => {
    expect(shortName({ firstName: 'Ava', lastName: 'Martinez' })).toBe('Ava M.');
  });
});
