import type { PickupSession, Student, Vehicle, VehicleType, WayOptions } from '@curbside/domain';
import { getAll } from './batch-write';
import type { Db } from './db';
import { planKey, type StoredPlan, toPlan } from './dismissal-plan';
import { itemAt, type KeyedRead, keyedReads } from './keyed-read';
import { sessionKey, sessionOf, visitsMarked } from './pickup-session';
import { programKey, toProgram } from './program';
import { activeSk, endedVisits, partition, visitedKey } from './queue-items';
import { studentKey, toStudent } from './student';
import { toVehicle, vehicleIdKey, vehicleKey } from './vehicle';

/**
 * Queueing a vehicle's reads that belong to several entities, each in one
 * BatchGetItem (issue 54: one call where there were two or three). The keys
 * stay their modules'; this module only asks for them together.
 */

/** A vehicle of a school, by type and number, and the session it is queued in. */
export interface VehicleInSession {
  schoolId: number;
  sessionId: number;
  type: VehicleType;
  number: string;
}

/**
 * The session, the vehicle with this number (active only: a deactivated
 * vehicle has left the car line) and whether the vehicle had a visit that
 * ended in the session (`visited`: its marker, `queue-items.ts`; undefined for
 * a session begun before the markers, whose visits a Query finds), and
 * whether a vehicle of that number is in the session's queue now (`queued`:
 * its slot), read consistently in one BatchGetItem.
 */
export interface SessionAndVehicle {
  session: PickupSession | undefined;
  vehicle: Vehicle | undefined;
  visited: boolean | undefined;
  queued: boolean;
}

export const sessionAndVehicle = async (db: Db, place: VehicleInSession): Promise<SessionAndVehicle> =>
  keyedReads.run(db, keyedSessionAndVehicle(place));

/** `sessionAndVehicle` as a keyed read (`keyed-read.ts`, issue 54: in the caller's sign-in read). */
export const keyedSessionAndVehicle = ({
  schoolId,
  sessionId,
  type,
  number,
}: VehicleInSession): KeyedRead<SessionAndVehicle> => {
  const keys = {
    session: sessionKey(sessionId),
    vehicle: vehicleKey(schoolId, type, number),
    visited: visitedKey(sessionId, type, number),
    slot: { pk: partition(sessionId), sk: activeSk(type, number) },
  };
  return {
    keys: [keys.session, keys.vehicle, keys.visited, keys.slot],
    consistent: true,
    from: (found) => {
      const session = itemAt(found, keys.session);
      const vehicle = itemAt(found, keys.vehicle);
      const active = vehicle ? toVehicle(vehicle) : undefined;
      return {
        session: session ? sessionOf(session) : undefined,
        vehicle: active?.active ? active : undefined,
        visited: visitsMarked(session) ? endedVisits(itemAt(found, keys.visited)) : undefined,
        queued: itemAt(found, keys.slot) !== undefined,
      };
    },
  };
};

/**
 * Some students of a school and their weekly plans as a keyed read
 * (`keyed-read.ts`): the active students, in id order, and the plans by
 * student (a student without one is absent: a car rider every day).
 */
export const keyedStudentsWithPlans = (
  schoolId: number,
  ids: readonly number[],
): KeyedRead<{ students: Student[]; plans: Map<number, StoredPlan> }> => {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  return {
    keys: unique.flatMap((id) => [studentKey(schoolId, id), planKey(schoolId, id)]),
    from: (found) => {
      const students: Student[] = [];
      const plans = new Map<number, StoredPlan>();
      for (const id of unique) {
        const student = itemAt(found, studentKey(schoolId, id));
        const plan = itemAt(found, planKey(schoolId, id));
        if (student) students.push(toStudent(student));
        if (plan) plans.set(id, toPlan(plan));
      }
      return { students: students.filter((student) => student.active), plans };
    },
  };
};

/**
 * Some students of a school and their weekly plans, in one BatchGetItem (100
 * keys a call, at once): `keyedStudentsWithPlans`. `also`: another
 * keyed read in the same BatchGetItem (a car's: its children's day's changes,
 * `keyedDayChanges`), answered as `also`.
 */
export const studentsWithPlans = async <T = undefined>(
  db: Db,
  schoolId: number,
  ids: readonly number[],
  also: KeyedRead<T> = keyedReads.none(undefined as T),
): Promise<{ students: Student[]; plans: Map<number, StoredPlan>; also: T }> => {
  const [read, answer] = await keyedReads.run(
    db,
    keyedReads.all(keyedStudentsWithPlans(schoolId, ids), also),
  );
  return { ...read, also: answer };
};

/**
 * What a visit's calls read last, in one BatchGetItem (100 keys a call): the
 * students changed to the vehicle today (active ones, in id order), and the
 * buses and programs the ways of the children it does not call name (for the
 * reason's text: "Bus B3 today"), by key; before issue 54, the school's buses
 * and programs were two Queries. A bus is named by its id item (a
 * deactivated bus by its number too); another school's is left out.
 */
export const namesForCalls = async (
  db: Db,
  schoolId: number,
  wanted: { studentIds: readonly number[]; busIds: readonly number[]; programIds: readonly number[] },
): Promise<{ students: Student[]; options: WayOptions }> => {
  const busAt = new Map([...new Set(wanted.busIds)].map((id) => [vehicleIdKey(id).pk, id]));
  const keys = [
    ...[...new Set(wanted.studentIds)].map((id) => studentKey(schoolId, id)),
    ...[...busAt.keys()].map((pk) => ({ pk, sk: vehicleIdKey(0).sk })),
    ...[...new Set(wanted.programIds)].map((id) => programKey(schoolId, id)),
  ];
  const items = keys.length > 0 ? await getAll(db, keys) : [];
  const studentsAt = studentKey(schoolId, 0).pk;
  const programsAt = programKey(schoolId, 0).pk;
  const students: Student[] = [];
  const options: WayOptions = { buses: [], programs: [] };
  for (const item of items) {
    if (item.pk === studentsAt) students.push(toStudent(item));
    else if (item.pk === programsAt) {
      const { id, name, kind, location, active } = toProgram(item);
      options.programs.push({ id, name, kind, location, active });
    } else {
      const busId = busAt.get(item.pk as string);
      if (busId !== undefined && item.schoolId === schoolId && item.type === 'bus')
        options.buses.push({ id: busId, number: item.number as string });
    }
  }
  return { students: students.filter((student) => student.active).sort((a, b) => a.id - b.id), options };
};
