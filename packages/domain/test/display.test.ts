import { describe, expect, it } from 'vitest';
import { displayBoardOf } from '../src/display';
import type { Batch, QueueEntry } from '../src/queue';

/** The hallway display's board (issues 32 and 50): who shows, in which group. */
const student = (id: number, firstName: string) => ({
  id,
  firstName,
  lastName: 'Johnson',
  grade: '2',
  classroomId: 12,
});
const entry = (number: string, change: Partial<QueueEntry> = {}): QueueEntry => ({
  id: `7-car-${number}-1-abc`,
  sessionId: 7,
  schoolId: 1,
  vehicleId: null,
  vehicleNumber: number,
  vehicleType: 'car',
  status: 'waiting',
  batchId: null,
  batchNumber: null,
  position: null,
  entryTime: '2026-11-24T21:00:00.000Z',
  queueTime: '2026-11-24T21:00:00.000Z',
  exitTime: null,
  version: 1,
  vehicle: null,
  students: [student(1, 'Leo'), student(2, 'Mia'), student(3, 'Ava')],
  ...change,
});
const loading: Batch = {
  id: 40,
  sessionId: 7,
  schoolId: 1,
  batchNumber: 3,
  vehicleType: 'car',
  status: 'loading',
  currentCount: 1,
  maxCapacity: 8,
  startTime: '2026-11-24T21:05:00.000Z',
  endTime: null,
  version: 2,
};

describe("the hallway display's board", () => {
  it('shows a child a teacher released while the car still waits for a batch, and only that child', () => {
    const board = displayBoardOf(7, [entry('112')], [], new Map([[3, '2026-11-24T21:02:00.000Z']]));
    expect(board.groups).toEqual([
      {
        batchNumber: null,
        lane: 'car',
        calledAt: '2026-11-24T21:02:00.000Z',
        vehicles: [{ vehicleNumber: '112', students: [{ id: 3, firstName: 'Ava', lastInitial: 'J' }] }],
      },
    ]);
  });

  it('shows nobody of a waiting car no teacher released, and every child of a car in a loading batch', () => {
    expect(displayBoardOf(7, [entry('112')], []).groups).toEqual([]);
    const batched = entry('112', { batchId: 40, batchNumber: 3 });
    const [group] = displayBoardOf(7, [batched], [loading]).groups;
    expect(group?.batchNumber).toBe(3);
    expect(group?.vehicles[0]?.students.map((child) => child.firstName)).toEqual(['Leo', 'Mia', 'Ava']);
  });

  it('shows nobody of a car in the overflow area', () => {
    const board = displayBoardOf(
      7,
      [entry('112', { status: 'overflow' })],
      [],
      new Map([[3, '2026-11-24T21:02:00.000Z']]),
    );
    expect(board.groups).toEqual([]);
  });
});
