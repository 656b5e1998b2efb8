import type { DistrictReportRow } from './districts';
import { formatDuration } from './format';

/** The columns of the district report (Generate Report on the district screen). */
export const DISTRICT_REPORT_HEADER = [
  'School',
  'Mode',
  'Last Session',
  'Last Session Start',
  'Vehicles',
  'Average Wait',
] as const;

/**
 * A moment as a person there reads it, sortable: `2026-11-24 15:00 EST` in
 * `timeZone` (an IANA name; an unknown one falls back to UTC). With
 * `{ seconds: true, zoneName: false }`: `2026-11-24 15:00:07` (a column whose
 * header names the zone).
 */
export const localDateTime = (
  iso: string,
  timeZone: string,
  { seconds = false, zoneName = true }: { seconds?: boolean; zoneName?: boolean } = {},
): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
      ...(zoneName ? { timeZoneName: 'short' } : {}),
    }).formatToParts(at);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = format(timeZone);
  } catch {
    parts = format('UTC');
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const time = `${part('hour')}:${part('minute')}${seconds ? `:${part('second')}` : ''}`;
  return `${part('year')}-${part('month')}-${part('day')} ${time}${zoneName ? ` ${part('timeZoneName')}` : ''}`;
};

/**
 * The district report as CSV rows (header first): each school with its mode
 * and its last dismissal's start (in the school's own time zone, issue 51;
 * else `timeZone`, UTC when not given), vehicle count and
 * average wait (`mm:ss`). A school that never ran a session has empty session
 * columns and 0 vehicles; a session with no completed pickup has no average.
 */
export const districtReportCsvRows = (
  rows: ReadonlyArray<DistrictReportRow>,
  timeZone = 'UTC',
): string[][] => [
  [...DISTRICT_REPORT_HEADER],
  ...rows.map((row) => [
    row.schoolName,
    row.sandbox ? 'Sandbox' : 'Live',
    row.lastSession?.name ?? '',
    row.lastSession ? localDateTime(row.lastSession.startTime, row.timeZone ?? timeZone) : '',
    String(row.vehicles),
    row.averageWaitSeconds === null ? '' : formatDuration(row.averageWaitSeconds),
  ]),
];

/** The report's file name: the district's name made safe for a file, and the day (in `timeZone`). */
export const districtReportFilename = (
  districtName: string,
  day: Date = new Date(),
  timeZone = 'UTC',
): string => {
  const slug = districtName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'district'}-report-${localDateTime(day.toISOString(), timeZone).slice(0, 10)}.csv`;
};
