import {
  estimatedWaitMinutes,
  isSessionRunning,
  type ParentChild,
  type ParentStudentStatus,
  type PickupSession,
  parentStatusOf,
  pickupRate,
  type QueueEntry,
  type Student,
  schoolClockOf,
  type User,
} from '@curbside/domain';
import {
  eventSequence,
  type KeyedAnswer,
  type KeyedRead,
  keyedReads,
  type Marks,
  parentLinks,
  pickupSessions,
  queue,
  releases,
  type SampledPickup,
  schools,
  students,
} from '@curbside/store';
import { connectionsDb, db } from '../lib/context';
import { remember } from '../lib/remember';
import { knownRunningSession, noteRunningSession } from './scope';

/**
 * How many of the session's latest pickups the wait estimate counts (newest
 * first): kept by the pickups' own event-number write and read by key with the
 * poll's first reads (`eventSequence.keyedLatestPickups`, issue 54), so the
 * estimate costs the poll no call of its own, and kept on the instance for
 * `SAMPLE_KEPT_MS` once a wait was estimated from it (no key of its own
 * either, most polls in a rush: h54o).
 */
const RATE_SAMPLE = 30;

/** Children's ids, grouped by school (in the order given). */
const groupBySchool = (
  links: ReadonlyArray<{ schoolId: number; studentId: number }>,
): Map<number, number[]> => {
  const bySchool = new Map<number, number[]>();
  for (const { schoolId, studentId } of links) {
    bySchool.set(schoolId, [...(bySchool.get(schoolId) ?? []), studentId]);
  }
  return bySchool;
};

/** The parent's linked children's ids, grouped by school. */
const linkedIdsBySchool = async (parentId: number): Promise<Map<number, number[]>> =>
  groupBySchool(await parentLinks.childrenOf(db, parentId));

/** The active ones of a school's linked children. */
const activeChildren = async (schoolId: number, ids: readonly number[]): Promise<Student[]> =>
  (await students.getMany(db, schoolId, [...ids])).filter((student) => student.active);

/** The parent's linked children, active ones, grouped by school. */
const childrenBySchool = async (parent: User): Promise<Map<number, Student[]>> => {
  const found = await Promise.all(
    [...(await linkedIdsBySchool(parent.id))].map(
      async ([schoolId, ids]) => [schoolId, await activeChildren(schoolId, ids)] as const,
    ),
  );
  return new Map(found.filter(([, list]) => list.length > 0));
};

const byName = (a: { firstName: string; lastName: string }, b: { firstName: string; lastName: string }) =>
  a.firstName.localeCompare(b.firstName) || a.lastName.localeCompare(b.lastName);

/** `GET /api/parent/students`: the children linked to the signed-in parent, and their school. */
export const linkedChildren = async (parent: User): Promise<ParentChild[]> => {
  const bySchool = await childrenBySchool(parent);
  const schoolsById = new Map(
    await Promise.all([...bySchool.keys()].map(async (id) => [id, await schools.get(db, id)] as const)),
  );
  return [...bySchool]
    .flatMap(([schoolId, list]) =>
      list.map(({ id, firstName, lastName, grade }) => ({
        id,
        firstName,
        lastName,
        grade,
        schoolId,
        schoolName: schoolsById.get(schoolId)?.name ?? null,
        timeZone: schoolClockOf(schoolsById.get(schoolId) ?? {}).timeZone,
      })),
    )
    .sort(byName);
};

const notInQueue = ({ id, firstName, lastName, grade }: Student): ParentStudentStatus => ({
  id,
  firstName,
  lastName,
  grade,
  vehicleType: null,
  vehicleNumber: null,
  status: 'not_in_queue',
  queuePosition: null,
  estimatedWaitTime: null,
  batchNumber: null,
  entryTime: null,
  pickupTime: null,
});

/** A child as the plan keeps them: their id, and the classroom whose partition holds their marks. */
interface Placed {
  id: number;
  classroomId: number | null;
}

/** A running session's lists for the poll: the session, its active queue, the children's marks, its latest pickups. */
type Lists = [PickupSession | undefined, QueueEntry[], Marks, Sample];

/** What a poll reads of one school: the children, and the running session with its lists. */
interface SchoolReads {
  children: Promise<Student[]>;
  /** The session these lists are of (undefined: none read). */
  sessionId: number | undefined;
  lists: Promise<Lists> | undefined;
  /** The children whose marks `lists` holds, each in the classroom it read them in. */
  placed: readonly Placed[];
}

/**
 * A running session's reads for the poll: the session with its latest pickups
 * (one keyed read), the active queue, the classrooms' marks.
 */
const readLists = async (sessionId: number, classroomIds: readonly (number | null)[]): Promise<Lists> => {
  const [[session, sample], active, marks] = await Promise.all([
    keyedReads.run(db, sessionWithPickups(sessionId)),
    queue.listActive(db, sessionId),
    releases.ofClassrooms(db, sessionId, classroomIds),
  ]);
  return [session, active, marks, sample];
};

/**
 * How long an instance keeps a session's latest pickups (the wait estimate's
 * sample) once a poll estimated a wait from them: polls within it read no key
 * for them (ADR 0027, "(h54o)": in DynamoDB Local each key of a BatchGetItem
 * waits for the transactions queued ahead of it, and this key was the only one
 * of the live-connection table). So an estimate may count the pickups of up to
 * 10 s before, as the per-instance sample before issue 54's did; a sample read
 * by a poll that estimated nothing is not kept (the instance's first estimate
 * of a session counts its latest pickups). The poll's state (the session, the
 * line and each child's place in it, the marks, the children) is read every time.
 */
export const SAMPLE_KEPT_MS = 10_000;
/** A session's latest pickups as a poll has them: when read, and whether kept from an earlier poll. */
interface Sample {
  pickups: SampledPickup[];
  readAt: number;
  kept: boolean;
}
const samples = new Map<number, Sample>();
const SAMPLES_KEPT = 1_000;
const NO_SAMPLE: Sample = { pickups: [], readAt: 0, kept: true };

/** A session's latest pickups: kept on the instance (`SAMPLE_KEPT_MS`), else read by key. */
const latestPickups = (sessionId: number, now = Date.now()): KeyedRead<Sample> => {
  const kept = samples.get(sessionId);
  if (kept && now - kept.readAt < SAMPLE_KEPT_MS) return keyedReads.none(kept);
  return keyedReads.map(eventSequence.keyedLatestPickups(sessionId, connectionsDb().table), (pickups) => ({
    pickups,
    readAt: now,
    kept: false,
  }));
};

/** The session and its latest pickups (the wait estimate's), eventually consistent: the session by key. */
const sessionWithPickups = (sessionId: number) =>
  keyedReads.all(pickupSessions.keyed(sessionId, { consistent: false }), latestPickups(sessionId));

/**
 * What this instance's last poll of each parent found: their children by
 * school, each with their classroom; and when it last read the parent's links
 * whole. A poll reads by this plan in the parent's sign-in read (issue 54: one
 * BatchGetItem for the sign-in, the plan's links, children, sessions and
 * marks, beside one Query of each school's active queue: 2 calls where there
 * were 6), and uses what it read only where the links, the children's
 * classrooms and the session still match; anything else it reads again.
 * Nothing is answered from memory: the plan only says which keys to read.
 * A link removed since is not read (the plan's links are read by key), so it
 * stops at once; a child linked since is seen by the parent's own record
 * (`studentIds`, which every way of linking a child keeps, read with the
 * sign-in) or, whatever wrote it, by the links' whole read at least every
 * `LINKS_READ_AGAIN_MS`. The school's running session is the one `scope.ts`
 * knows (`knownRunningSession`).
 */
export interface Plan {
  /** When the parent's links were last read whole (a Query). */
  linksReadAt: number;
  schools: Map<number, PlanPart>;
}
/** A school's part of a plan: the children linked there, and the active ones with their classrooms. */
interface PlanPart {
  ids: number[];
  placed: Placed[];
}
const plans = new Map<number, Plan>();
const PLANS_KEPT = 10_000;
/** How long a plan's links stand for the parent's (a link made by a way that keeps no `studentIds`). */
export const LINKS_READ_AGAIN_MS = 10 * 60_000;

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** What a plan reads of one school in the sign-in's BatchGetItem: the children, the session, their marks. */
const schoolRead = (schoolId: number, part: PlanPart) => {
  const sessionId = knownRunningSession(schoolId);
  return {
    sessionId,
    read: keyedReads.all(
      students.keyedMany(schoolId, part.ids),
      sessionId === undefined
        ? keyedReads.none<[undefined, Sample]>([undefined, NO_SAMPLE])
        : sessionWithPickups(sessionId),
      sessionId === undefined
        ? keyedReads.none<Marks>({ released: new Map(), pickedUp: new Map(), releasedBy: new Map() })
        : releases.keyedOfStudents(sessionId, part.placed),
    ),
  };
};

/**
 * Reads by plan: the plan's links (which are still there), and per school
 * its reads (`schoolRead`) in one keyed read (`via`: the sign-in's read when
 * the route started them early), with one Query of the school's active queue
 * beside it. A read that fails leaves its part to be read again, never the
 * poll's error.
 */
const readByPlan = (
  parentId: number,
  plan: Plan,
  via: <T>(read: KeyedRead<T>) => Promise<T>,
): Pick<PollReads, 'stillLinked' | 'planned'> => {
  const parts = [...plan.schools];
  const bySchool = parts.map(([schoolId, part]) => ({ schoolId, part, ...schoolRead(schoolId, part) }));
  const links = parts.flatMap(([schoolId, part]) => part.ids.map((studentId) => ({ schoolId, studentId })));
  const read = via(
    keyedReads.all(parentLinks.stillLinked(parentId, links), ...bySchool.map((school) => school.read)),
  );
  read.catch(() => undefined);
  const planned = new Map<number, SchoolReads>();
  bySchool.forEach(({ schoolId, part, sessionId }, i) => {
    const found = read.then(
      ([, ...schools]) => schools[i] as KeyedAnswer<ReturnType<typeof schoolRead>['read']>,
    );
    const active = sessionId === undefined ? undefined : queue.listActive(db, sessionId);
    const reads: SchoolReads = {
      children: found.then(([children]) => children),
      sessionId,
      lists:
        active &&
        Promise.all([found, active]).then(
          ([[, [session, sample], marks], entries]): Lists => [session, entries, marks, sample],
        ),
      placed: part.placed,
    };
    reads.children.catch(() => undefined);
    reads.lists?.catch(() => undefined);
    planned.set(schoolId, reads);
  });
  return { stillLinked: read.then(([linked]) => groupBySchool(linked)), planned };
};

/**
 * The children of one school as their session sees them: the active queue
 * (which entry carries each child, and its place), the release and pickup
 * marks of their classrooms, and the session's latest pickups (the rate the
 * wait is estimated from, read by key with the session). Without a running
 * session nobody is in the queue. `planned`: what was read by the plan, used where it matches.
 * A poll (and the read after a live event) may see a session started or
 * ended in the last second late, as it may the queue: eventually consistent
 * reads, half the units.
 */
const statusInSchool = async (
  schoolId: number,
  ids: readonly number[],
  planned: SchoolReads | undefined,
): Promise<{ statuses: ParentStudentStatus[]; placed: Placed[] }> => {
  const children =
    (planned && (await planned.children.catch(() => undefined))) ?? (await activeChildren(schoolId, ids));
  const classroomIds = [...new Set(children.map((child) => child.classroomId))];
  const placed = children.map(({ id, classroomId }) => ({ id, classroomId }));
  if (children.length === 0) return { statuses: [], placed };
  // The plan read each child's marks in the classroom it knew: still theirs?
  const covered =
    planned !== undefined &&
    placed.every((child) =>
      planned.placed.some((was) => was.id === child.id && was.classroomId === child.classroomId),
    );
  let sessionId = planned?.sessionId;
  let lists = covered ? await planned?.lists?.catch(() => undefined) : undefined;
  if (!lists?.[0] || !isSessionRunning(lists[0])) {
    // No plan, or its session ended (or another began): the school's running session, read now.
    sessionId = await pickupSessions.activeId(db, schoolId, { consistent: false });
    lists = sessionId === undefined ? undefined : await readLists(sessionId, classroomIds);
  }
  if (sessionId === undefined || !lists?.[0] || !isSessionRunning(lists[0])) {
    noteRunningSession(schoolId, undefined);
    return { statuses: children.map(notInQueue), placed };
  }
  noteRunningSession(schoolId, sessionId);
  const [, active, marks, sample] = lists;
  const entryOf = new Map<number, QueueEntry>();
  for (const entry of active) {
    for (const student of entry.students) if (!entryOf.has(student.id)) entryOf.set(student.id, entry);
  }
  // Each child's visit and status, worked out once: the wait's read and the answer both use them.
  const seen = children.map((child) => {
    const entry = entryOf.get(child.id);
    const pickedUpAt = marks.pickedUp.get(child.id) ?? null;
    return {
      child,
      entry,
      pickedUpAt,
      status: parentStatusOf(entry, marks.released.get(child.id) ?? null, pickedUpAt),
    };
  });
  const done = sample.pickups.slice(0, RATE_SAMPLE);
  const now = Date.now();
  const statuses = seen.map(({ child, entry, pickedUpAt, status }): ParentStudentStatus => {
    const base = notInQueue(child);
    if (!entry) return status === 'picked_up' ? { ...base, status, pickupTime: pickedUpAt } : base;
    const queued = {
      ...base,
      status,
      vehicleType: entry.vehicleType,
      vehicleNumber: entry.vehicleNumber,
      entryTime: entry.entryTime,
    };
    if (status !== 'in_queue' || entry.position === null) return queued;
    const rate = pickupRate(
      done
        .filter((pickup) => pickup.vehicleType === entry.vehicleType)
        .map((pickup) => pickup.exitTime ?? ''),
      entry.vehicleType,
      now,
    );
    return {
      ...queued,
      queuePosition: entry.position,
      estimatedWaitTime: estimatedWaitMinutes(entry.position, rate),
      batchNumber: entry.batchNumber,
    };
  });
  // A sample read now and estimated from: the polls of the next SAMPLE_KEPT_MS estimate from it too.
  if (!sample.kept && statuses.some((child) => child.estimatedWaitTime !== null))
    remember(samples, sessionId, { ...sample, kept: true }, SAMPLES_KEPT);
  return { statuses, placed };
};

/**
 * A poll's first reads, by the parent's last poll's plan on this instance:
 * which of its links are still there, and each school's reads. Without a
 * plan, none (the poll reads the links whole, then by them).
 */
export interface PollReads {
  plan: Plan | undefined;
  stillLinked: Promise<Map<number, number[]>> | undefined;
  planned: Map<number, SchoolReads>;
}

/** The plan of the parent's last poll this instance answered, if it did. */
export const knownPlanOf = (parentId: number): Plan | undefined => plans.get(parentId);

/** A poll's first reads by plan (`via`: the sign-in's read, or one of their own). */
export const pollReads = (
  parentId: number,
  plan = plans.get(parentId),
  via: <T>(read: KeyedRead<T>) => Promise<T> = (read) => keyedReads.run(db, read),
): PollReads =>
  plan ? { plan, ...readByPlan(parentId, plan, via) } : { plan, stillLinked: undefined, planned: new Map() };

/**
 * Whether the plan's links may stand for the parent's: read whole lately, and
 * every child the parent's record lists (as the sign-in read it) among them.
 */
const linksKnown = (plan: Plan, parent: User, now: number) => {
  if (now - plan.linksReadAt >= LINKS_READ_AGAIN_MS) return false;
  const planned = new Set([...plan.schools.values()].flatMap((part) => part.ids));
  return (parent.studentIds ?? []).every((id) => planned.has(id));
};

/**
 * `GET /api/parent/students/status`: each linked child's pickup now, and
 * nothing about anyone else. `early`: the poll's first reads as the route's early reads
 * (`http/parentStudentStatus.ts`) started them with the sign-in (one round trip for the whole poll).
 */
export const childrenStatus = async (
  parent: User,
  early?: Promise<PollReads>,
): Promise<ParentStudentStatus[]> => {
  const { plan, stillLinked, planned } = (await early) ?? pollReads(parent.id);
  const now = Date.now();
  const known = plan && stillLinked && linksKnown(plan, parent, now);
  let bySchool = known ? await stillLinked.catch(() => undefined) : undefined;
  let linksReadAt = plan?.linksReadAt ?? now;
  if (!bySchool) {
    bySchool = await linkedIdsBySchool(parent.id);
    linksReadAt = now;
  }
  const next: Plan = { linksReadAt, schools: new Map() };
  const pages = await Promise.all(
    [...bySchool].map(async ([schoolId, ids]) => {
      const part = plan?.schools.get(schoolId);
      const matches = part !== undefined && sameIds(part.ids, ids);
      const { statuses, placed } = await statusInSchool(
        schoolId,
        ids,
        matches ? planned.get(schoolId) : undefined,
      );
      next.schools.set(schoolId, { ids, placed });
      return statuses;
    }),
  );
  remember(plans, parent.id, next, PLANS_KEPT);
  return pages.flat().sort(byName);
};
