import { describe, expect, it } from 'vitest';
import {
  busStateOf,
  callsOf,
  changedTodayText,
  countByWay,
  displayBoardOf,
  notComingQuestion,
  releasedBy,
  type WayOptions,
} from '../src';

/** Who the car line calls, and releases by way home (issue 52, ADR 0022): the pure rules. */
const options: WayOptions = {
  buses: [{ id: 30, number: '3' }],
  programs: [{ id: 7, name: 'Kids Club', kind: 'after_care', location: 'Gym', active: true }],
};
const kid = (id: number, firstName = `Kid${id}`) => ({
  id,
  firstName,
  lastName: 'Smith',
  grade: '2',
  classroomId: 12,
});
const car = { id: 101, type: 'car' as const };

describe('who a visit calls', () => {
  it('a car calls its car riders and the child changed to it; the others are struck with the reason', () => {
    const ways = new Map([
      [1, { way: { mode: 'car' as const } }],
      [2, { way: { mode: 'absent' as const } }],
      [3, { way: { mode: 'bus' as const, vehicleId: 30 } }],
      [4, { way: { mode: 'car' as const, vehicleId: 101, vehicleNumber: '101' } }],
      [5, { way: { mode: 'car' as const, vehicleId: 102, vehicleNumber: '102' } }],
      [6, { way: { mode: 'program' as const, programId: 7 } }],
    ]);
    const { called, notCalled } = callsOf(
      car,
      [1, 2, 3, 4, 5, 6].map((id) => kid(id)),
      ways,
      options,
    );
    expect(called.map((student) => student.id)).toEqual([1, 4]);
    expect(notCalled.map(({ id, reason }) => [id, reason])).toEqual([
      [2, 'Absent today'],
      [3, 'Bus B3 today'],
      [5, 'Car 102 today'],
      [6, 'Kids Club today'],
    ]);
  });

  it('a bus calls only the children whose way today is this bus; a child without a way is a car rider', () => {
    const bus = { id: 30, type: 'bus' as const };
    const ways = new Map([
      [1, { way: { mode: 'bus' as const, vehicleId: 30 } }],
      [2, { way: { mode: 'walker' as const } }],
    ]);
    const { called, notCalled } = callsOf(bus, [kid(1), kid(2), kid(3)], ways, options);
    expect(called.map((student) => student.id)).toEqual([1]);
    expect(notCalled.map(({ id, reason }) => [id, reason])).toEqual([
      [2, 'Walker today'],
      [3, 'Car rider today'],
    ]);
  });

  it('asks before queueing a car none of whose children comes, naming at most four', () => {
    const notCalled = [1, 2, 3, 4, 5].map((id) => ({
      ...kid(id, `K${id}`),
      way: { mode: 'absent' as const },
      reason: 'Absent today',
    }));
    expect(notComingQuestion('Car 112', notCalled.slice(0, 1))).toBe(
      'Nobody in Car 112 goes home in it today (K1 Smith: Absent today). Queue it anyway?',
    );
    expect(notComingQuestion('Car 112', notCalled)).toBe(
      'Nobody in Car 112 goes home in it today (K1 Smith: Absent today; K2 Smith: Absent today; K3 Smith: Absent today; K4 Smith: Absent today; 1 more). Queue it anyway?',
    );
  });
});

describe('the teacher screen by way home', () => {
  it('releases by way: walkers, one bus, one program', () => {
    expect(releasedBy({ mode: 'walker' }, { mode: 'walker' })).toBe(true);
    expect(releasedBy({ mode: 'bus', vehicleId: 30 }, { mode: 'bus', vehicleId: 30 })).toBe(true);
    expect(releasedBy({ mode: 'bus', vehicleId: 31 }, { mode: 'bus', vehicleId: 30 })).toBe(false);
    expect(releasedBy({ mode: 'program', programId: 7 }, { mode: 'program', programId: 8 })).toBe(false);
    expect(releasedBy({ mode: 'absent' }, { mode: 'walker' })).toBe(false);
  });

  it('counts the groups, badges a change of today, and tells a bus’s state', () => {
    expect(
      countByWay([{ today: { way: { mode: 'walker' } } }, { today: { way: { mode: 'absent' } } }, {}]),
    ).toEqual({ car: 1, bus: 0, walker: 1, program: 0, absent: 1 });
    expect(
      changedTodayText(
        { way: { mode: 'program', programId: 7 }, source: 'change', usual: { mode: 'bus', vehicleId: 30 } },
        options,
      ),
    ).toBe('Changed today: Bus B3 → Kids Club');
    expect(changedTodayText({ way: { mode: 'walker' }, source: 'default' }, options)).toBeNull();
    expect(busStateOf(undefined)).toBe('not here');
    expect(busStateOf({ status: 'waiting', batchId: null })).toBe('arrived');
    expect(busStateOf({ status: 'waiting', batchId: 4 })).toBe('loading');
    expect(busStateOf({ status: 'completed', batchId: 4 })).toBe('not here');
  });
});

describe('the hallway display by way home', () => {
  it('groups walkers and each program’s children released in the last minutes, first names and last initials', () => {
    const at = '2026-11-25T21:00:00.000Z';
    const board = displayBoardOf(9, [], [], new Map(), [
      { releasedAt: at, way: { mode: 'walker', name: 'Walker' }, student: kid(1, 'Ava') },
      { releasedAt: at, way: { mode: 'program', programId: 7, name: 'Kids Club' }, student: kid(2, 'Leo') },
      { releasedAt: at, way: { mode: 'walker', name: 'Walker' }, student: kid(3, 'Mia') },
      // A bus's riders go with their bus's group.
      { releasedAt: at, way: { mode: 'bus', vehicleId: 30, name: 'Bus B3' }, student: kid(4, 'Noah') },
    ]);
    expect(
      board.groups.map((group) => ({
        lane: group.lane,
        title: group.title,
        shownUntil: group.shownUntil,
        names: group.vehicles.flatMap((vehicle) =>
          vehicle.students.map((s) => `${s.firstName} ${s.lastInitial}.`),
        ),
      })),
    ).toEqual([
      {
        lane: 'walker',
        title: undefined,
        shownUntil: '2026-11-25T21:05:00.000Z',
        names: ['Ava S.', 'Mia S.'],
      },
      { lane: 'program', title: 'Kids Club', shownUntil: '2026-11-25T21:05:00.000Z', names: ['Leo S.'] },
    ]);
  });
});
