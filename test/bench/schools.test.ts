import { describe, expect, it } from 'vitest';
import { belongsTo } from './belongs';
import { schoolFiguresOf } from './schools';
import { checkSchools, formatSchools } from './schools-report';
import { concernOf, concerns } from './screens';
import type { KindTraffic, SchoolsReport, TrafficKind } from './types';

/** The many-schools run's arithmetic and checks, and the per-message checks its screens make, without a server. */

const school = {
  schoolId: 7,
  studentIds: new Set([101, 102]),
  classroomIds: new Set([11, 12]),
  busIds: new Set(['B1-1', 'B1-2']),
};

describe('belongsTo', () => {
  const belongs = belongsTo(school);

  it('passes a message naming only the school’s own records', () => {
    const queued = {
      type: 'VEHICLE_QUEUED',
      sessionId: 3,
      data: { entry: { id: 'v1', schoolId: 7, students: [{ id: 101, classroomId: 11 }] } },
    };
    expect(belongs(queued)).toBe(true);
    expect(belongs({ type: 'QUEUE_UPDATE', data: { studentId: 102 } })).toBe(true);
    expect(belongs({ type: 'BUS_LOCATIONS', data: { buses: [{ busId: 'B1-2' }], second: 1 } })).toBe(true);
    expect(belongs({ type: 'pong' })).toBe(true);
  });

  it('catches another school, student, classroom or bus at any depth', () => {
    const entry = (of: object) => ({ type: 'VEHICLE_QUEUED', data: { entry: { schoolId: 7, ...of } } });
    expect(belongs(entry({ schoolId: 8 }))).toBe(false);
    expect(belongs(entry({ students: [{ id: 999, classroomId: 11 }] }))).toBe(false);
    expect(belongs(entry({ students: [{ id: 101, classroomId: 99 }] }))).toBe(false);
    expect(belongs({ type: 'STUDENT_STATUS_UPDATE', data: { studentId: 999 } })).toBe(false);
    expect(belongs({ type: 'BUS_LOCATIONS', data: { buses: [{ busId: 'B2-1' }] } })).toBe(false);
  });
});

describe('concernOf', () => {
  const classroomOf = (studentId: number) => (studentId === 102 ? 12 : undefined);

  it('names the classrooms of a car-line event’s students, as the server routes it', () => {
    const queued = {
      type: 'VEHICLE_QUEUED',
      sessionId: 3,
      data: { entry: { students: [{ classroomId: 11 }, { classroomId: 11 }, { classroomId: null }] } },
    };
    expect(concernOf(queued, classroomOf)).toEqual([11]);
    const release = { type: 'STUDENT_STATUS_UPDATE', sessionId: 3, data: { studentId: 102 } };
    expect(concernOf(release, classroomOf)).toEqual([12]);
    expect(concerns([12], [11])).toBe(false);
    expect(concerns([12], [11, 12])).toBe(true);
  });

  it('sends alerts and events outside a session to every staff screen', () => {
    expect(concernOf({ type: 'ALERT_CREATED', sessionId: 3, data: {} }, classroomOf)).toBe('all');
    expect(concernOf({ type: 'VEHICLE_QUEUED', data: { entry: { students: [] } } }, classroomOf)).toBe('all');
    expect(concerns('all', [11])).toBe(true);
  });
});

const traffic = (out: number, connections: number): KindTraffic => ({ connections, in: 0, out });
const kinds: Record<TrafficKind, KindTraffic> = {
  front: traffic(400, 4),
  back: traffic(200, 2),
  teacher: traffic(60, 2),
  'admin map': traffic(40, 2),
  parent: traffic(50, 10),
  'map viewer': traffic(100, 5),
  driver: traffic(0, 2),
  anonymous: traffic(0, 5),
};

const figures = (change: Partial<Parameters<typeof schoolFiguresOf>[0]> = {}) =>
  schoolFiguresOf({
    schoolId: 7,
    cars: 40,
    run: { seconds: 20, timedOut: false, queued: 40 },
    leftInQueue: 0,
    traffic: kinds,
    events: 700,
    busMessages: 140,
    published: 100,
    expected: [100, 100, 30],
    received: [100, 99, 31],
    outside: 0,
    crossed: 0,
    ...change,
  });

describe('schoolFiguresOf', () => {
  it('counts posts per second as run and over a real 30-minute dismissal, and the schools a region serves', () => {
    const school = figures();
    // 850 posts over 20 s; 32 sockets.
    expect([school.posts, school.sockets, school.postsPerSecond]).toEqual([850, 32, 42.5]);
    // 700 events over 1,800 s, 140 bus messages over 20 s, 32 pongs every 30 s.
    expect(school.realPostsPerSecond).toBeCloseTo(700 / 1800 + 7 + 32 / 30, 2);
    expect(school.schoolsPerQuota).toBe(Math.floor(10_000 / 42.5));
    expect([school.lost, school.extra]).toEqual([1, 1]);
  });
});

describe('checkSchools', () => {
  const report = (change: Partial<Parameters<typeof schoolFiguresOf>[0]> = {}): SchoolsReport => ({
    startedAt: '2026-11-27T09:00:00.000Z',
    scale: 0.1,
    schools: 2,
    plan: {
      students: 200,
      cars: 40,
      probeCars: 5,
      classrooms: 8,
      front: 4,
      back: 2,
      teachers: 2,
      parents: 10,
    },
    arrivalWindowSec: 18,
    seconds: 21,
    serverPosts: 1700,
    serverPostsPerSecond: 81,
    perSchool: [
      figures({ received: [100, 100, 30] }),
      figures({ schoolId: 8, received: [100, 100, 30], ...change }),
    ],
  });

  it('passes a clean run and prints each school and the region’s quota', () => {
    const checks = checkSchools(report());
    expect(checks.every((check) => check.pass)).toBe(true);
    const text = formatSchools(report(), checks);
    expect(text).toContain('serves about 235 schools of this size rushing at the same moment');
    expect(text.split('\n').filter((line) => line.startsWith('PASS  '))).toHaveLength(3);
  });

  it('fails on one crossed message, a teacher’s event of another classroom, a lost event or an unfinished school', () => {
    const failed = (change: Partial<Parameters<typeof schoolFiguresOf>[0]>) =>
      checkSchools(report(change)).filter((check) => !check.pass).length;
    expect(failed({ crossed: 1 })).toBe(1);
    expect(failed({ outside: 1 })).toBe(1);
    expect(failed({ received: [100, 99, 30] })).toBe(1);
    expect(failed({ run: { seconds: 20, timedOut: true, queued: 30 } })).toBe(1);
  });
});
