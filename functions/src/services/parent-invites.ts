import { createHash, randomBytes } from 'node:crypto';
import {
  type AcceptInviteInput,
  ConflictError,
  type CreateInvitesInput,
  type EmailRunStarted,
  ForbiddenError,
  GoneError,
  GRADE_MESSAGE,
  INVITE_GUESS_LIMIT,
  INVITE_REFUSALS,
  INVITE_TOKEN_BYTES,
  INVITE_TTL_MS,
  type InviteView,
  inviteStatus,
  type NewInviteView,
  NotFoundError,
  normalizeGrade,
  type ParentInvite,
  ROLE_RANK,
  type StaffRole,
  type Student,
  schoolClockOf,
  TooManyRequestsError,
  type User,
  ValidationError,
} from '@curbside/domain';
import { classrooms, parentInvites, parents, schools, students, throttle, users } from '@curbside/store';
import { assertSchoolWritable } from '../lib/auth';
import { db } from '../lib/context';
import { countRefusedRegistration, registerInvitedParent, type SignedIn } from './auth';
import { queueMailRun } from './mail-runs';
import { assertReachesFamily, ownSchoolId } from './tenancy';

/**
 * Parent invites (issue 29): one random link per student and known guardian,
 * valid 30 days, used once, revocable. The token (256 bits) is shown once, in
 * the answer that makes it; the store keeps only its SHA-256 hash.
 */
export const hashInviteToken = (token: string) => createHash('sha256').update(token).digest('hex');

const view = (invite: ParentInvite, now = Date.now()): InviteView => ({
  id: invite.id,
  studentId: invite.studentId,
  guardianName: invite.guardianName,
  email: invite.email,
  createdAt: invite.createdAt,
  expiresAt: invite.expiresAt,
  status: inviteStatus(invite, now),
});

const isTeacherOnly = (user: User) => ROLE_RANK[user.role as StaffRole] < ROLE_RANK.school_admin;

/** The classrooms a teacher may invite for: those they teach. */
const teacherRooms = async (user: User, schoolId: number) =>
  new Set(
    (await classrooms.listBySchool(db, schoolId))
      .filter((room) => room.teacherId === user.id)
      .map((room) => room.id),
  );

const NOT_YOUR_CLASS = 'Teachers can invite the families of their own classrooms only.';

/** The students an invite request names, in the caller's school and within a teacher's classrooms. */
const studentsFor = async (user: User, schoolId: number, input: CreateInvitesInput): Promise<Student[]> => {
  const teacher = isTeacherOnly(user);
  if ('allStudents' in input) {
    if (teacher) throw new ForbiddenError(NOT_YOUR_CLASS);
    return students.listBySchool(db, schoolId);
  }
  if ('grade' in input) {
    // A grade spans classrooms: the school's office invites it, a teacher their own classrooms.
    if (teacher) throw new ForbiddenError(NOT_YOUR_CLASS);
    const grade = normalizeGrade(input.grade);
    if (grade === null) throw new ValidationError(GRADE_MESSAGE, [{ path: 'grade', message: GRADE_MESSAGE }]);
    return (await students.listBySchool(db, schoolId)).filter((student) => student.grade === grade);
  }
  if ('classroomId' in input) {
    const room = await classrooms.get(db, schoolId, input.classroomId);
    if (!room?.active) throw new NotFoundError('Classroom not found');
    if (teacher && room.teacherId !== user.id) throw new ForbiddenError(NOT_YOUR_CLASS);
    return students.listByClassroom(db, schoolId, room.id);
  }
  const ids = [...new Set(input.studentIds)];
  const found = (await students.getMany(db, schoolId, ids)).filter((student) => student.active);
  if (found.length !== ids.length) throw new NotFoundError('Student not found');
  if (teacher) {
    const rooms = await teacherRooms(user, schoolId);
    if (found.some((student) => student.classroomId === null || !rooms.has(student.classroomId))) {
      throw new ForbiddenError(NOT_YOUR_CLASS);
    }
  }
  return found;
};

/**
 * Whom each student's invites go to: their guardians with an account the
 * school made (imported by CSV or Clever, or added by its office), else the
 * contact on the student's record, else no one named. Never an account a
 * parent registered themselves: its email is one they typed and nobody
 * verified (issue 49, ADR 0010).
 */
const guardiansOf = async (schoolId: number, list: readonly Student[]) => {
  const byStudent = new Map<number, Array<{ name: string | null; email: string | null }>>();
  if (list.length === 0) return byStudent;
  const wanted = new Set(list.map((student) => student.id));
  for (const { user } of await parents.listAll(db, schoolId)) {
    if (!user.active || user.madeBySchoolId !== schoolId) continue;
    for (const studentId of user.studentIds ?? []) {
      if (!wanted.has(studentId)) continue;
      byStudent.set(studentId, [...(byStudent.get(studentId) ?? []), { name: user.name, email: user.email }]);
    }
  }
  return byStudent;
};

/** One invite to make: its token (shown once) and what is stored. */
interface PlannedInvite {
  token: string;
  student: Student;
  /** The child as the letter names them. */
  named: NewInviteView['student'];
  invite: Omit<ParentInvite, 'id'>;
}

/**
 * The invites a request asks for: one per student and known guardian (one
 * per student when none is known); with `withEmail`, only those with an email address.
 */
const planInvites = async (
  user: User,
  input: CreateInvitesInput,
  { withEmail = false } = {},
): Promise<{ planned: PlannedInvite[]; withoutEmail: number }> => {
  const schoolId = ownSchoolId(user);
  const list = await studentsFor(user, schoolId, input);
  const [guardians, rooms] = await Promise.all([
    guardiansOf(schoolId, list),
    list.length > 0 ? classrooms.listBySchool(db, schoolId) : [],
  ]);
  const roomNames = new Map(rooms.map((room) => [room.id, room.name]));
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const expiresAt = new Date(now + INVITE_TTL_MS).toISOString();
  let withoutEmail = 0;
  const planned = list.flatMap((student) => {
    const known = guardians.get(student.id) ?? [];
    const to =
      known.length > 0 ? known : [{ name: student.parentName ?? null, email: student.parentEmail ?? null }];
    const named = {
      firstName: student.firstName,
      lastName: student.lastName,
      grade: student.grade,
      classroom: student.classroomId === null ? null : (roomNames.get(student.classroomId) ?? null),
    };
    return to.flatMap((guardian): PlannedInvite[] => {
      if (withEmail && !guardian.email?.trim()) {
        withoutEmail += 1;
        return [];
      }
      return [
        {
          token: randomBytes(INVITE_TOKEN_BYTES).toString('base64url'),
          student,
          named,
          invite: {
            schoolId,
            studentId: student.id,
            guardianName: guardian.name,
            email: guardian.email,
            createdAt,
            expiresAt,
            acceptedAt: null,
            acceptedBy: null,
            revokedAt: null,
          },
        },
      ];
    });
  });
  return { planned, withoutEmail };
};

const store = (planned: readonly PlannedInvite[]) =>
  parentInvites.createMany(
    db,
    planned.map(({ token, invite }) => ({ ...invite, tokenHash: hashInviteToken(token) })),
  );

const linkOf = (origin: string, token: string) => `${origin}/parent/invite?t=${token}`;

/** Makes the invites a request asks for and answers their links. */
export const createInvites = async (
  user: User,
  input: CreateInvitesInput,
  origin: string,
): Promise<{ invites: NewInviteView[] }> => {
  const { planned } = await planInvites(user, input);
  const made = await store(planned);
  return {
    invites: made.map((invite, i) => ({
      id: invite.id,
      studentId: invite.studentId,
      guardianName: invite.guardianName,
      email: invite.email,
      expiresAt: invite.expiresAt,
      url: linkOf(origin, planned[i]?.token as string),
      student: planned[i]?.named as NewInviteView['student'],
    })),
  };
};

/**
 * Makes the invites a request asks for whose guardian has an email address
 * and queues each its link (English and Spanish in one message) in a mail
 * run, sent after the answer by the mail sender (`mail-sender.ts`), paced
 * under SES's sending rate. Guardians without an address get no invite here
 * (`skipped`: the school prints them a letter). The links go into the run
 * now: the invites keep only their tokens' hashes.
 */
export const emailInvites = async (
  user: User,
  input: CreateInvitesInput,
  origin: string,
): Promise<EmailRunStarted> => {
  const { planned, withoutEmail } = await planInvites(user, input, { withEmail: true });
  const schoolId = ownSchoolId(user);
  const [made, school] =
    planned.length > 0 ? await Promise.all([store(planned), schools.get(db, schoolId)]) : [[], undefined];
  return queueMailRun(user, {
    schoolId,
    schoolName: school?.name ?? '',
    timeZone: schoolClockOf(school ?? {}).timeZone,
    skipped: withoutEmail,
    messages: made.map((invite, i) => {
      const plan = planned[i] as PlannedInvite;
      return {
        inviteId: invite.id,
        to: (invite.email as string).trim(),
        guardianName: invite.guardianName,
        firstName: plan.student.firstName,
        lastInitial: plan.student.lastName.charAt(0),
        url: linkOf(origin, plan.token),
        expiresAt: invite.expiresAt,
      };
    }),
  });
};

/** A student of the caller's school (404 otherwise; a teacher only their classrooms' students). */
const studentOfSchool = async (user: User, studentId: number) => {
  const schoolId = ownSchoolId(user);
  const student = await students.get(db, schoolId, studentId);
  if (!student) throw new NotFoundError('Student not found');
  await assertReachesFamily(user, student, NOT_YOUR_CLASS);
  return student;
};

export const listInvites = async (user: User, studentId: number): Promise<InviteView[]> => {
  const student = await studentOfSchool(user, studentId);
  const now = Date.now();
  return (await parentInvites.listByStudent(db, student.schoolId, student.id)).map((invite) =>
    view(invite, now),
  );
};

export const revokeInvite = async (user: User, id: number): Promise<InviteView> => {
  const invite = await parentInvites.get(db, id);
  if (!invite || invite.schoolId !== user.schoolId) throw new NotFoundError('Invite not found');
  await studentOfSchool(user, invite.studentId);
  if (!(await parentInvites.revoke(db, id))) {
    const now = await parentInvites.get(db, id);
    if (now && inviteStatus(now) === 'accepted') throw new GoneError(INVITE_REFUSALS.accepted);
  }
  const after = await parentInvites.get(db, id);
  return view(after ?? invite);
};

/**
 * The invite a token names, if it still works. Each attempt is counted
 * against the address's limit before the token is read, and given back when
 * the invite works (so only failures use up the allowance, as with pickup codes).
 */
const attempt = async (token: string, address: string): Promise<ParentInvite> => {
  const own = await throttle.reserve(
    db,
    [{ scope: `invite#ip#${address}`, limit: INVITE_GUESS_LIMIT.failures }],
    INVITE_GUESS_LIMIT.windowMs,
  );
  if (!own.allowed)
    throw new TooManyRequestsError('Too many invalid invites. Please wait 10 minutes and try again.');
  const invite = await parentInvites.byTokenHash(db, hashInviteToken(token));
  if (!invite) throw new NotFoundError('This invite link is not valid.');
  const status = inviteStatus(invite);
  if (status !== 'pending') throw new GoneError(INVITE_REFUSALS[status]);
  await own.release();
  return invite;
};

/** What the invite page shows before sign-in: the school and the child's first name and last initial. */
export const lookupInvite = async (token: string, address: string) => {
  const invite = await attempt(token, address);
  const [student, school] = await Promise.all([
    students.get(db, invite.schoolId, invite.studentId),
    schools.get(db, invite.schoolId),
  ]);
  return {
    schoolName: school?.name ?? null,
    student: student ? { firstName: student.firstName, lastInitial: student.lastName.charAt(0) } : null,
  };
};

const NEW_ACCOUNT_FIELDS = ['username', 'password', 'firstName', 'lastName', 'phone'] as const;

/**
 * Accepts an invite: as the signed-in parent, or with a new parent account
 * (then signed in). The child is linked and the invite used in one transaction.
 */
export const acceptInvite = async (
  signedInUser: User | null,
  input: AcceptInviteInput,
  address: string,
  deviceToken: string | undefined,
): Promise<{
  result: {
    linked: true;
    student: { id: number; firstName: string; lastName: string; grade: string } | null;
    user: User;
  };
  signedIn: SignedIn | null;
}> => {
  const newAccount = NEW_ACCOUNT_FIELDS.some((field) => input[field] !== undefined);
  if (!newAccount && signedInUser?.role !== 'parent') {
    if (signedInUser) throw new ForbiddenError('Only a parent account can accept an invite.');
    const missing = NEW_ACCOUNT_FIELDS.map((path) => ({ path, message: 'Required to create your account' }));
    throw new ValidationError('Sign in or create an account to accept the invite', missing);
  }
  if (newAccount) {
    const missing = NEW_ACCOUNT_FIELDS.filter((field) => input[field] === undefined);
    if (missing.length > 0) {
      throw new ValidationError(
        'Fill in every field to create your account',
        missing.map((path) => ({ path, message: 'Required' })),
      );
    }
  }
  // An accept that would make an account with an invite that does not work counts as a registration.
  const invite = await attempt(input.token, address).catch(async (error: unknown) => {
    if (newAccount) await countRefusedRegistration(address);
    throw error;
  });
  await assertSchoolWritable(invite.schoolId);
  const gone = async () => {
    const now = await parentInvites.get(db, invite.id);
    const status = now ? inviteStatus(now) : 'expired';
    return new GoneError(INVITE_REFUSALS[status === 'pending' ? 'accepted' : status]);
  };
  let signedIn: SignedIn | null = null;
  let parent = signedInUser as User;
  if (newAccount) {
    // The account, the invite's use and the child's links in one transaction: a refused accept makes no account.
    signedIn = await registerInvitedParent(
      {
        name: `${input.firstName} ${input.lastName}`,
        username: input.username as string,
        password: input.password as string,
        email: invite.email,
        phone: input.phone as string,
        role: 'parent',
      },
      deviceToken,
      async (account) => {
        const made = await parentInvites.acceptWithNewAccount(db, invite, account);
        if (made.outcome === 'accepted') return made.user;
        if (made.outcome === 'gone') throw await gone();
        throw new ConflictError(`Username ${account.username} is already taken`);
      },
    );
    parent = signedIn.user;
  } else {
    if (!(await parentInvites.accept(db, invite, parent.id))) throw await gone();
    await parents.joinSchool(db, parent.id, invite.schoolId, invite.studentId);
  }
  const student = await students.get(db, invite.schoolId, invite.studentId);
  return {
    result: {
      linked: true,
      student: student
        ? { id: student.id, firstName: student.firstName, lastName: student.lastName, grade: student.grade }
        : null,
      user: (await users.get(db, parent.id)) ?? parent,
    },
    signedIn,
  };
};
