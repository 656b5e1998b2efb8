import { describe, expect, it } from 'vitest';
import { confirmsErase, erasedStudentName, namesStudent, scrubStudent } from '../src/student-data';

const ada = { id: 7, firstName: 'Ada', lastName: 'Lovelace' };

describe("a student's erasure (issue 55)", () => {
  it('is confirmed by the first and last name, spacing and case aside, and nothing else', () => {
    expect(confirmsErase(ada, 'Ada Lovelace')).toBe(true);
    expect(confirmsErase(ada, '  ada   LOVELACE ')).toBe(true);
    for (const other of ['Ada', 'Lovelace Ada', '', '   ', 'Ada Lovelac'])
      expect(confirmsErase(ada, other)).toBe(false);
  });

  it('names the student "Erased student #id" in a stored event, a visit and any text, and keeps the rest', () => {
    const event = {
      kind: 'picked_up',
      at: '2026-11-23T20:00:00.000Z',
      entries: [
        {
          vehicleNumber: '12',
          students: [
            { id: 7, firstName: 'Ada', lastName: 'Lovelace', grade: '2', classroomId: 3 },
            { id: 8, firstName: 'Alan', lastName: 'Turing', grade: '2', classroomId: 3 },
          ],
        },
      ],
      releases: [{ studentId: 7, releasedAt: null, releasedBy: null }],
      search: 'ada lovelace alan turing',
      note: 'Lovelace, Ada and Ada L. go together',
    };
    const scrubbed = scrubStudent(event, ada);
    expect(scrubbed.entries[0]?.students).toEqual([
      { id: 7, firstName: 'Erased student #7', lastName: '', grade: '2', classroomId: 3 },
      { id: 8, firstName: 'Alan', lastName: 'Turing', grade: '2', classroomId: 3 },
    ]);
    expect(scrubbed.releases).toEqual(event.releases);
    expect(scrubbed.search).toBe('Erased student #7 alan turing');
    expect(scrubbed.note).toBe('Erased student #7 and Erased student #7 go together');
    expect(erasedStudentName(7)).toBe('Erased student #7');
  });

  it('finds the events that name a student by id, not those of another child', () => {
    expect(namesStudent({ entries: [{ students: [{ id: 7, firstName: 'Ada' }] }] }, 7)).toBe(true);
    expect(namesStudent({ studentId: 7 }, 7)).toBe(true);
    expect(namesStudent({ entries: [{ students: [{ id: 8, firstName: 'Alan' }] }], sessionId: 7 }, 7)).toBe(
      false,
    );
  });
});
