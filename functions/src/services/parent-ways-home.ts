import { type ParentWaysHome, schoolNow, type User } from '@curbside/domain';
import { parentLinks, schools, students } from '@curbside/store';
import { db } from '../lib/context';
import { clockOf } from './school-clock';
import { wayOptionsOf, waysHomeOn } from './ways-home';

/**
 * `GET /api/parent/ways-home` (issue 51): each of the parent's active linked
 * children's way home today (their school's today), and per school its clock
 * (today, the cutoff and whether it has passed) and the ways it offers.
 */
export const parentWaysHome = async (parent: User, now = Date.now()): Promise<ParentWaysHome> => {
  const links = await parentLinks.childrenOf(db, parent.id);
  const schoolIds = [...new Set(links.map((link) => link.schoolId))];
  const answers = await Promise.all(
    schoolIds.map(async (schoolId) => {
      const ids = links.filter((link) => link.schoolId === schoolId).map((link) => link.studentId);
      const [school, active, options] = await Promise.all([
        schools.get(db, schoolId),
        students.getMany(db, schoolId, ids),
        wayOptionsOf(schoolId),
      ]);
      if (!school || active.length === 0) return null;
      const clock = clockOf(school, now);
      const entries = await waysHomeOn(
        schoolId,
        clock.today,
        active.map((student) => student.id),
      );
      return {
        school: {
          schoolId,
          name: school.name,
          timeZone: clock.timeZone,
          today: clock.today,
          changeCutoff: clock.changeCutoff,
          pastCutoff: schoolNow(clock.timeZone, clock.changeCutoff, now).pastCutoff,
          changeApproval: clock.changeApproval,
          options: { buses: options.buses, programs: options.programs.filter((program) => program.active) },
        },
        children: entries.map((today) => ({ studentId: today.studentId, schoolId, today })),
      };
    }),
  );
  const found = answers.filter((answer) => answer !== null);
  return {
    schools: found.map((answer) => answer.school),
    children: found.flatMap((answer) => answer.children),
  };
};
