import { DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  type ChildRelease,
  type DismissalActor,
  type QueueEntry,
  type RecentWayRelease,
  type Recording,
  type ReleasedWay,
  type ReleaseMark,
  releasesAtCompletion,
  type StudentSummary,
  summaryOf,
} from '@curbside/domain';
import { getAll, putAll, rewriteAll } from './batch-write';
import type { Db } from './db';
import { eventPuts, TRANSACTION_ITEM_LIMIT } from './dismissal-event';
import { itemAt, type KeyedRead, keyedReads } from './keyed-read';
import { cancellationReasons, isConditionFailure, queryAll } from './query';

/**
 * What happened to students in a session, per classroom, so a teacher's view
 * reads only its classrooms: partition `RELEASE#{sessionId}#CLASSROOM#{classroomId}`
 * (`NONE` for a student in no classroom) holds released students
 * (`STUDENT#{studentId}`) and picked-up students (`PICKEDUP#{studentId}`).
 */
const partition = (sessionId: number, classroomId: number | null) =>
  `RELEASE#${sessionId}#CLASSROOM#${classroomId ?? 'NONE'}`;
const RELEASED = 'STUDENT#';
const PICKED_UP = 'PICKEDUP#';
/**
 * A session's releases by way home, oldest first (gsi1, on the marks a
 * release by way home writes, issue 52): `RELEASE#{sessionId}#WAYS` /
 * `{releasedAt}#{studentId:010}`. The hallway display reads the last minutes of it.
 */
const wayReleasesOf = (sessionId: number) => `RELEASE#${sessionId}#WAYS`;
/** A student's pickups, newest first (gsi2, on the picked-up marks): `SCHOOL#{schoolId}#STUDENT#{studentId}#PICKUPS` / `{pickedUpAt}#{sessionId}`. */
const pickupsOf = (schoolId: number, studentId: number) => `SCHOOL#${schoolId}#STUDENT#${studentId}#PICKUPS`;
const DAY_SECONDS = 24 * 60 * 60;
const expiry = (at: string, recording: Recording) =>
  Math.ceil(Date.parse(at) / 1000) + recording.retentionDays * DAY_SECONDS;

/** A pickup of one student as their history keeps it (a picked-up mark). */
export interface PickupMark {
  studentId: number;
  sessionId: number;
  pickedUpAt: string;
  entryId: string | null;
  vehicleNumber: string | null;
  vehicleType: 'car' | 'bus' | null;
  completedBy: DismissalActor | null;
  releasedAt: string | null;
  releasedBy: DismissalActor | null;
  /** Completed while not released by a teacher, as the completion recorded it. */
  completedWithoutRelease: boolean;
}

type Placed = Pick<StudentSummary, 'id' | 'classroomId'>;

export interface Marks {
  released: Map<number, string>;
  pickedUp: Map<number, string>;
  /** Who released each released student (absent on marks made before the record). */
  releasedBy: Map<number, DismissalActor>;
}

/** The most students a release by way home writes in one transaction beside its event and a key's claim. */
export const RELEASES_WITH_A_CLAIM = TRANSACTION_ITEM_LIMIT - 2;

export const releases = {
  /**
   * Rewrites a student's marks in some sessions (a student's erasure, issue
   * 55): their picked-up marks (gsi2) and their released marks, in each of the
   * classrooms' partitions (a child may have changed classroom).
   */
  async rewriteOfStudent(
    db: Db,
    student: { schoolId: number; id: number },
    where: { sessionIds: readonly number[]; classroomIds: readonly (number | null)[] },
    rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<number> {
    const [pickedUp, released] = await Promise.all([
      queryAll(db, {
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': pickupsOf(student.schoolId, student.id) },
      }),
      getAll(
        db,
        where.sessionIds.flatMap((sessionId) =>
          where.classroomIds.map((classroomId) => ({
            pk: partition(sessionId, classroomId),
            sk: `${RELEASED}${student.id}`,
          })),
        ),
      ),
    ]);
    // The index's copies are eventually consistent: the items themselves are read again.
    const marks = await getAll(
      db,
      pickedUp.map((item) => ({ pk: item.pk, sk: item.sk })),
    );
    return rewriteAll(db, [...marks, ...released], rewrite);
  },

  /**
   * Marks a student released in a session (with who released them), with its
   * record (`student_released`), in one transaction.
   */
  async release(
    db: Db,
    scope: { schoolId: number; sessionId: number },
    student: StudentSummary,
    recording: Recording,
    releasedAt = new Date().toISOString(),
  ) {
    const { id, firstName, lastName, grade, classroomId } = student;
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: db.table,
              Item: {
                pk: partition(scope.sessionId, student.classroomId),
                sk: `${RELEASED}${student.id}`,
                entity: 'release',
                studentId: student.id,
                releasedAt,
                releasedBy: recording.actor,
                ttl: expiry(releasedAt, recording),
              },
            },
          },
          ...eventPuts(
            db,
            scope,
            releasedAt,
            [
              {
                kind: 'student_released',
                entries: [],
                student: { id, firstName, lastName, grade, classroomId },
              },
            ],
            recording,
          ),
        ],
      }),
    );
    return releasedAt;
  },

  /**
   * Releases students by way home (issue 52: the walkers, a bus's riders or a
   * program's children of some classrooms) with one `students_released` event
   * per transaction (at most 99 students each). Each mark is written only if
   * the student has none yet: a student already released (a second press,
   * another tablet at the same moment) is left as they are and not named in
   * the event. Answers the students released by this call.
   *
   * `beforeCommit`, for a release that is one transaction (at most
   * `RELEASES_WITH_A_CLAIM` students: their marks, the event and a key's claim
   * within DynamoDB's 100 items), is called before each try with the students
   * that try releases, so the caller can keep its answer in the key's claim
   * the transaction writes (issue 54: no write after it). Never called for a
   * larger release: none of its transactions holds the whole answer.
   */
  async releaseByWay(
    db: Db,
    scope: { schoolId: number; sessionId: number },
    students: readonly StudentSummary[],
    way: ReleasedWay,
    recording: Recording,
    releasedAt = new Date().toISOString(),
    { beforeCommit }: { beforeCommit?: (releasing: readonly StudentSummary[]) => void } = {},
  ): Promise<StudentSummary[]> {
    const released: StudentSummary[] = [];
    const chunk = TRANSACTION_ITEM_LIMIT - 1;
    const answered = students.length <= RELEASES_WITH_A_CLAIM ? beforeCommit : undefined;
    for (let start = 0; start < students.length; start += chunk) {
      let pending = students.slice(start, start + chunk).map(summaryOf);
      // A student released meanwhile fails their mark's condition: the rest are written again without them.
      for (let attempt = 0; pending.length > 0 && attempt < 3; attempt++) {
        answered?.(pending);
        try {
          await db.doc.send(
            new TransactWriteCommand({
              TransactItems: [
                ...pending.map((student) => ({
                  Put: {
                    TableName: db.table,
                    Item: {
                      pk: partition(scope.sessionId, student.classroomId),
                      sk: `${RELEASED}${student.id}`,
                      gsi1pk: wayReleasesOf(scope.sessionId),
                      gsi1sk: `${releasedAt}#${String(student.id).padStart(10, '0')}`,
                      entity: 'release',
                      studentId: student.id,
                      student,
                      way,
                      releasedAt,
                      releasedBy: recording.actor,
                      ttl: expiry(releasedAt, recording),
                    },
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                })),
                ...eventPuts(
                  db,
                  scope,
                  releasedAt,
                  [{ kind: 'students_released', entries: [], students: pending, way }],
                  recording,
                ),
              ],
            }),
          );
          released.push(...pending);
          pending = [];
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          const reasons = cancellationReasons(error);
          const taken = new Set(
            pending.filter((_, i) => reasons[i] === 'ConditionalCheckFailed').map((student) => student.id),
          );
          if (taken.size === 0) throw error;
          pending = pending.filter((student) => !taken.has(student.id));
        }
      }
    }
    return released;
  },

  /** A session's releases by way home since `since` (gsi1, oldest first): what the hallway display shows. */
  async recentByWay(db: Db, sessionId: number, since: string): Promise<RecentWayRelease[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
      ExpressionAttributeValues: { ':pk': wayReleasesOf(sessionId), ':since': since },
    });
    return items.map((item) => ({
      releasedAt: item.releasedAt as string,
      way: item.way as ReleasedWay,
      student: item.student as StudentSummary,
    }));
  },

  /**
   * The Deletes of the picked-up marks a completion wrote for `entry`, for
   * Undo's own transaction (`restoreVisit`, issue 54): each only while it names
   * this visit or is gone, so a mark a later pickup wrote cancels the
   * transaction (its caller then takes them back with `unPickUp`, which leaves
   * that one).
   */
  unPickUpDeletes(db: Db, sessionId: number, entry: Pick<QueueEntry, 'id' | 'students'>) {
    return entry.students.map((student) => ({
      Delete: {
        TableName: db.table,
        Key: { pk: partition(sessionId, student.classroomId), sk: `${PICKED_UP}${student.id}` },
        ConditionExpression: 'attribute_not_exists(pk) OR entryId = :entryId',
        ExpressionAttributeValues: { ':entryId': entry.id },
      },
    }));
  },

  /**
   * Takes back the picked-up marks a completion wrote for `entry` (Undo of a
   * pickup): only marks that name this visit, so a later pickup stays.
   */
  async unPickUp(db: Db, sessionId: number, entry: Pick<QueueEntry, 'id' | 'students'>): Promise<void> {
    await Promise.all(
      entry.students.map(async (student) => {
        try {
          await db.doc.send(
            new DeleteCommand({
              TableName: db.table,
              Key: { pk: partition(sessionId, student.classroomId), sk: `${PICKED_UP}${student.id}` },
              ConditionExpression: 'entryId = :entryId',
              ExpressionAttributeValues: { ':entryId': entry.id },
            }),
          );
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }),
    );
  },

  /**
   * Marks the students of completed pickups picked up in a session (for the
   * teacher screen's Picked Up and each student's pickup history), each with
   * their release as the completion's event records it (`releasesAtCompletion`
   * of the same marks): the history says what the report says. Without marks
   * (a morning drop-off releases nobody) none is recorded.
   * Idempotent: a repeat overwrites `pickedUpAt`.
   */
  async pickUp(
    db: Db,
    scope: { schoolId: number; sessionId: number },
    completed: readonly Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>[],
    recording: Recording,
    pickedUpAt = new Date().toISOString(),
    marks?: ReadonlyMap<number, ReleaseMark>,
  ): Promise<void> {
    await putAll(db, releases.pickUpItems(scope, completed, recording, pickedUpAt, marks));
  },

  /**
   * `pickUp`'s items, to write in a completion's own transaction when they fit
   * (`PICKUPS_IN_COMPLETION`, issue 54: no call of their own).
   */
  pickUpItems(
    scope: { schoolId: number; sessionId: number },
    completed: readonly Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>[],
    recording: Recording,
    pickedUpAt: string,
    marks?: ReadonlyMap<number, ReleaseMark>,
  ): Record<string, unknown>[] {
    const unique = new Map<
      number,
      { student: Placed; entry: (typeof completed)[number]; atCompletion: ChildRelease | undefined }
    >();
    for (const entry of completed) {
      const facts = marks && releasesAtCompletion(entry, marks);
      entry.students.forEach((student, i) => {
        unique.set(student.id, { student, entry, atCompletion: facts?.[i] });
      });
    }
    return [...unique.values()].map(({ student, entry, atCompletion }) => ({
      pk: partition(scope.sessionId, student.classroomId),
      sk: `${PICKED_UP}${student.id}`,
      gsi2pk: pickupsOf(scope.schoolId, student.id),
      gsi2sk: `${pickedUpAt}#${scope.sessionId}`,
      entity: 'pickedUp',
      studentId: student.id,
      sessionId: scope.sessionId,
      pickedUpAt,
      entryId: entry.id,
      vehicleNumber: entry.vehicleNumber,
      vehicleType: entry.vehicleType,
      completedBy: recording.actor,
      ...(atCompletion ? { atCompletion } : {}),
      ttl: expiry(pickedUpAt, recording),
    }));
  },

  /**
   * The release marks of some students in a session, read by key (one
   * BatchGetItem per 100): student id → when and by whom; unreleased
   * students are absent.
   */
  async ofStudents(
    db: Db,
    sessionId: number,
    students: readonly Placed[],
  ): Promise<Map<number, ReleaseMark>> {
    return keyedReads.run(db, releases.keyedReleaseMarks(sessionId, students));
  },

  /**
   * `ofStudents` as a keyed read (`keyed-read.ts`, issue 54: a release by way
   * home reads them in one BatchGetItem with the students' plans), consistent
   * unless asked not (a release by way home: its marks' condition in the
   * transaction is what keeps a child from being released twice).
   */
  keyedReleaseMarks(
    sessionId: number,
    students: readonly Placed[],
    { consistent = true } = {},
  ): KeyedRead<Map<number, ReleaseMark>> {
    const unique = new Map(students.map((student) => [student.id, student]));
    const keys = [...unique.values()].map((student) => ({
      pk: partition(sessionId, student.classroomId),
      sk: `${RELEASED}${student.id}`,
    }));
    return {
      keys,
      consistent,
      from: (found) =>
        new Map(
          keys
            .map((key) => itemAt(found, key))
            .filter((item) => item !== undefined)
            .map((item) => [
              item.studentId as number,
              {
                releasedAt: item.releasedAt as string,
                releasedBy: (item.releasedBy as DismissalActor | undefined) ?? null,
              },
            ]),
        ),
    };
  },

  /**
   * A student's last pickups, newest first: one Query of their pickups
   * (gsi2), then who released them in each session (BatchGetItem of the
   * release marks beside each pickup mark).
   */
  async ofStudent(db: Db, schoolId: number, student: Placed, limit = 20): Promise<PickupMark[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': pickupsOf(schoolId, student.id) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const now = Date.now() / 1000;
    const marks = Items.filter((item) => typeof item.ttl !== 'number' || item.ttl > now);
    // Pickups marked before their completion recorded each child's release: the session's release mark.
    const older = marks.filter((item) => item.atCompletion === undefined);
    const released =
      older.length === 0
        ? []
        : await getAll(
            db,
            older.map((item) => ({ pk: item.pk, sk: `${RELEASED}${student.id}` })),
          );
    const releaseOf = new Map(released.map((item) => [item.pk as string, item]));
    return marks.map((item) => {
      const recorded = item.atCompletion as ChildRelease | undefined;
      const release = recorded
        ? { releasedAt: recorded.releasedAt, releasedBy: recorded.releasedBy }
        : releaseOf.get(item.pk as string);
      return {
        studentId: student.id,
        sessionId: item.sessionId as number,
        pickedUpAt: item.pickedUpAt as string,
        entryId: (item.entryId as string | undefined) ?? null,
        vehicleNumber: (item.vehicleNumber as string | undefined) ?? null,
        vehicleType: (item.vehicleType as 'car' | 'bus' | undefined) ?? null,
        completedBy: (item.completedBy as DismissalActor | undefined) ?? null,
        releasedAt: (release?.releasedAt as string | null | undefined) ?? null,
        releasedBy: (release?.releasedBy as DismissalActor | null | undefined) ?? null,
        completedWithoutRelease: recorded !== undefined && recorded.releasedAt === null,
      };
    });
  },

  /**
   * Whether these students were released and picked up in a session, read by
   * key in a BatchGetItem shared with others (`keyed-read.ts`): each one's
   * marks in their classroom's partition (`ofClassrooms`' answer, of them only).
   */
  keyedOfStudents(sessionId: number, students: readonly Placed[]): KeyedRead<Marks> {
    const keys = students.flatMap(({ id, classroomId }) => [
      { pk: partition(sessionId, classroomId), sk: `${RELEASED}${id}` },
      { pk: partition(sessionId, classroomId), sk: `${PICKED_UP}${id}` },
    ]);
    return {
      keys,
      from: (found) => marksOf(keys.map((key) => itemAt(found, key)).filter((item) => item !== undefined)),
    };
  },

  /** Who was released and who was picked up in a session in some classrooms (student id → time), one Query each. */
  async ofClassrooms(db: Db, sessionId: number, classroomIds: readonly (number | null)[]): Promise<Marks> {
    const pages = await Promise.all(
      [...new Set(classroomIds)].map((classroomId) =>
        queryAll(db, {
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': partition(sessionId, classroomId) },
        }),
      ),
    );
    return marksOf(pages.flat());
  },
};

/** Release and picked-up marks as the screens read them (student id → time, and who released). */
const marksOf = (items: readonly Record<string, unknown>[]): Marks => {
  const released = new Map<number, string>();
  const pickedUp = new Map<number, string>();
  const releasedBy = new Map<number, DismissalActor>();
  for (const item of items) {
    const sk = item.sk as string;
    if (sk.startsWith(RELEASED)) {
      released.set(item.studentId as number, item.releasedAt as string);
      if (item.releasedBy) releasedBy.set(item.studentId as number, item.releasedBy as DismissalActor);
    } else if (sk.startsWith(PICKED_UP)) pickedUp.set(item.studentId as number, item.pickedUpAt as string);
  }
  return { released, pickedUp, releasedBy };
};
