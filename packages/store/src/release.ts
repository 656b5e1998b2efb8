import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StudentSummary } from '@curbside/domain';
import { putAll } from './batch-write';
import type { Db } from './db';
import { queryAll } from './query';

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

type Placed = Pick<StudentSummary, 'id' | 'classroomId'>;

export interface Marks {
  released: Map<number, string>;
  pickedUp: Map<number, string>;
}

export const releases = {
  async release(db: Db, sessionId: number, student: Placed, releasedAt = new Date().toISOString()) {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          pk: partition(sessionId, student.classroomId),
          sk: `${RELEASED}${student.id}`,
          entity: 'release',
          studentId: student.id,
          releasedAt,
        },
      }),
    );
    return releasedAt;
  },

  /**
   * Marks students picked up in a session (their vehicle's pickup completed).
   * Idempotent: a repeat overwrites `pickedUpAt`.
   */
  async pickUp(
    db: Db,
    sessionId: number,
    students: readonly Placed[],
    pickedUpAt = new Date().toISOString(),
  ): Promise<void> {
    const unique = new Map(students.map((student) => [student.id, student]));
    await putAll(
      db,
      [...unique.values()].map((student) => ({
        pk: partition(sessionId, student.classroomId),
        sk: `${PICKED_UP}${student.id}`,
        entity: 'pickedUp',
        studentId: student.id,
        pickedUpAt,
      })),
    );
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
    const released = new Map<number, string>();
    const pickedUp = new Map<number, string>();
    for (const item of pages.flat()) {
      const sk = item.sk as string;
      if (sk.startsWith(RELEASED)) released.set(item.studentId as number, item.releasedAt as string);
      else if (sk.startsWith(PICKED_UP)) pickedUp.set(item.studentId as number, item.pickedUpAt as string);
    }
    return { released, pickedUp };
  },
};
