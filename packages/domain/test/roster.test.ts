import { describe, expect, it } from 'vitest';
import { parseRosterCsv, toCsv } from '../src/csv';
import type { QueueEntry } from '../src/queue';
import {
  compareNumbers,
  GRADE_MESSAGE,
  gradeSchema,
  splitName,
  studentStats,
  usernameFromName,
} from '../src/roster';
import { CSV_TEMPLATES, csvTemplate, TEMPLATE_EXTRAS, validateRows } from '../src/roster-import';
import { filterOverview, overviewCsvRows, placardsFor, waitBarPercent } from '../src/school-admin';
import { vehicle } from './roster-fixtures';

describe('CSV templates and parsing', () => {
  it('builds each template from the specification’s exact columns', () => {
    // Issue 51: the template also shows the optional dismissal column (a file without it still imports).
    expect(csvTemplate('students')).toBe(
      'firstName,lastName,grade,parentName,parentPhone,parentEmail,vehicleNumber,busRoute,notes,dismissal\r\n',
    );
    expect(csvTemplate('teachers')).toBe('firstName,lastName,email,phone,grade,classroom,username\r\n');
    expect(csvTemplate('parents')).toBe(
      'firstName,lastName,email,phone,address,emergencyContact,emergencyPhone,studentNames\r\n',
    );
    expect(csvTemplate('vehicles')).toBe(
      'number,type,make,model,color,licensePlate,parentName,parentPhone,notes\r\n',
    );
  });

  it('reads quoted cells with commas and line breaks, a byte-order mark and loose headers', () => {
    const text =
      '\uFEFFFirst Name,LASTNAME,grade,parentName,parentPhone,parentEmail,vehicleNumber,busRoute,notes\r\n' +
      'Ava,"Smith, Jr",2,,,,,,"line one\nline two"\r\n\r\n';
    const parsed = parseRosterCsv('students', text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toEqual([
      expect.objectContaining({ firstName: 'Ava', lastName: 'Smith, Jr', notes: 'line one\nline two' }),
    ]);
  });

  it('names missing columns on row 1 and an unclosed quote on its row', () => {
    expect(parseRosterCsv('vehicles', 'number,make\r\n1,Ford').errors.map((e) => e.column)).toEqual([
      'type',
      'model',
      'color',
      'licensePlate',
      'parentName',
      'parentPhone',
      'notes',
    ]);
    const header = CSV_TEMPLATES.vehicles.join(',');
    expect(parseRosterCsv('vehicles', `${header}\r\n1,car,"Ford`).errors).toEqual([
      { row: 2, column: null, message: 'A quoted cell is never closed' },
    ]);
    expect(parseRosterCsv('vehicles', `${header}\r\n`).errors).toEqual([
      { row: 2, column: null, message: 'The file has a header row but no data rows' },
    ]);
  });

  it('writes CSV that a spreadsheet never runs as a formula', () => {
    expect(toCsv([['a', '=HYPERLINK("x")', 'b,c', null]])).toBe('a,"\'=HYPERLINK(""x"")","b,c",\r\n');
  });

  it('escapes a formula cell that holds a line break, and every cell that starts with = + - @, tab or CR', () => {
    expect(toCsv([['=HYPERLINK(\n"x")', '-2+3\n+cmd|x']])).toBe(
      '"\'=HYPERLINK(\n""x"")","\'-2+3\n+cmd|x"\r\n',
    );
    expect(toCsv([['+1', '@SUM(A1)', '\t=1', '\r=1', '\n=1', 'a=1', ' =1']])).toBe(
      '"\'+1","\'@SUM(A1)","\'\t=1","\'\r=1","\n=1",a=1," =1"\r\n',
    );
  });

  it('writes each template as toCsv would (its fixed header cells need no escaping)', () => {
    for (const kind of Object.keys(CSV_TEMPLATES) as Array<keyof typeof CSV_TEMPLATES>) {
      expect(csvTemplate(kind)).toBe(toCsv([[...CSV_TEMPLATES[kind], ...TEMPLATE_EXTRAS[kind]]]));
    }
  });
});

describe('row rules', () => {
  it('reports every bad cell with its spreadsheet row', () => {
    const { rows: valid, errors } = validateRows('students', [
      { firstName: 'A', lastName: 'B', grade: '1' },
      { firstName: '', lastName: 'B', grade: '1', parentEmail: 'not-an-email', parentPhone: '12' },
    ]);
    expect(valid).toHaveLength(1);
    expect(errors).toEqual([
      { row: 3, column: 'firstName', message: 'First name is required' },
      { row: 3, column: 'parentPhone', message: 'Parent phone must be a phone number (at least 7 digits)' },
      { row: 3, column: 'parentEmail', message: 'Parent email must be a valid email address' },
    ]);
  });
});

describe('grades', () => {
  it('takes K to 12 and the SIS years, written as the rosters keep them', () => {
    for (const [written, kept] of [
      ['K', 'K'],
      ['k', 'K'],
      ['1', '1'],
      ['04', '4'],
      ['12', '12'],
      [' pk ', 'PK'],
      ['TK', 'TK'],
    ]) {
      expect(gradeSchema.parse(written)).toBe(kept);
    }
  });

  it('refuses a grade that is none, in a CSV row as in a form', () => {
    for (const wrong of ['14', '13', '0', '-1', 'Grade 3', '3rd', 'X']) {
      expect(gradeSchema.safeParse(wrong).error?.issues[0]?.message).toBe(GRADE_MESSAGE);
    }
    const { errors } = validateRows('students', [{ firstName: 'A', lastName: 'B', grade: '14' }]);
    expect(errors).toEqual([{ row: 2, column: 'grade', message: GRADE_MESSAGE }]);
  });
});

describe('names, counts and placards', () => {
  it('splits names and makes usernames', () => {
    expect(splitName('Mary Ann  Lee')).toEqual({ firstName: 'Mary Ann', lastName: 'Lee' });
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
    expect(usernameFromName('Zoë', "O'Neil")).toBe('zoe.oneil');
  });

  it('counts students waiting, picked up (not queued again) and in school', () => {
    expect(studentStats(10, [1, 2, 2, 3], [3, 4, 5])).toEqual({
      total: 10,
      inSchool: 5,
      waiting: 3,
      pickedUp: 2,
    });
  });

  it('sorts placard numbers as people count, cars then buses, 10 and 5 unless all are asked for', () => {
    const fleet = [
      ...Array.from({ length: 12 }, (_, i) => vehicle(i, 'car', String(120 - i * 10))),
      vehicle(50, 'car', '2', { active: false }),
      ...['10', '2', '1', '3', '4', '5'].map((n, i) => vehicle(60 + i, 'bus', n)),
    ];
    const placards = placardsFor(fleet);
    expect(placards.filter((p) => p.type === 'car').map((p) => p.number)).toEqual([
      '10',
      '20',
      '30',
      '40',
      '50',
      '60',
      '70',
      '80',
      '90',
      '100',
    ]);
    expect(placards.filter((p) => p.type === 'bus').map((p) => p.label)).toEqual([
      'B1',
      'B2',
      'B3',
      'B4',
      'B5',
    ]);
    expect(placardsFor(fleet, true)).toHaveLength(18);
    expect(compareNumbers('A2', 'A10')).toBeLessThan(0);
  });

  it('fills the wait bar to wait minutes over 10, capped at 100%', () => {
    expect(waitBarPercent(150)).toBe(25);
    expect(waitBarPercent(3600)).toBe(100);
  });

  it('filters and exports the queue overview', () => {
    const entry = (
      id: string,
      type: 'car' | 'bus',
      status: QueueEntry['status'],
      batchId: number | null,
    ): QueueEntry => ({
      id,
      sessionId: 1,
      schoolId: 1,
      vehicleId: null,
      vehicleNumber: id,
      vehicleType: type,
      batchId,
      batchNumber: batchId,
      version: 1,
      status,
      position: null,
      entryTime: '2025-01-01T15:00:00.000Z',
      queueTime: '2025-01-01T15:00:00.000Z',
      exitTime: null,
      vehicle: null,
      students: [{ id: 1, firstName: 'Ava', lastName: 'Martinez', grade: '2', classroomId: null }],
    });
    const entries = [
      entry('1', 'car', 'waiting', null),
      entry('2', 'car', 'waiting', 3),
      entry('3', 'bus', 'overflow', null),
    ];
    expect(filterOverview(entries, 'car', 'all').map((e) => e.id)).toEqual(['1', '2']);
    expect(filterOverview(entries, 'all', 'batched').map((e) => e.id)).toEqual(['2']);
    expect(filterOverview(entries, 'bus', 'overflow').map((e) => e.id)).toEqual(['3']);
    const csv = overviewCsvRows(entries, Date.parse('2025-01-01T15:02:05.000Z'));
    expect(csv[0]).toEqual([
      'ID',
      'Type',
      'Family/Route',
      'Children',
      'Status',
      'Batch',
      'Queued At',
      'Wait Time',
    ]);
    expect(csv[3]).toEqual([
      'B3',
      'Bus',
      '—',
      'Ava Martinez',
      'Overflow',
      '',
      '2025-01-01T15:00:00.000Z',
      '02:05',
    ]);
  });
});
