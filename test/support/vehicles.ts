import type { Vehicle } from '@curbside/domain';

/**
 * A vehicle as `vehicles.create` takes it, with no details on file unless
 * `extra` gives them: the one builder of the tests, the benchmark and the
 * roster tests (which add an id).
 */
export const newVehicle = (
  schoolId: number,
  number: string,
  type: 'car' | 'bus',
  extra: Partial<Omit<Vehicle, 'id' | 'schoolId' | 'number' | 'type'>> = {},
): Omit<Vehicle, 'id'> => ({
  schoolId,
  number,
  type,
  active: true,
  parentName: null,
  parentPhone: null,
  alternateContactName: null,
  alternateContactPhone: null,
  make: null,
  model: null,
  color: null,
  licensePlate: null,
  notes: null,
  studentIds: [],
  ...extra,
});
