import { describe, expect, it } from 'vitest';
import { districtReportCsvRows, districtReportFilename } from '../src/district-report';

describe('the district report', () => {
  it('has one row per school after the header, with the mode, last session, vehicles and mm:ss wait', () => {
    const rows = districtReportCsvRows([
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
    ]);
    expect(rows).toEqual([
      ['School', 'Mode', 'Last Session', 'Last Session Start', 'Vehicles', 'Average Wait'],
      ['Lincoln Elementary', 'Live', 'Afternoon Pickup', '2026-11-24T20:00:00.000Z', '12', '03:05'],
      ['Oak Middle', 'Sandbox', '', '', '0', ''],
    ]);
  });

  it('names the file after the district and the day', () => {
    expect(districtReportFilename('Springfield Unified', new Date('2026-11-24T12:00:00Z'))).toBe(
      'springfield-unified-report-2026-11-24.csv',
    );
    expect(districtReportFilename('***', new Date('2026-11-24T12:00:00Z'))).toBe(
      'district-report-2026-11-24.csv',
    );
  });
});
