import { describe, expect, it } from 'vitest';
import { districtReportCsvRows, districtReportFilename, localDateTime } from '../src/district-report';

const rows = [
  {
    schoolId: 1,
    schoolName: 'Lincoln Elementary',
    sandbox: false,
    lastSession: { name: 'Afternoon Pickup', startTime: '2026-11-24T20:00:00.000Z' },
    vehicles: 12,
    averageWaitSeconds: 185,
  },
  {
    schoolId: 2,
    schoolName: 'Oak Middle',
    sandbox: true,
    lastSession: null,
    vehicles: 0,
    averageWaitSeconds: null,
  },
] as const;

describe('the district report', () => {
  it('has one row per school after the header, with the mode, last session, vehicles and mm:ss wait', () => {
    const csv = districtReportCsvRows(rows);
    expect(csv).toEqual([
      ['School', 'Mode', 'Last Session', 'Last Session Start', 'Vehicles', 'Average Wait'],
      ['Lincoln Elementary', 'Live', 'Afternoon Pickup', '2026-11-24 20:00 UTC', '12', '03:05'],
      ['Oak Middle', 'Sandbox', '', '', '0', ''],
    ]);
  });

  it("gives the last session's start in the schools' time zone, not raw UTC", () => {
    const [row] = rows;
    expect(districtReportCsvRows([row], 'America/New_York')[1]?.[3]).toBe('2026-11-24 15:00 EST');
    expect(districtReportCsvRows([row], 'America/Los_Angeles')[1]?.[3]).toBe('2026-11-24 12:00 PST');
    expect(localDateTime('2026-06-01T19:30:00.000Z', 'America/Chicago')).toBe('2026-06-01 14:30 CDT');
    expect(localDateTime('2026-06-01T19:30:00.000Z', 'Not/AZone')).toBe('2026-06-01 19:30 UTC');
  });

  it("writes each school's start in that school's own time zone (issue 51)", () => {
    const [row] = rows;
    const denver = { ...row, timeZone: 'America/Denver' };
    expect(districtReportCsvRows([denver], 'America/New_York')[1]?.[3]).toBe('2026-11-24 13:00 MST');
  });

  it('names the file after the district and the day', () => {
    expect(districtReportFilename('Springfield Unified', new Date('2026-11-24T12:00:00Z'))).toBe(
      'springfield-unified-report-2026-11-24.csv',
    );
    expect(districtReportFilename('***', new Date('2026-11-24T12:00:00Z'))).toBe(
      'district-report-2026-11-24.csv',
    );
    // 8 pm in New York is already the next day in UTC: the file is named after the district's day.
    expect(
      districtReportFilename('Springfield Unified', new Date('2026-11-25T01:00:00Z'), 'America/New_York'),
    ).toBe('springfield-unified-report-2026-11-24.csv');
  });
});
