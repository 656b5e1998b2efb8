import { describe, expect, it } from 'vitest';
import {
  completedEventEntry,
  type DismissalActor,
  type DismissalEvent,
  type DismissalEventBody,
  eventEntryOf,
} from '../src/record';
import { pickupsFromEvents, sessionReportCsvRows } from '../src/report';
import { unreleasedQuestion, unreleasedStudentsOf } from '../src/unreleased';

/**
 * The report's rules (issue 50): each child's release is their own (a car
 * with one child unreleased says so for that child only), a removed visit
 * never shows a release made on a later visit, cars still queued at the
 * session's end left in the queue, people are named, the CSV is in the
 * school's time.
 */
const front: DismissalActor = {
  id: 1,
  username: 'front_demo',
  role: 'front_queue_wrangler',
  name: 'Frankie Front',
};
const back: DismissalActor = {
  id: 2,
  username: 'back_demo',
  role: 'back_queue_wrangler',
  name: 'Bailey Back',
};
const teacher: DismissalActor = { id: 3, username: 'teacher_demo', role: 'teacher', name: 'Taylor Teacher' };

const student = (id: number, firstName: string, lastName = 'Johnson') => ({
  id,
  firstName,
  lastName,
  grade: '2',
  classroomId: 12,
});
const leo = student(1, 'Leo');
const mia = student(2, 'Mia');
const ava = student(3, 'Ava');

const visit = (id: string, students = [leo, mia, ava]) =>
  eventEntryOf({ id, vehicleNumber: '112', vehicleType: 'car', students });

let seq = 0;
const event = (at: string, actor: DismissalActor, body: Partial<DismissalEventBody>): DismissalEvent => ({
  id: `${at}#${seq++}`,
  schoolId: 1,
  sessionId: 7,
  at,
  actor,
  kind: 'vehicle_queued',
  entries: [],
  ...body,
});
const released = (at: string, child: ReturnType<typeof student>) =>
  event(at, teacher, { kind: 'student_released', student: child });

describe("a car completed with one child no teacher released (car 112's afternoon)", () => {
  const marks = new Map([
    [leo.id, { releasedAt: '2026-11-24T21:02:00.000Z', releasedBy: teacher }],
    [mia.id, { releasedAt: '2026-11-24T21:03:00.000Z', releasedBy: teacher }],
  ]);
  const car = { id: 'v1', vehicleNumber: '112', vehicleType: 'car' as const, students: [leo, mia, ava] };
  const events = [
    event('2026-11-24T21:00:00.000Z', front, { kind: 'vehicle_queued', entries: [visit('v1')] }),
    released('2026-11-24T21:02:00.000Z', leo),
    released('2026-11-24T21:03:00.000Z', mia),
    event('2026-11-24T21:05:00.000Z', back, {
      kind: 'picked_up',
      entries: [completedEventEntry(car, marks)],
    }),
  ];

  it('asks about that child by name, and only that one', () => {
    const unreleased = unreleasedStudentsOf([car], marks);
    expect(unreleased.map((child) => child.id)).toEqual([ava.id]);
    expect(unreleasedQuestion(unreleased)).toBe(
      'Ava Johnson has not been released by a teacher. Complete anyway?',
    );
  });

  it("reports each child with their own release, the third as completed without a teacher's release", () => {
    const [pickup] = pickupsFromEvents(events);
    expect(pickup?.outcome).toBe('picked_up');
    expect(pickup?.completedBy).toEqual(back);
    expect(
      pickup?.students.map((child) => [
        child.firstName,
        child.releasedAt,
        child.releasedBy,
        child.completedWithoutRelease,
      ]),
    ).toEqual([
      ['Leo', '2026-11-24T21:02:00.000Z', teacher, false],
      ['Mia', '2026-11-24T21:03:00.000Z', teacher, false],
      ['Ava', null, null, true],
    ]);
  });

  it("exports the same in the CSV, in the school's time with the zone in the header", () => {
    const rows = sessionReportCsvRows(pickupsFromEvents(events), 'America/Chicago');
    const header = rows[0] as string[];
    expect(header).toContain('Queued At (America/Chicago)');
    expect(header).toContain('Released At (America/Chicago)');
    expect(header).toContain('Picked Up At (America/Chicago)');
    const at = (name: string) => header.indexOf(name);
    const byChild = new Map(rows.slice(1).map((row) => [row[at('First Name')], row]));
    // 21:02 UTC is 3:02 pm in Chicago in November.
    expect(byChild.get('Leo')?.[at('Released At (America/Chicago)')]).toBe('2026-11-24 15:02:00');
    expect(byChild.get('Leo')?.[at('Released By')]).toBe('Taylor Teacher (teacher)');
    expect(byChild.get('Ava')?.[at('Released At (America/Chicago)')]).toBeNull();
    expect(byChild.get('Ava')?.[at('Released By')]).toBe("Completed without a teacher's release");
    expect(byChild.get('Ava')?.[at('Picked Up At (America/Chicago)')]).toBe('2026-11-24 15:05:00');
    expect(byChild.get('Ava')?.[at('Completed By')]).toBe('Bailey Back (back queue wrangler)');
    expect(byChild.get('Ava')?.[at('Queued By')]).toBe('Frankie Front (front queue wrangler)');
  });
});

describe('a removed visit and the release of a later visit of the same car', () => {
  it('shows no release on the removed visit, and the release on the visit it was made on', () => {
    const events = [
      event('2026-11-24T21:00:00.000Z', front, { kind: 'vehicle_queued', entries: [visit('v1', [leo])] }),
      event('2026-11-24T21:01:00.000Z', front, { kind: 'removed', entries: [visit('v1', [leo])] }),
      event('2026-11-24T21:10:00.000Z', front, { kind: 'vehicle_requeued', entries: [visit('v2', [leo])] }),
      released('2026-11-24T21:12:00.000Z', leo),
    ];
    const [removed, later] = pickupsFromEvents(events);
    expect(removed?.outcome).toBe('removed');
    expect(removed?.students[0]?.releasedAt).toBeNull();
    expect(later?.outcome).toBeNull();
    expect(later?.students[0]?.releasedAt).toBe('2026-11-24T21:12:00.000Z');
  });
});

describe('cars still in the queue when the session ended', () => {
  it('left in the queue at its end (in a running session they are simply in the queue)', () => {
    const queued = event('2026-11-24T21:00:00.000Z', front, {
      kind: 'vehicle_queued',
      entries: [visit('v1')],
    });
    expect(pickupsFromEvents([queued])[0]?.outcome).toBeNull();
    const ended = event('2026-11-24T22:00:00.000Z', front, { kind: 'session_ended' });
    const [pickup] = pickupsFromEvents([queued, ended]);
    expect(pickup?.outcome).toBe('left_in_queue_at_end');
    expect(pickup?.endedAt).toBe('2026-11-24T22:00:00.000Z');
    expect(sessionReportCsvRows([pickup as NonNullable<typeof pickup>], 'America/Chicago')[1]?.[2]).toBe(
      'left_in_queue_at_end',
    );
  });
});

describe('the question', () => {
  it('names two children with "and", and more than five with a count', () => {
    expect(unreleasedQuestion([leo, mia])).toBe(
      'Leo Johnson and Mia Johnson have not been released by a teacher. Complete anyway?',
    );
    const seven = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((name, i) => student(10 + i, name, 'Park'));
    expect(unreleasedQuestion(seven)).toBe(
      'A Park, B Park, C Park, D Park, E Park and 2 more have not been released by a teacher. Complete anyway?',
    );
  });
});
