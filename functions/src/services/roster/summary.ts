import { NotFoundError, studentStats, type User } from '@curbside/domain';
import {
  classrooms,
  parents,
  pickupSessions,
  queue,
  releases,
  students,
  users,
  vehicles,
} from '@curbside/store';
import { db } from '../../lib/context';
import { isReadOnly, rosterSchool } from './scope';

/** Who was picked up in a session: the release marks of every classroom, and of students without one. */
const pickupsOf = async (schoolId: number, sessionId: number) => {
  const rooms = await classrooms.listBySchool(db, schoolId);
  return releases.ofClassrooms(db, sessionId, [...rooms.map((room) => room.id), null]);
};

/**
 * What the school admin screen shows besides the queue itself: the roster
 * tabs' counts, and in a session where the students are (waiting in a
 * queued vehicle, picked up, or still in school). Counts are COUNT queries;
 * the session adds its active queue and its pickups.
 */
export const schoolSummary = async (user: User, schoolId?: number, sessionId?: number) => {
  const school = await rosterSchool(user, schoolId, 'read');
  const session = sessionId === undefined ? undefined : await pickupSessions.get(db, sessionId);
  if (sessionId !== undefined && session?.schoolId !== school.id)
    throw new NotFoundError('Session not found');
  const [readOnly, studentCount, teacherCount, parentCount, vehicleCount, classroomCount, state] =
    await Promise.all([
      isReadOnly(user, school),
      students.count(db, school.id),
      users.countTeachers(db, school.id),
      parents.count(db, school.id),
      vehicles.count(db, school.id),
      classrooms.count(db, school.id),
      session ? Promise.all([queue.listActive(db, session.id), pickupsOf(school.id, session.id)]) : undefined,
    ]);
  return {
    school: { id: school.id, name: school.name, sandbox: school.sandbox, readOnly },
    counts: {
      students: studentCount,
      teachers: teacherCount,
      parents: parentCount,
      vehicles: vehicleCount,
      classrooms: classroomCount,
    },
    students: state
      ? studentStats(
          studentCount,
          state[0].flatMap((entry) => entry.students.map((student) => student.id)),
          state[1].pickedUp.keys(),
        )
      : null,
  };
};
