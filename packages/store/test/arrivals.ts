import type { StudentSummary } from '@curbside/domain';
import type { NewQueueEntry } from '../src/queue';

/** The record's actor and retention for changes the store's tests make straight in the store. */
export const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

let at = Date.parse('2030-01-01T15:00:00.000Z');

/** Arrival times one second apart, so the order is known. */
export const nextTime = () => {
  at += 1000;
  return new Date(at).toISOString();
};

/** A car of school 1 arriving at `sessionId`'s line now (see `nextTime`), carrying `riders`. */
export const arrivingCar = (
  sessionId: number,
  vehicleNumber: string,
  riders: StudentSummary[] = [],
): NewQueueEntry => {
  const time = nextTime();
  return {
    sessionId,
    schoolId: 1,
    vehicleId: null,
    vehicleNumber,
    vehicleType: 'car',
    entryTime: time,
    queueTime: time,
    vehicle: null,
    students: riders,
  };
};
