import { UnreleasedStudentsError } from './errors';
import type { QueueEntry, VehicleType } from './queue';
import type { ReleaseMark } from './record';

/**
 * Completing a car or a batch while a child of it was not released by a
 * teacher (issue 50): who they are and the question the screens and the 409
 * ask. Apart from the record's schemas (no zod), so the queue screens' first
 * load can ask it.
 */

/** A child of a car being completed whom no teacher released: named in the 409 and on the screens. */
export interface UnreleasedStudent {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
  classroomId: number | null;
  entryId: string;
  vehicleNumber: string;
  vehicleType: VehicleType;
}

/** The children of the visits being completed that no teacher released (each once, in the visits' order). */
export const unreleasedStudentsOf = (
  entries: readonly Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>[],
  marks: ReadonlyMap<number, ReleaseMark>,
): UnreleasedStudent[] => {
  const seen = new Set<number>();
  return entries.flatMap((entry) =>
    entry.students.flatMap(({ id, firstName, lastName, grade, classroomId }) => {
      if (marks.has(id) || seen.has(id)) return [];
      seen.add(id);
      return [
        {
          id,
          firstName,
          lastName,
          grade,
          classroomId,
          entryId: entry.id,
          vehicleNumber: entry.vehicleNumber,
          vehicleType: entry.vehicleType,
        },
      ];
    }),
  );
};

/** Names shown in the question before "and N more". */
const NAMED_AT_MOST = 5;

/**
 * "Leo Johnson has not been released by a teacher. Complete anyway?" (two:
 * "Leo Johnson and Mia Chen have…"; more than five: "…, Ava Park and 3 more have…").
 */
export const unreleasedQuestion = (
  students: readonly Pick<UnreleasedStudent, 'firstName' | 'lastName'>[],
) => {
  const names = students.map((student) => `${student.firstName} ${student.lastName}`.trim());
  const shown = names.slice(0, NAMED_AT_MOST);
  const more = names.length - shown.length;
  const parts = more > 0 ? [...shown, `${more} more`] : shown;
  const list = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `${list} ${names.length === 1 ? 'has' : 'have'} not been released by a teacher. Complete anyway?`;
};

/** The 409 of a completion with unreleased children: `{ message, unreleased }`. */
export const unreleasedError = (students: UnreleasedStudent[]) =>
  new UnreleasedStudentsError(unreleasedQuestion(students), students);
