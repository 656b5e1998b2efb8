import { gradeFromSis, namesFromSis, type Student, sameFields } from '@curbside/domain';
import { nextIds, students } from '@curbside/store';
import { db } from '../../../lib/context';
import type { CleverUser } from '../clever';
import type { SchoolState, Tally } from '../school-state';
import type { SchoolStep } from './step';

/** Students: by Clever id; their classroom from their section (else the one they had). */
const importStudents = async (state: SchoolState, page: CleverUser[], tally: Tally) => {
  const puts: Student[] = [];
  const fresh: Array<Omit<Student, 'id'>> = [];
  for (const person of page) {
    const { firstName, lastName } = namesFromSis(person.name);
    const existing = state.students.get(person.id);
    const section = state.sectionOf.get(person.id);
    const room = section ? state.rooms.get(section) : undefined;
    const wanted = {
      firstName,
      lastName,
      grade: gradeFromSis(person.roles?.student?.grade),
      classroomId: room?.id ?? existing?.classroomId ?? null,
      active: true,
    };
    if (existing) {
      if (!sameFields(existing, wanted)) {
        const changed = { ...existing, ...wanted };
        puts.push(changed);
        state.students.set(person.id, changed);
        tally('students', 'updated');
      } else tally('students', 'unchanged');
    } else {
      fresh.push({
        schoolId: state.school.id,
        ...wanted,
        parentName: null,
        parentPhone: null,
        parentEmail: null,
        notes: null,
        cleverId: person.id,
      });
      tally('students', 'created');
    }
  }
  const ids = await nextIds(db, 'student', fresh.length);
  const made = fresh.map((student, i) => ({ ...student, id: ids[i] as number }));
  for (const student of made) state.students.set(student.cleverId as string, student);
  await students.putMany(db, [...puts, ...made]);
};

export const studentsStep: SchoolStep<CleverUser> = {
  read: ({ client, target, checkpoint }) =>
    client.page<CleverUser>(`/v3.0/schools/${target.cleverSchoolId}/users`, checkpoint.after, {
      role: 'student',
    }),
  apply: async ({ state, job, tally }, records) => {
    await importStudents(state, records, tally);
    job.done += records.length;
    return undefined;
  },
  seenIds: (records) => ({ ids: records.map((user) => user.id) }),
};
