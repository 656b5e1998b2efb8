import type { SIS_SCHOOL_STEPS } from '@curbside/domain';
import { classrooms, importJobs, students, users } from '@curbside/store';
import { db } from '../../../lib/context';
import { endSignIns } from '../../auth';
import type { SchoolState, Tally } from '../school-state';
import type { SchoolStep } from './step';

/** Deactivates the school's records from Clever that no page of this job saw. */
const retire = async (jobId: string, state: SchoolState, tally: Tally) => {
  const seenOf = async (step: (typeof SIS_SCHOOL_STEPS)[number]) =>
    new Set((await importJobs.seen(db, jobId, `${state.school.id}#${step}`)).flatMap((page) => page.ids));
  const [teacherIds, sectionIds, studentIds, contactIds] = await Promise.all(
    (['teachers', 'sections', 'students', 'contacts'] as const).map(seenOf),
  );
  const gone = <T extends { active: boolean }>(map: Map<string, T>, seen: Set<string>) =>
    [...map].filter(([cleverId, record]) => record.active && !seen.has(cleverId)).map(([, record]) => record);

  const leavingStudents = gone(state.students, studentIds as Set<string>);
  await students.putMany(
    db,
    leavingStudents.map((student) => ({ ...student, active: false })),
  );
  tally('students', 'deactivated', leavingStudents.length);

  const leavingRooms = gone(state.rooms, sectionIds as Set<string>);
  await classrooms.putMany(
    db,
    leavingRooms.map((room) => ({ ...room, active: false })),
  );
  tally('classrooms', 'deactivated', leavingRooms.length);

  const leavingParents = [...state.parents]
    .filter(([cleverId, parent]) => parent.user.active && !(contactIds as Set<string>).has(cleverId))
    .map(([, parent]) => parent);
  await users.putMany(
    db,
    leavingParents.map(({ user, passwordHash }) => ({
      user: { ...user, active: false, retiredBySis: true },
      passwordHash,
    })),
  );
  for (const { user } of leavingParents) await endSignIns(user.id);
  tally('parents', 'deactivated', leavingParents.length);

  for (const teacher of gone(state.teachers, teacherIds as Set<string>)) {
    await users.updateProfile(db, teacher, { active: false, retiredBySis: true });
    await endSignIns(teacher.id);
    tally('teachers', 'deactivated');
  }
};

export const retireStep: SchoolStep<unknown> = {
  read: async () => ({ records: [], next: null }),
  apply: async ({ jobId, state, tally }) => {
    await retire(jobId, state, tally);
    return undefined;
  },
  seenIds: () => null,
};
