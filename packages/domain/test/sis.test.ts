import { describe, expect, it } from 'vitest';
import {
  emptyCounts,
  gradeFromSis,
  IMPORT_RUN_STALE_MS,
  importProgress,
  isStalledImport,
  namesFromSis,
  nextCheckpoint,
  SIS_SCHOOL_STEPS,
  sameFields,
  sisImportStudentsSchema,
  sisSchoolsQuerySchema,
  stalledMinutes,
  summarizeCounts,
} from '../src/sis';

describe('grades from the student-information system', () => {
  it('writes Clever’s grade names as the rosters do', () => {
    expect(gradeFromSis('Kindergarten')).toBe('K');
    expect(gradeFromSis('PreKindergarten')).toBe('PK');
    expect(gradeFromSis('3')).toBe('3');
    expect(gradeFromSis('03')).toBe('3');
    expect(gradeFromSis('Ungraded')).toBe('');
    expect(gradeFromSis(undefined)).toBe('');
    expect(gradeFromSis('Some very long grade name from a district')).toHaveLength(20);
  });
});

describe('names from the student-information system', () => {
  it('trims, fills a missing part with nothing and joins the full name', () => {
    expect(namesFromSis({ first: ' Ava ', last: 'Lee' })).toEqual({
      firstName: 'Ava',
      lastName: 'Lee',
      name: 'Ava Lee',
    });
    expect(namesFromSis({ first: 'Ava' })).toEqual({ firstName: 'Ava', lastName: '', name: 'Ava' });
    expect(namesFromSis(undefined)).toEqual({ firstName: '', lastName: '', name: '' });
  });
});

describe('what an import compares', () => {
  it('is unchanged when every wanted field is equal (lists in any order, absent as null)', () => {
    expect(sameFields({ a: 1, b: 'x', ids: [2, 1], c: null }, { a: 1, ids: [1, 2], c: undefined })).toBe(
      true,
    );
    expect(sameFields({ a: 1, ids: [1] }, { a: 1, ids: [1, 2] })).toBe(false);
    expect(sameFields({ a: 1 } as { a: number; b?: string }, { b: 'new' })).toBe(false);
  });
});

describe('the final message of an import', () => {
  it('says what changed, kind by kind, with plurals', () => {
    const counts = emptyCounts();
    counts.students = { created: 500, updated: 2, unchanged: 10, deactivated: 1 };
    counts.teachers = { created: 1, updated: 0, unchanged: 0, deactivated: 0 };
    expect(summarizeCounts(counts)).toBe(
      'Imported 1 teacher (1 new), 512 students (500 new, 2 updated, 1 deactivated)',
    );
  });

  it('says nothing changed when all was already up to date', () => {
    const counts = emptyCounts();
    counts.students.unchanged = 1200;
    counts.parents.unchanged = 1;
    expect(summarizeCounts(counts)).toBe('Up to date, nothing changed: 1,200 students, 1 parent');
    expect(summarizeCounts(emptyCounts())).toBe('Nothing to import');
  });
});

describe('import requests', () => {
  it('take Clever ids as Clever writes them and local ids as numbers; classrooms are made by default', () => {
    expect(sisSchoolsQuerySchema.safeParse({ districtId: '5f00000001' }).success).toBe(true);
    expect(sisSchoolsQuerySchema.safeParse({ districtId: '../x' }).success).toBe(false);
    expect(sisImportStudentsSchema.parse({ cleverSchoolId: 'abc', localSchoolId: '3' })).toEqual({
      cleverSchoolId: 'abc',
      localSchoolId: 3,
      createMissingClassrooms: true,
    });
    expect(sisImportStudentsSchema.safeParse({ cleverSchoolId: 'abc', localSchoolId: 0 }).success).toBe(
      false,
    );
  });
});

describe('a stalled import', () => {
  const now = Date.parse('2026-11-25T15:00:00.000Z');
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();

  it('is a running job whose run saved nothing for over five minutes', () => {
    expect(IMPORT_RUN_STALE_MS).toBe(300_000);
    expect(isStalledImport({ status: 'running', updatedAt: at(4 * 60_000) }, now)).toBe(false);
    expect(isStalledImport({ status: 'running', updatedAt: at(5 * 60_000) }, now)).toBe(false);
    expect(isStalledImport({ status: 'running', updatedAt: at(5 * 60_000 + 1) }, now)).toBe(true);
  });

  it('is never a finished or stopped job, however old', () => {
    expect(isStalledImport({ status: 'succeeded', updatedAt: at(60 * 60_000) }, now)).toBe(false);
    expect(isStalledImport({ status: 'failed', updatedAt: at(60 * 60_000) }, now)).toBe(false);
  });

  it('says for how many whole minutes it has not moved', () => {
    expect(stalledMinutes({ updatedAt: at(12 * 60_000 + 59_000) }, now)).toBe(12);
    expect(stalledMinutes({ updatedAt: at(5 * 60_000 + 1) }, now)).toBe(5);
  });
});

describe("a school import's checkpoints and progress", () => {
  const at = (step: string, page = 0, school = 0) => ({
    school,
    step,
    after: page ? `c${page}` : null,
    page,
    counted: 0,
  });

  it('reads the next page of the same step while Clever names one', () => {
    expect(nextCheckpoint(at('students', 2), 'c9')).toEqual({
      school: 0,
      step: 'students',
      after: 'c9',
      page: 3,
      counted: 0,
    });
  });

  it('goes from each step to the next at its last page, and from retiring to the next school', () => {
    const order = SIS_SCHOOL_STEPS.map((step) => nextCheckpoint(at(step, 4), null));
    expect(
      order.map((checkpoint) => [checkpoint.school, checkpoint.step, checkpoint.after, checkpoint.page]),
    ).toEqual([
      [0, 'sections', null, 0],
      [0, 'students', null, 0],
      [0, 'contacts', null, 0],
      [0, 'retire', null, 0],
      [1, 'teachers', null, 0],
    ]);
    expect(order.every((checkpoint) => checkpoint.counted === 0)).toBe(true);
  });

  it('shows students read of the total, other steps by their message, and never 100 % before the end', () => {
    const job = { done: 1200, total: 1500, message: '' };
    expect(importProgress(at('students', 3), job, 1)).toEqual({
      message: 'Importing students: 1,200 of 1,500',
      percent: 54,
    });
    expect(importProgress(at('contacts'), job, 1)).toEqual({ message: 'Importing parents…', percent: 65 });
    expect(importProgress(at('retire', 50), job, 1).percent).toBeLessThan(100);
    // The second of two schools starts half-way.
    expect(importProgress(at('teachers', 0, 1), job, 2).percent).toBe(50);
  });
});
