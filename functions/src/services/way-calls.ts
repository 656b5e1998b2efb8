import {
  calledWith,
  callsOf,
  type DismissalChange,
  isSchoolDay,
  type NotCalledStudent,
  type PlanEntry,
  type StudentSummary,
  type Vehicle,
  wayHomeOn,
} from '@curbside/domain';
import {
  dismissalChanges,
  dismissalPlans,
  keyedDayChanges,
  keyedReads,
  keyedStudentsWithPlans,
  namesForCalls,
  type StoredPlan,
  studentsWithPlans,
} from '@curbside/store';
import { db } from '../lib/context';

/**
 * Who a vehicle's visit calls on a day (issue 52, docs/adr/0022): the car
 * line's use of every way home (`waysHomeOn`'s rule, `wayHomeOn` in the
 * domain). A car calls the children it is registered with whose way home
 * that day is a car (any, or this one) and the children changed to this car
 * that day; a bus, the children whose way that day is this bus (its registered
 * riders without a weekly plan, or on a day with no plan, ride it unless a
 * change says otherwise). The others it
 * is registered with (a bus: its usual riders by their weekly plans) are not
 * called, each with the reason ("Absent today", "Bus B3 today").
 *
 * Reads, after the vehicle: for a car, its children with their plans and the
 * day's changes (their upcoming items and the car's) in one BatchGetItem; for a
 * bus, its riders item and its own upcoming item (the changes naming it), then
 * those students and its registered riders with their plans and upcoming items
 * (one BatchGetItem each, by key: never the school's plans). A third round trip
 * (a bus's: a fourth) only when a child is changed to the car that day (their
 * names) or someone is not called by a bus or program (its name, for the
 * reason): one BatchGetItem for all of them (`namesForCalls`).
 */
export interface VisitCalls {
  called: StudentSummary[];
  notCalled: NotCalledStudent[];
}

const byStudent = (changes: readonly DismissalChange[]) => {
  const map = new Map<number, DismissalChange[]>();
  for (const change of changes) map.set(change.studentId, [...(map.get(change.studentId) ?? []), change]);
  return map;
};

/** The students a change that day sends to this vehicle (the change that decides their day names it). */
const changedTo = (
  vehicle: Pick<Vehicle, 'id' | 'type'>,
  date: string,
  changes: Map<number, DismissalChange[]>,
) => {
  const ways = new Map<number, PlanEntry>();
  for (const [studentId, list] of changes) {
    const entry = wayHomeOn(studentId, date, undefined, list);
    if (entry.source !== 'change') continue;
    // Named: a car way with this car's id (a car way naming none is any family car), or this bus.
    if (calledWith(entry.way, vehicle) && (entry.way as { vehicleId?: number }).vehicleId === vehicle.id)
      ways.set(studentId, entry);
  }
  return ways;
};

/** The way home on `date` of each of `ids` from their plans and changes. */
const waysOf = (
  ids: readonly number[],
  date: string,
  plans: ReadonlyMap<number, StoredPlan>,
  changes: Map<number, DismissalChange[]>,
) => new Map(ids.map((id) => [id, wayHomeOn(id, date, plans.get(id)?.plan, changes.get(id) ?? [])]));

/** A bus's usual riders on `date`: the students whose weekly plan gives that day this bus. */
const usualRiders = (busId: number, date: string, plans: ReadonlyMap<number, StoredPlan>) =>
  [...plans.values()]
    .filter((plan) => {
      const way = wayHomeOn(plan.studentId, date, plan.plan, []).way;
      return way.mode === 'bus' && way.vehicleId === busId;
    })
    .map((plan) => plan.studentId)
    .sort((a, b) => a - b);

/** Who a vehicle's visit calls on `date`, and who it does not (with why). */
export const visitCalls = async (
  schoolId: number,
  date: string,
  vehicle: Pick<Vehicle, 'id' | 'type' | 'studentIds'>,
): Promise<VisitCalls> => {
  let registered: StudentSummary[] = [];
  let candidateIds: number[];
  let ways: Map<number, PlanEntry>;
  let changes: Map<number, DismissalChange[]>;
  // The students read with the plans (a bus's), and which were asked for.
  let known: { ids: Set<number>; students: StudentSummary[] } = { ids: new Set(), students: [] };
  if (vehicle.type === 'car') {
    // The day's changes by key with the children (their upcoming items and the car's), by Query should one overflow.
    const {
      students: riders,
      plans,
      also: kept,
    } = await studentsWithPlans(
      db,
      schoolId,
      vehicle.studentIds,
      keyedDayChanges(schoolId, date, { studentIds: vehicle.studentIds, vehicleId: vehicle.id }),
    );
    changes = byStudent(kept === 'overflow' ? await dismissalChanges.mayFallOn(db, schoolId, date) : kept);
    const order = new Map(vehicle.studentIds.map((id, i) => [id, i]));
    registered = riders.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    ways = waysOf(
      registered.map((student) => student.id),
      date,
      plans,
      changes,
    );
    candidateIds = registered.map((student) => student.id);
  } else {
    // The bus's riders (those whose weekly plan names it on some day) and the changes naming it, by
    // key; then those students, its registered riders, their plans and day's changes, by key.
    const [listed, named] = await keyedReads.run(
      db,
      keyedReads.all(
        dismissalPlans.keyedBusRiders(schoolId, vehicle.id),
        keyedDayChanges(schoolId, date, { studentIds: [], vehicleId: vehicle.id }),
      ),
    );
    const ids = [
      ...listed.keys(),
      ...vehicle.studentIds,
      ...(named === 'overflow' ? [] : named.map((change) => change.studentId)),
    ];
    const [{ students, plans }, kept] = await keyedReads.run(
      db,
      keyedReads.all(
        keyedStudentsWithPlans(schoolId, ids),
        keyedDayChanges(schoolId, date, { studentIds: ids, vehicleId: vehicle.id }),
      ),
    );
    changes = byStudent(
      named === 'overflow' || kept === 'overflow'
        ? await dismissalChanges.mayFallOn(db, schoolId, date)
        : kept,
    );
    // The bus's registered riders still ride it where no weekly plan says otherwise: those
    // without a plan (a school that has not set plans) and, on a day that is no school day
    // (no plan day), all of them; unless a change decides their day.
    const byRegistration = vehicle.studentIds.filter((id) => !isSchoolDay(date) || !plans.has(id));
    candidateIds = [...new Set([...usualRiders(vehicle.id, date, plans), ...byRegistration])];
    ways = waysOf(candidateIds, date, plans, changes);
    for (const id of byRegistration) {
      if (ways.get(id)?.source === 'default')
        ways.set(id, { studentId: id, way: { mode: 'bus', vehicleId: vehicle.id }, source: 'default' });
    }
    known = { ids: new Set(ids), students };
  }
  const extra = [...changedTo(vehicle, date, changes)].filter(([id]) => !ways.has(id));
  for (const [id, entry] of extra) ways.set(id, entry);
  // In the order of before: a bus's candidates, then those changed to the vehicle.
  const inOrder = [...(vehicle.type === 'bus' ? candidateIds : []), ...extra.map(([id]) => id)];
  // The reasons' names: only the buses and programs the ways of those not called name, by key; and
  // the students not read yet (those changed to a car, or a bus whose item overflowed).
  const elsewhere = [...ways.values()].map((entry) => entry.way).filter((way) => !calledWith(way, vehicle));
  const { students: read, options } = await namesForCalls(db, schoolId, {
    studentIds: inOrder.filter((id) => !known.ids.has(id)),
    busIds: elsewhere.flatMap((way) => (way.mode === 'bus' ? [way.vehicleId] : [])),
    programIds: elsewhere.flatMap((way) => (way.mode === 'program' ? [way.programId] : [])),
  });
  const readById = new Map([...known.students, ...read].map((student) => [student.id, student]));
  const candidates = [
    ...registered,
    ...inOrder.flatMap((id) => {
      const student = readById.get(id);
      return student ? [student] : [];
    }),
  ];
  return callsOf(vehicle, candidates, ways, options);
};
