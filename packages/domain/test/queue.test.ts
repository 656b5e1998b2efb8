import { describe, expect, it } from 'vitest';
import { LONG_PRESS_MS, SWIPE_REMOVE_PX } from '../src/car-line';
import { ordinal } from '../src/format';
import {
  batchMinutes,
  canTransition,
  matchesQueueSearch,
  nextForBatch,
  orderQueue,
  positionLabel,
  QUEUE_STATUSES,
  type QueueEntry,
  type QueueStatus,
  vehicleNumberProblem,
} from '../src/queue';
import { vehicleNumberSchema } from '../src/queue-schemas';

describe('queue status changes', () => {
  // The documented table: completed is final; a vehicle may stay where it is unless it is completed.
  const allowed: ReadonlyArray<[QueueStatus, QueueStatus]> = [
    ['waiting', 'waiting'],
    ['waiting', 'ready'],
    ['waiting', 'overflow'],
    ['waiting', 'completed'],
    ['ready', 'waiting'],
    ['ready', 'ready'],
    ['ready', 'overflow'],
    ['ready', 'completed'],
    ['overflow', 'waiting'],
    ['overflow', 'overflow'],
    ['overflow', 'completed'],
  ];
  // Every other pair of statuses is refused.
  const refused = QUEUE_STATUSES.flatMap((from) =>
    QUEUE_STATUSES.filter((to) => !allowed.some(([a, b]) => a === from && b === to)).map(
      (to) => [from, to] as [QueueStatus, QueueStatus],
    ),
  );

  it.each(allowed)('lets a vehicle go from %s to %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it.each(refused)('refuses a vehicle going from %s to %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });
});

type Line = Pick<QueueEntry, 'id' | 'entryTime' | 'vehicleType' | 'status'>;
const at = (second: number) => new Date(Date.UTC(2026, 2, 2, 15, 0, second)).toISOString();
const line = (
  id: string,
  second: number,
  vehicleType: Line['vehicleType'] = 'car',
  status: QueueStatus = 'waiting',
) => ({ id, entryTime: at(second), vehicleType, status }) satisfies Line;

describe('queue order', () => {
  it('puts vehicles in arrival order and numbers cars and buses each from 1', () => {
    const ordered = orderQueue([line('c', 3), line('b1', 2, 'bus'), line('a', 1), line('b2', 4, 'bus')]);
    expect(ordered.map((entry) => [entry.id, entry.position])).toEqual([
      ['a', 1],
      ['b1', 1],
      ['c', 2],
      ['b2', 2],
    ]);
  });

  it('breaks a tie in arrival time by id, so every screen shows the same order', () => {
    const ordered = orderQueue([line('z', 1), line('m', 1), line('a', 1)]);
    expect(ordered.map((entry) => [entry.id, entry.position])).toEqual([
      ['a', 1],
      ['m', 2],
      ['z', 3],
    ]);
  });

  it('gives a completed pickup no position and keeps the others dense', () => {
    const ordered = orderQueue([
      line('a', 1),
      line('b', 2, 'car', 'completed'),
      line('c', 3, 'car', 'overflow'),
    ]);
    expect(ordered.map((entry) => [entry.id, entry.position])).toEqual([
      ['a', 1],
      ['b', null],
      ['c', 2],
    ]);
  });

  it('leaves the list it was given as it was', () => {
    const given = [line('b', 2), line('a', 1)];
    orderQueue(given);
    expect(given.map((entry) => entry.id)).toEqual(['b', 'a']);
  });
});

describe('position labels', () => {
  it.each([
    [1, 1, 'Only vehicle in queue'],
    [1, 0, 'Only vehicle in queue'],
    [1, 2, '1st from front, 2nd from back'],
    [2, 3, '2nd from front, 2nd from back'],
    [3, 5, '3rd from front, 3rd from back'],
    [4, 4, '4th from front, 1st from back'],
    [11, 23, '11th from front, 13th from back'],
    [21, 22, '21st from front, 2nd from back'],
  ])('labels place %i of %i as "%s"', (position, total, label) => {
    expect(positionLabel(position, total, ordinal)).toBe(label);
  });
});

describe('queue search', () => {
  const entry = {
    vehicleNumber: '101',
    vehicle: {
      id: 1,
      number: '101',
      type: 'car' as const,
      active: true,
      parentName: 'Jordan Reyes',
      parentPhone: null,
      alternateContactName: null,
      alternateContactPhone: null,
      make: 'Toyota',
      model: 'Sienna',
      color: 'Silver',
      licensePlate: null,
      notes: null,
    },
    students: [{ id: 7, firstName: 'Ava', lastName: 'Okafor', grade: '2', classroomId: null }],
  };

  it.each([
    ['the vehicle number', '10'],
    ['the parent name', 'jordan REYES'],
    ['the make', 'TOYOTA'],
    ['the model', 'sien'],
    ['the color', 'silver'],
    ['a student first name', 'ava'],
    ['a student last name', 'OKAFOR'],
  ])('finds a vehicle by %s, whatever the case', (_, search) => {
    expect(matchesQueueSearch(entry, search)).toBe(true);
  });

  it('ignores spaces around the search', () => {
    expect(matchesQueueSearch(entry, '  ava  ')).toBe(true);
  });

  it('leaves out a vehicle that matches nothing', () => {
    expect(matchesQueueSearch(entry, 'honda')).toBe(false);
  });

  it('shows every vehicle for an empty search', () => {
    expect(matchesQueueSearch({ ...entry, vehicleNumber: '7', vehicle: null, students: [] }, '  ')).toBe(
      true,
    );
  });

  it('finds an unregistered vehicle by its number only', () => {
    const unregistered = { vehicleNumber: '9999', vehicle: null, students: [] };
    expect(matchesQueueSearch(unregistered, '999')).toBe(true);
    expect(matchesQueueSearch(unregistered, 'toyota')).toBe(false);
  });
});

describe('add to batch', () => {
  type Candidate = Pick<QueueEntry, 'status' | 'batchId' | 'vehicleType'> & { id: string };
  const candidate = (id: string, fields: Partial<Candidate> = {}): Candidate => ({
    id,
    status: 'waiting',
    batchId: null,
    vehicleType: 'car',
    ...fields,
  });

  it('takes the first waiting car not yet in a batch, skipping the others', () => {
    const ordered = [
      candidate('bus', { vehicleType: 'bus' }),
      candidate('batched', { batchId: 1 }),
      candidate('ready', { status: 'ready' }),
      candidate('overflow', { status: 'overflow' }),
      candidate('first'),
      candidate('second'),
    ];
    expect(nextForBatch(ordered, 'car')?.id).toBe('first');
  });

  it('takes a bus for a bus batch', () => {
    const ordered = [candidate('car'), candidate('bus', { vehicleType: 'bus' })];
    expect(nextForBatch(ordered, 'bus')?.id).toBe('bus');
  });

  it('finds nothing when no vehicle of the type is waiting', () => {
    const ordered = [candidate('batched', { batchId: 2 }), candidate('bus', { vehicleType: 'bus' })];
    expect(nextForBatch(ordered, 'car')).toBeUndefined();
  });
});

describe('batch duration', () => {
  const startTime = '2026-03-02T15:00:00.000Z';
  const after = (seconds: number) => new Date(Date.parse(startTime) + seconds * 1000).toISOString();

  it.each([
    [0, 0],
    [29, 0],
    [30, 1],
    [7 * 60 + 29, 7],
    [7 * 60 + 30, 8],
    [60 * 60, 60],
  ])('shows a batch that took %i s as %i whole minutes', (seconds, minutes) => {
    expect(batchMinutes({ startTime, endTime: after(seconds) })).toBe(minutes);
  });

  it('counts a loading batch up to now', () => {
    const now = Date.parse(startTime) + 4 * 60_000 + 10_000;
    expect(batchMinutes({ startTime, endTime: null }, now)).toBe(4);
  });
});

describe('press and swipe gestures', () => {
  it('opens the vehicle card menu after a long press of 800 ms', () => {
    expect(LONG_PRESS_MS.cardMenu).toBe(800);
  });

  it('raises a help alert after a long press of 800 ms', () => {
    expect(LONG_PRESS_MS.help).toBe(800);
  });

  it('raises an emergency alert only after a long press of 1000 ms', () => {
    expect(LONG_PRESS_MS.emergency).toBe(1000);
  });

  it('removes a vehicle on a swipe of more than 300 px', () => {
    expect(SWIPE_REMOVE_PX).toBe(300);
  });
});

describe('vehicle number rule without zod (the front queue form)', () => {
  it('says what the API schema says, for every kind of number typed', () => {
    for (const typed of [
      '',
      '   ',
      '12',
      ' 12 ',
      'AB12',
      'a'.repeat(12),
      'a'.repeat(13),
      '12-4',
      '1 2',
      'ñ1',
      '!'.repeat(13),
    ]) {
      const parsed = vehicleNumberSchema.safeParse(typed);
      expect(vehicleNumberProblem(typed), JSON.stringify(typed)).toBe(
        parsed.success ? null : (parsed.error.issues[0]?.message ?? null),
      );
    }
  });
});
