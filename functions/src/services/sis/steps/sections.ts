import { type Classroom, gradeFromSis, sameFields } from '@curbside/domain';
import { classrooms, nextIds } from '@curbside/store';
import { db } from '../../../lib/context';
import type { CleverSection } from '../clever';
import { lower, type SchoolState, type Tally } from '../school-state';
import type { SchoolStep } from './step';

/** Sections: classrooms (name, grade, teacher), made when missing if the import asks for it. */
const importSections = async (
  state: SchoolState,
  page: CleverSection[],
  createMissing: boolean,
  tally: Tally,
) => {
  const puts: Classroom[] = [];
  const fresh: Array<Omit<Classroom, 'id'>> = [];
  for (const section of page) {
    for (const student of section.students ?? []) state.sectionOf.set(student, section.id);
    const teacherClever = section.teacher ?? section.teachers?.[0];
    const wanted = {
      name: (section.name ?? '').trim().slice(0, 100) || 'Section',
      grade: gradeFromSis(section.grade),
      teacherId: (teacherClever ? state.teachers.get(teacherClever)?.id : undefined) ?? null,
      active: true,
      cleverId: section.id,
    };
    const existing = state.rooms.get(section.id) ?? state.roomsByName.get(lower(wanted.name));
    if (existing) {
      state.roomsByName.delete(lower(existing.name));
      if (!sameFields(existing, wanted)) {
        puts.push({ ...existing, ...wanted });
        tally('classrooms', 'updated');
      } else tally('classrooms', 'unchanged');
      state.rooms.set(section.id, { ...existing, ...wanted });
    } else if (createMissing) {
      fresh.push({ schoolId: state.school.id, ...wanted });
      tally('classrooms', 'created');
    }
  }
  const ids = await nextIds(db, 'classroom', fresh.length);
  const made = fresh.map((room, i) => ({ ...room, id: ids[i] as number }));
  for (const room of made) state.rooms.set(room.cleverId as string, room);
  await classrooms.putMany(db, [...puts, ...made]);
};

export const sectionsStep: SchoolStep<CleverSection> = {
  read: ({ client, target, checkpoint }) =>
    client.page<CleverSection>(`/v3.0/schools/${target.cleverSchoolId}/sections`, checkpoint.after),
  apply: async ({ state, request, tally }, records) => {
    await importSections(state, records, request.createMissingClassrooms, tally);
    return undefined;
  },
  seenIds: (records) => ({
    ids: records.map((section) => section.id),
    members: Object.fromEntries(records.map((section) => [section.id, section.students ?? []])),
  }),
};
