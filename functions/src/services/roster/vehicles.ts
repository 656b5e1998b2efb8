import {
  NotFoundError,
  type User,
  ValidationError,
  type Vehicle,
  type VehicleInput,
  type VehicleRow,
  type VehicleType,
} from '@curbside/domain';
import { students, vehicles } from '@curbside/store';
import { db } from '../../lib/context';
import { rosterSchool } from './scope';
import { vehicleRows } from './views';

type ListQuery = {
  schoolId?: number;
  search?: string;
  cursor?: string;
  limit: number;
  type?: VehicleType;
  number?: string;
};

/** A page of the school's active vehicles; with `type` and `number`, that one vehicle (or none). */
export const listVehicles = async (user: User, query: ListQuery) => {
  const school = await rosterSchool(user, query.schoolId, 'read');
  if (query.type && query.number) {
    const vehicle = await vehicles.byNumber(db, school.id, query.type, query.number);
    return { items: await vehicleRows(school.id, vehicle ? [vehicle] : []), next: null };
  }
  const page = await vehicles.page(db, school.id, query);
  return { items: await vehicleRows(school.id, page.items), next: page.next };
};

/** Every student named must be an active student of the school (checked before any write). */
const checkStudents = async (schoolId: number, ids: readonly number[] | undefined) => {
  if (!ids || ids.length === 0) return;
  const found = await students.getMany(db, schoolId, ids);
  if (found.length !== new Set(ids).size) {
    throw new ValidationError('That student does not exist', [
      { path: 'studentIds', message: 'That student does not exist' },
    ]);
  }
};

const fieldsOf = ({ studentIds: _, ...input }: VehicleInput) => input;

const rowOf = async (schoolId: number, vehicle: Vehicle) =>
  (await vehicleRows(schoolId, [vehicle]))[0] as VehicleRow;

/** Registers a car or bus; the front queue knows it (make, model, children) the next time it is queued. */
export const createVehicle = async (user: User, schoolId: number | undefined, input: VehicleInput) => {
  const school = await rosterSchool(user, schoolId, 'write');
  await checkStudents(school.id, input.studentIds);
  const vehicle = await vehicles.create(db, {
    schoolId: school.id,
    ...fieldsOf(input),
    active: true,
    studentIds: [...new Set(input.studentIds ?? [])],
  });
  return rowOf(school.id, vehicle);
};

const activeVehicle = async (schoolId: number, id: number) => {
  const vehicle = await vehicles.get(db, schoolId, id);
  if (!vehicle?.active) throw new NotFoundError('Vehicle not found');
  return vehicle;
};

export const updateVehicle = async (
  user: User,
  id: number,
  schoolId: number | undefined,
  input: VehicleInput,
) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await activeVehicle(school.id, id);
  await checkStudents(school.id, input.studentIds);
  const after: Vehicle = {
    ...before,
    ...fieldsOf(input),
    studentIds: input.studentIds === undefined ? before.studentIds : [...new Set(input.studentIds)],
  };
  return rowOf(school.id, await vehicles.update(db, before, after));
};

/** Deactivates a vehicle: gone from the lists; queued again, its number is an unregistered one. */
export const deactivateVehicle = async (user: User, id: number, schoolId: number | undefined) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await activeVehicle(school.id, id);
  return rowOf(school.id, await vehicles.update(db, before, { ...before, active: false }));
};
