import { describe, expect, it } from 'vitest';
import { dayText } from '../src/features/parent/format';

/** Every calendar day from `from`, `count` of them, as `YYYY-MM-DD`. */
const daysFrom = (from: string, count: number) =>
  Array.from({ length: count }, (_, index) =>
    new Date(Date.parse(`${from}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
  );

describe('a day as the parent screens write it (issue 57, h57d: English without Intl)', () => {
  it('writes every day in English as Intl.DateTimeFormat does (`Wed, Nov 25`)', () => {
    const intl = new Intl.DateTimeFormat('en', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    for (const day of daysFrom('2026-01-01', 3 * 366)) {
      expect(dayText(day, 'en')).toBe(intl.format(new Date(`${day}T00:00:00Z`)));
    }
    expect(dayText('2026-11-25', 'en')).toBe('Wed, Nov 25');
  });

  it('writes Spanish with the language’s own formatter', () => {
    const intl = new Intl.DateTimeFormat('es', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    expect(dayText('2026-11-25', 'es')).toBe(intl.format(new Date('2026-11-25T00:00:00Z')));
  });
});
