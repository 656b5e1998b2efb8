import { describe, expect, it } from 'vitest';
import { dayText } from '../src/features/parent/format';

/** Every calendar day from `from`, `count` of them, as `YYYY-MM-DD`. */
const daysFrom = (from: string, count: number) =>
  Array.from({ length: count }, (_, index) =>
    new Date(Date.parse(`${from}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
  );

/** The day as `Intl` writes it in a language. */
const intlDay = (day: string, language: string) =>
  new Intl.DateTimeFormat(language, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

describe('a day as the parent screens write it (issue 57, h57d: English without Intl)', () => {
  it('writes every day in English as Intl.DateTimeFormat does (`Wed, Nov 25`)', () => {
    for (const day of daysFrom('2026-01-01', 3 * 366)) expect(dayText(day, 'en')).toBe(intlDay(day, 'en'));
    expect(dayText('2026-11-25', 'en')).toBe('Wed, Nov 25');
  });

  it('writes Spanish with the language’s own formatter', () => {
    expect(dayText('2026-11-25', 'es')).toBe(intlDay('2026-11-25', 'es'));
  });
});
