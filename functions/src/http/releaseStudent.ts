import { routes } from '@curbside/api';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { type ReleaseReads, releaseReads, releaseStudent } from '../services/teacher';

/**
 * A release's first reads (the student, the school's active session), started
 * with the caller's sign-in for a staff member this instance signed in at a
 * school: `releaseStudent` uses them when the signed-in user is of that school.
 */
const early: EarlyReads<(typeof routes.releaseStudent)['request'], ReleaseReads> = (userId, { params }) => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined) return undefined;
  return releaseReads(schoolId, params.id).then((reads) => ({ schoolId, studentId: params.id, reads }));
};

/** `PUT /api/teacher/students/{id}/release`: sends a student out for pickup (its first reads: `early`). */
export const handler = httpHandler(
  routes.releaseStudent,
  async ({ user, params, early }) => releaseStudent(requireUser(user), params.id, early),
  [],
  { early },
);
