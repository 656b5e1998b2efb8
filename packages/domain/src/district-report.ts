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
 * The district report as CSV rows (header first): each school with its mode
 * and its last dismissal's vehicle count and average wait (`mm:ss`). A school
 * that never ran a session has empty session columns and 0 vehicles; a session
 * with no completed pickup has no average.
 */
export const districtReportCsvRows = (rows: ReadonlyArray<DistrictReportRow>): string[][] => [
  [...DISTRICT_REPORT_HEADER],
  ...rows.map((row) => [
    row.schoolName,
    row.sandbox ? 'Sandbox' : 'Live',
    row.lastSession?.name ?? '',
    row.lastSession?.startTime ?? '',
    String(row.vehicles),
    row.averageWaitSeconds === null ? '' : formatDuration(row.averageWaitSeconds),
  ]),
];

/** The report's file name: the district's name made safe for a file, and the day. */
export const districtReportFilename = (districtName: string, day: Date = new Date()): string => {
  const slug = districtName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'district'}-report-${day.toISOString().slice(0, 10)}.csv`;
};
