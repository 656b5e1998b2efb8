/** Builders of the roster tests: a classroom, a student, a vehicle, and import rows that validate. */
import { expect } from 'vitest';
import { newVehicle } from '../../../test/support/vehicles';
import type { Classroom } from '../src/pickup';
import type { Vehicle } from '../src/queue';
import type { Student } from '../src/roster';
import { type ImportRow, validateRows } from '../src/roster-import';

export const room = (
  id: number,
  name: string,
  grade: string,
  teacherId: number | null = null,
): Classroom => ({
  id,
  schoolId: 1,
  name,
  grade,
  teacherId,
  active: true,
});
export const student = (
  id: number,
  firstName: string,
  lastName: string,
  grade: string,
  extra: Partial<Student> = {},
): Student => ({
  id,
  schoolId: 1,
  firstName,
  lastName,
  grade,
  classroomId: null,
  active: true,
  parentName: null,
  parentPhone: null,
  parentEmail: null,
  notes: null,
  ...extra,
});
export const vehicle = (
  id: number,
  type: 'car' | 'bus',
  number: string,
  extra: Partial<Vehicle> = {},
): Vehicle => ({ id, ...newVehicle(1, number, type), ...extra });
export const rows = <K extends 'students' | 'teachers' | 'parents' | 'vehicles'>(
  kind: K,
  records: Array<Record<string, string>>,
): Array<ImportRow<K>> => {
  const { rows: valid, errors } = validateRows(kind, records);
  expect(errors).toEqual([]);
  return valid;
};
