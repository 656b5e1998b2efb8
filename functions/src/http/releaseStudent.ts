import { routes } from '@curbside/api';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { type ReleaseReads, releaseRead, releaseStudent } from '../services/teacher';

/**
 * A release's first reads (the student, the school's running session), in the
 * caller's sign-in read (one BatchGetItem) for a staff member this instance
 * signed in at a school: `releaseStudent` uses them when the signed-in user is
 * of that school.
 */
const early: EarlyReads<(typeof routes.releaseStudent)['request'], ReleaseReads> = (
  userId,
  { params },
  signIn,
) => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined) return undefined;
  return signIn(releaseRead(schoolId, params.id)).then((reads) => ({
    schoolId,
    studentId: params.id,
    reads,
  }));
};

/** `PUT /api/teacher/students/{id}/release`: sends a student out for pickup (its first reads: `early`). */
export const handler = httpHandler(
  routes.releaseStudent,
  async ({ user, params, early }) => releaseStudent(requireUser(user), params.id, early),
  [],
  { early },
);
