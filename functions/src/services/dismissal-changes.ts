import { channels, type LiveEvent } from '@curbside/api';
import {
  actorOf,
  type ChangeClock,
  type ChangePerson,
  cancelledFromOf,
  changeOccursOn,
  checkCancel,
  checkDecision,
  checkNewChange,
  type DismissalChange,
  type DismissalChangeInput,
  type DismissalChangeView,
  ForbiddenError,
  isStaffRole,
  NotFoundError,
  type School,
  schoolNow,
  snapshotOf,
  type User,
  type WayEvent,
  type WayEventKind,
} from '@curbside/domain';
import { dismissalChanges, parentLinks, schools, students, users } from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishToClassrooms } from './live-events';
import { queueMailRun } from './mail-runs';
import { publishToChannel } from './publish';
import { retentionDays } from './record';
import { isReadOnly, READ_ONLY_MESSAGE, rosterSchool } from './roster/scope';
import { clockOf, type SchoolClock } from './school-clock';
import { readSchool } from './tenancy';
import { wayDecisionEmail } from './way-email';
import { checkOffered, wayOptionsOf, waysHomeOn, withNamedCar } from './ways-home';

/**
 * Dated changes of a child's way home (issue 51). A parent asks for their own
 * linked children (another child: 404), for today or a later school day, and
 * for today only before the school's cutoff (409 naming it in the school's
 * time); the school's `changeApproval` approves it at once (`auto`) or leaves
 * it to the office (`office`). Staff (school admins and above: the office)
 * enter changes at any time, approved at once, and decide the pending ones.
 * Every change, decision and cancellation is in the student's way-home
 * record, is told live (the office's list, the child's teacher when today's
 * plan changed, the family) and a decision is emailed to the family.
 */

const personOf = (user: User): ChangePerson => ({ id: user.id, name: user.name, role: user.role });

const changeClock = (school: School, now = Date.now()): ChangeClock & SchoolClock => {
  const clock = clockOf(school, now);
  return { ...clock, pastCutoff: schoolNow(clock.timeZone, clock.changeCutoff, now).pastCutoff };
};

/** A change's school, as its caller may act on it: a parent's own child's, a staff member's school (404 otherwise). */
const schoolOfChild = async (user: User, studentId: number, schoolId: number | undefined) => {
  if (user.role === 'parent') {
    const link = (await parentLinks.childrenOf(db, user.id)).find((child) => child.studentId === studentId);
    const school = link && (await schools.get(db, link.schoolId));
    if (!school) throw new NotFoundError('Student not found');
    // A school in sandbox mode takes no change, from its families either.
    if (await isReadOnly(user, school)) throw new ForbiddenError(READ_ONLY_MESSAGE);
    return school;
  }
  return rosterSchool(user, schoolId, 'write');
};

/** The changes with their students' names (a student who left the school: null). */
const viewsOf = async (
  schoolId: number,
  list: readonly DismissalChange[],
): Promise<DismissalChangeView[]> => {
  const found = await students.getMany(
    db,
    schoolId,
    list.map((change) => change.studentId),
  );
  const byId = new Map(found.map((student) => [student.id, student]));
  return list.map((change) => {
    const student = byId.get(change.studentId);
    return {
      ...change,
      student: student
        ? {
            id: student.id,
            firstName: student.firstName,
            lastName: student.lastName,
            classroomId: student.classroomId,
          }
        : null,
    };
  });
};

const eventOf = (
  user: User,
  kind: WayEventKind,
  before: DismissalChange | null,
  after: DismissalChange,
  at: string,
): Omit<WayEvent, 'id'> => ({
  schoolId: after.schoolId,
  studentId: after.studentId,
  at,
  actor: actorOf(user),
  kind,
  change: { before: before ? snapshotOf(before) : null, after: snapshotOf(after) },
});

/**
 * Tells who must know, after the change committed: the office's list and the
 * family (every change), and when today's plan changed, the whole-line screens
 * and the child's classroom with today's entry. A failure is logged, never the
 * caller's error: screens read again on their next load.
 */
const tell = async (school: School, view: DismissalChangeView, todayChanged: boolean) => {
  try {
    const updated: LiveEvent = { type: 'DISMISSAL_CHANGE_UPDATED', data: { change: view } };
    const classroomIds = [view.student?.classroomId ?? null];
    const parentIds = await parentLinks.parentsOf(db, school.id, view.studentId);
    const sends: Promise<unknown>[] = [
      publishToClassrooms(school.id, updated, []),
      ...parentIds.map((parentId) => publishToChannel(channels.parent(parentId), updated)),
    ];
    if (todayChanged) {
      const today = clockOf(school).today;
      const students = await waysHomeOn(school.id, today, [view.studentId]);
      sends.push(
        publishToClassrooms(
          school.id,
          { type: 'DISMISSAL_PLAN_CHANGED', data: { date: today, students, change: view } },
          classroomIds,
        ),
      );
    }
    await Promise.all(sends);
  } catch (error) {
    log('warn', 'way home change not told', { changeId: view.id, error: (error as Error).message });
  }
};

/** Whether a change (as it was approved, or is no longer) decides today's way home. */
const touchesToday = (change: DismissalChange, school: School) =>
  changeOccursOn(change, clockOf(school).today);

/** Emails the family who asked the office's decision (or cancellation); a failure is logged. */
const mailFamily = async (
  user: User,
  school: School,
  change: DismissalChangeView,
  outcome: 'approved' | 'denied' | 'cancelled',
) => {
  if (change.requestedBy.role !== 'parent' || change.student === null) return;
  try {
    const parent = await users.get(db, change.requestedBy.id);
    const to = parent?.active ? parent.email?.trim() : undefined;
    if (!to) return;
    const email = wayDecisionEmail({
      language: change.language,
      schoolName: school.name,
      childFirstName: change.student.firstName,
      change,
      outcome,
      options: await wayOptionsOf(school.id),
    });
    await queueMailRun(user, {
      schoolId: school.id,
      schoolName: school.name,
      timeZone: clockOf(school).timeZone,
      skipped: 0,
      messages: [{ kind: 'rendered', to, ...email }],
    });
  } catch (error) {
    log('warn', 'way home decision not emailed', { changeId: change.id, error: (error as Error).message });
  }
};

/** `POST /api/dismissal-changes`. */
export const requestChange = async (
  user: User,
  input: DismissalChangeInput,
  schoolId?: number,
): Promise<{ change: DismissalChangeView }> => {
  const school = await schoolOfChild(user, input.studentId, schoolId);
  const [student, options, days] = await Promise.all([
    students.get(db, school.id, input.studentId),
    wayOptionsOf(school.id),
    retentionDays(school.id),
  ]);
  if (!student?.active) throw new NotFoundError('Student not found');
  const clock = changeClock(school);
  const byParent = user.role === 'parent';
  const { until, weekdays } = checkNewChange(input, clock, byParent ? 'parent' : 'staff');
  checkOffered([input.way], options, 'way');
  const way = await withNamedCar(school.id, input.way, 'way');
  const now = new Date().toISOString();
  const approved = !byParent || clock.changeApproval === 'auto';
  const change: DismissalChange = {
    id: await dismissalChanges.nextId(db),
    schoolId: school.id,
    studentId: student.id,
    date: input.date,
    until,
    weekdays,
    way,
    status: approved ? 'approved' : 'pending',
    approvedAt: approved ? now : null,
    cancelledFrom: null,
    requestedBy: personOf(user),
    note: input.note,
    createdAt: now,
    decidedBy: approved && !byParent ? personOf(user) : null,
    decidedAt: approved ? now : null,
    reason: '',
    cancelledBy: null,
    cancelledAt: null,
    language: input.language ?? 'en',
  };
  await dismissalChanges.create(db, change, {
    actor: actorOf(user),
    retentionDays: days,
    event: eventOf(user, 'change_requested', null, change, now),
  });
  const [view] = (await viewsOf(school.id, [change])) as [DismissalChangeView];
  await tell(school, view, approved && touchesToday(change, school));
  return { change: view };
};

/**
 * `GET /api/dismissal-changes`: a day's changes (`date`), or the changes from
 * a day on (`from`); staff: the school's (`from` with a `studentId`), or the
 * office's queue (`pending`); a parent: their own children's.
 */
export const listChanges = async (
  user: User,
  query: {
    date?: string | undefined;
    from?: string | undefined;
    studentId?: number | undefined;
    schoolId?: number | undefined;
  },
): Promise<{ changes: DismissalChangeView[] }> => {
  const byDate = (a: DismissalChange, b: DismissalChange) =>
    a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt);
  if (user.role === 'parent') {
    const children = (await parentLinks.childrenOf(db, user.id)).filter(
      (child) => query.studentId === undefined || child.studentId === query.studentId,
    );
    const bySchool = await Promise.all(
      [...new Set(children.map((child) => child.schoolId))].map(async (schoolId) => {
        const mine = children.filter((child) => child.schoolId === schoolId).map((child) => child.studentId);
        const found = query.date
          ? (await dismissalChanges.mayFallOn(db, schoolId, query.date)).filter(
              (change) => mine.includes(change.studentId) && changeOccursOn(change, query.date as string),
            )
          : (
              await Promise.all(mine.map((id) => dismissalChanges.ofStudent(db, schoolId, id, query.from)))
            ).flat();
        return viewsOf(schoolId, found.sort(byDate));
      }),
    );
    return { changes: bySchool.flat() };
  }
  const school = await rosterSchool(user, query.schoolId, 'read');
  let found: DismissalChange[];
  if (query.date) {
    found = (await dismissalChanges.mayFallOn(db, school.id, query.date)).filter(
      (change) =>
        changeOccursOn(change, query.date as string) &&
        (query.studentId === undefined || change.studentId === query.studentId),
    );
  } else if (query.studentId !== undefined) {
    found = await dismissalChanges.ofStudent(db, school.id, query.studentId, query.from);
  } else {
    // The office's queue: every change still waiting for a decision.
    found = await dismissalChanges.pending(db, school.id);
  }
  return { changes: await viewsOf(school.id, found.sort(byDate)) };
};

/** The change by id, as its caller may act on it (another school's, or another family's: 404). */
const changeFor = async (user: User, id: number, mode: 'decide' | 'cancel') => {
  const change = await dismissalChanges.get(db, id);
  if (!change) throw new NotFoundError('Change not found');
  if (user.role === 'parent') {
    if (mode === 'decide' || change.requestedBy.id !== user.id) throw new NotFoundError('Change not found');
    const school = await schools.get(db, change.schoolId);
    if (!school) throw new NotFoundError('Change not found');
    if (await isReadOnly(user, school)) throw new ForbiddenError(READ_ONLY_MESSAGE);
    return { change, school };
  }
  if (!isStaffRole(user.role)) throw new NotFoundError('Change not found');
  const school = await readSchool(user, change.schoolId).catch(() => {
    throw new NotFoundError('Change not found');
  });
  if (await isReadOnly(user, school)) throw new ForbiddenError(READ_ONLY_MESSAGE);
  return { change, school };
};

/** `POST /api/dismissal-changes/{id}/approve` and `/deny` (school admins and above). */
export const decideChange = async (
  user: User,
  id: number,
  decision: 'approve' | 'deny',
  reason = '',
): Promise<{ change: DismissalChangeView }> => {
  const { change, school } = await changeFor(user, id, 'decide');
  const clock = changeClock(school);
  checkDecision(change, decision, clock.today);
  if (decision === 'approve') checkOffered([change.way], await wayOptionsOf(school.id), 'way');
  const now = new Date().toISOString();
  const after: DismissalChange = {
    ...change,
    status: decision === 'approve' ? 'approved' : 'denied',
    approvedAt: decision === 'approve' ? now : null,
    decidedBy: personOf(user),
    decidedAt: now,
    reason: decision === 'deny' ? reason : '',
  };
  await dismissalChanges.transition(db, change, after, {
    actor: actorOf(user),
    retentionDays: await retentionDays(school.id),
    event: eventOf(user, decision === 'approve' ? 'change_approved' : 'change_denied', change, after, now),
  });
  const [view] = (await viewsOf(school.id, [after])) as [DismissalChangeView];
  await Promise.all([
    tell(school, view, decision === 'approve' && touchesToday(after, school)),
    mailFamily(user, school, view, decision === 'approve' ? 'approved' : 'denied'),
  ]);
  return { change: view };
};

/** `DELETE /api/dismissal-changes/{id}`: the parent who asked (before the cutoff), or staff at any time. */
export const cancelChange = async (user: User, id: number): Promise<{ change: DismissalChangeView }> => {
  const { change, school } = await changeFor(user, id, 'cancel');
  const clock = changeClock(school);
  checkCancel(change, clock, user.role === 'parent' ? 'parent' : 'staff');
  const now = new Date().toISOString();
  const after: DismissalChange = {
    ...change,
    status: 'cancelled',
    cancelledBy: personOf(user),
    cancelledAt: now,
    cancelledFrom: cancelledFromOf(change, clock.today),
  };
  await dismissalChanges.transition(db, change, after, {
    actor: actorOf(user),
    retentionDays: await retentionDays(school.id),
    event: eventOf(user, 'change_cancelled', change, after, now),
  });
  const [view] = (await viewsOf(school.id, [after])) as [DismissalChangeView];
  await Promise.all([
    tell(school, view, change.status === 'approved' && touchesToday(change, school)),
    // A family's request the office cancelled: the family is told why their plan is back to usual.
    user.role !== 'parent' ? mailFamily(user, school, view, 'cancelled') : undefined,
  ]);
  return { change: view };
};
