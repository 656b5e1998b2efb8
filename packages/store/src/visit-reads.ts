import type { PickupSession, Student, Vehicle, VehicleType, WayOptions } from '@curbside/domain';
import { getAll } from './batch-write';
import type { Db } from './db';
import { planKey, type StoredPlan, toPlan } from './dismissal-plan';
import { sessionKey, sessionOf } from './pickup-session';
import { programKey, toProgram } from './program';
import { studentKey, toStudent } from './student';
import { toVehicle, vehicleIdKey, vehicleKey } from './vehicle';

/**
 * Queueing a vehicle's reads that belong to several entities, each in one
 * BatchGetItem (issue 54: one call where there were two or three). The keys
 * stay their modules'; this module only asks for them together.
 */
type Item = Record<string, unknown>;
const isAt = (key: { pk: string; sk: string }) => (item: Item) => item.pk === key.pk && item.sk === key.sk;

/**
 * The session and the vehicle with this number (active only: a deactivated
 * vehicle has left the car line), read consistently in one BatchGetItem.
 */
export const sessionAndVehicle = async (
  db: Db,
  {
    schoolId,
    sessionId,
    type,
    number,
  }: { schoolId: number; sessionId: number; type: VehicleType; number: string },
): Promise<{ session: PickupSession | undefined; vehicle: Vehicle | undefined }> => {
  const keys = { session: sessionKey(sessionId), vehicle: vehicleKey(schoolId, type, number) };
  const items = await getAll(db, [keys.session, keys.vehicle], true);
  const session = items.find(isAt(keys.session));
  const vehicle = items.find(isAt(keys.vehicle));
  const found = vehicle ? toVehicle(vehicle) : undefined;
  return { session: session ? sessionOf(session) : undefined, vehicle: found?.active ? found : undefined };
};

/**
 * Some students of a school and their weekly plans, in one BatchGetItem (100
 * keys a call): the active students, in id order, and the plans by student
 * (a student without one is absent: a car rider every day).
 */
export const studentsWithPlans = async (
  db: Db,
  schoolId: number,
  ids: readonly number[],
): Promise<{ students: Student[]; plans: Map<number, StoredPlan> }> => {
  const unique = [...new Set(ids)];
  const items = await getAll(
    db,
    unique.flatMap((id) => [studentKey(schoolId, id), planKey(schoolId, id)]),
  );
  const studentsAt = studentKey(schoolId, 0).pk;
  const plansAt = planKey(schoolId, 0).pk;
  const students: Student[] = [];
  const plans = new Map<number, StoredPlan>();
  for (const item of items) {
    if (item.pk === studentsAt) students.push(toStudent(item));
    else if (item.pk === plansAt) plans.set(item.studentId as number, toPlan(item));
  }
  return {
    students: students.filter((student) => student.active).sort((a, b) => a.id - b.id),
    plans,
  };
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
