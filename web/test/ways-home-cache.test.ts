import type { DismissalChangeView } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { patchChanges, patchDayPlan } from '../src/features/ways-home/ways-home.cache';

/** The office's lists follow the live events of ways home (issue 51) without reading them again. */
const change = (fields: Partial<DismissalChangeView>): DismissalChangeView => ({
  id: 1,
  schoolId: 1,
  studentId: 7,
  date: '2026-11-25',
  until: null,
  weekdays: null,
  way: { mode: 'walker' },
  status: 'pending',
  approvedAt: null,
  cancelledFrom: null,
  requestedBy: { id: 3, name: 'Pat Parent', role: 'parent' },
  note: '',
  createdAt: '2026-11-25T14:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  reason: '',
  cancelledBy: null,
  cancelledAt: null,
  language: 'en',
  student: { id: 7, firstName: 'Ava', lastName: 'Martinez', classroomId: 2 },
  ...fields,
});

describe("the office's lists", () => {
  it("take today's new entries for the children the event names, and only for that day", () => {
    const plan = {
      date: '2026-11-25',
      students: [
        { studentId: 7, way: { mode: 'car' } as const, source: 'default' as const },
        { studentId: 8, way: { mode: 'car' } as const, source: 'default' as const },
      ],
    };
    const event = {
      date: '2026-11-25',
      students: [{ studentId: 7, way: { mode: 'walker' } as const, source: 'change' as const, changeId: 1 }],
      change: null,
    };
    expect(patchDayPlan(plan, event)?.students.map((entry) => entry.way.mode)).toEqual(['walker', 'car']);
    expect(patchDayPlan(plan, { ...event, date: '2026-11-26' })).toBe(plan);
  });

  it('keep a pending request in the queue until it is decided, and a day’s change on its day', () => {
    const queue = patchChanges({ changes: [] }, change({}), { kind: 'pending' });
    expect(queue?.changes.map((found) => found.id)).toEqual([1]);
    expect(patchChanges(queue, change({ status: 'approved' }), { kind: 'pending' })?.changes).toEqual([]);
    const today = { kind: 'day', date: '2026-11-25' } as const;
    expect(patchChanges({ changes: [] }, change({ status: 'approved' }), today)?.changes).toHaveLength(1);
    expect(patchChanges({ changes: [] }, change({ date: '2026-11-26' }), today)?.changes).toEqual([]);
  });
});
