/**
 * Whether a live message belongs to a school: every school, student,
 * classroom and bus it names is that school's. The many-schools run
 * (`--schools N`) gives every screen, phone, map viewer and driver of a
 * school this check; a message that fails it crossed schools (budget 0).
 * Ids of students, classrooms and schools come from one counter per kind in
 * the table, so another school's id never equals one of this school's; bus
 * ids are numbered apart per school by the benchmark's seed.
 */

export interface SchoolIds {
  schoolId: number;
  studentIds: ReadonlySet<number>;
  classroomIds: ReadonlySet<number>;
  busIds: ReadonlySet<string>;
}

/** Checks every field of a message that names a school, a student, a classroom or a bus, at any depth. */
export const belongsTo =
  (school: SchoolIds) =>
  (message: unknown): boolean => {
    const walk = (value: unknown, key: string | undefined): boolean => {
      if (Array.isArray(value)) return value.every((item) => walk(item, key));
      if (typeof value === 'object' && value !== null) {
        return Object.entries(value).every(([inner, v]) => {
          // A visit's students are summaries: their `id` is a student's.
          if (key === 'students' && inner === 'id') return typeof v !== 'number' || school.studentIds.has(v);
          return walk(v, inner);
        });
      }
      if (key === 'schoolId') return value === null || value === school.schoolId;
      if (key === 'studentId' || key === 'studentIds')
        return typeof value !== 'number' || school.studentIds.has(value);
      if (key === 'classroomId') return typeof value !== 'number' || school.classroomIds.has(value);
      if (key === 'busId') return typeof value !== 'string' || school.busIds.has(value);
      return true;
    };
    return walk(message, undefined);
  };
