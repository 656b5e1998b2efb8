import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DismissalActor } from '@curbside/domain';
import type { Db } from './db';
import { isConditionFailure } from './query';
import { wayEventPut } from './way-event';

/**
 * Check-ins at a program (issue 52): a program's staff mark each child who
 * arrived, per school day, so the office can answer "did Ava make it to Kids
 * Club?". One partition per program and day:
 * `SCHOOL#{schoolId}#PROGRAM#{programId}#CHECKINS#{date}` / `STUDENT#{id:010}`.
 * Each check-in and its undo is an event of the student's way-home record
 * (`way-event.ts`), written in the same transaction; the marks share the
 * record's retention.
 */
const partition = (schoolId: number, programId: number, date: string) =>
  `SCHOOL#${schoolId}#PROGRAM#${programId}#CHECKINS#${date}`;
const key = (schoolId: number, programId: number, date: string, studentId: number) => ({
  pk: partition(schoolId, programId, date),
  sk: `STUDENT#${String(studentId).padStart(10, '0')}`,
});
const DAY_SECONDS = 24 * 60 * 60;

export interface CheckInMark {
  studentId: number;
  checkedInAt: string;
  checkedInBy: DismissalActor;
}

interface CheckInWrite {
  schoolId: number;
  program: { id: number; name: string };
  date: string;
  studentId: number;
  actor: DismissalActor;
  retentionDays: number;
}

const recordOf = (
  write: CheckInWrite,
  at: string,
  kind: 'program_checked_in' | 'program_check_in_undone',
) => ({
  schoolId: write.schoolId,
  studentId: write.studentId,
  at,
  actor: write.actor,
  kind,
  checkIn: { programId: write.program.id, programName: write.program.name, date: write.date },
});

export const programCheckIns = {
  /** The day's check-ins of a program (one Query). */
  async ofDay(db: Db, schoolId: number, programId: number, date: string): Promise<Map<number, CheckInMark>> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(schoolId, programId, date) },
      }),
    );
    return new Map(
      Items.map((item) => [
        item.studentId as number,
        {
          studentId: item.studentId as number,
          checkedInAt: item.checkedInAt as string,
          checkedInBy: item.checkedInBy as DismissalActor,
        },
      ]),
    );
  },

  /**
   * Checks a child in with its record, in one transaction; a child already
   * checked in stays as first checked in (answered `undefined`: nothing written).
   */
  async checkIn(
    db: Db,
    write: CheckInWrite,
    at = new Date().toISOString(),
  ): Promise<CheckInMark | undefined> {
    const mark: CheckInMark = { studentId: write.studentId, checkedInAt: at, checkedInBy: write.actor };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...key(write.schoolId, write.program.id, write.date, write.studentId),
                  entity: 'programCheckIn',
                  ...mark,
                  programId: write.program.id,
                  date: write.date,
                  ttl: Math.ceil(Date.parse(at) / 1000) + write.retentionDays * DAY_SECONDS,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            wayEventPut(db, recordOf(write, at, 'program_checked_in'), write.retentionDays),
          ],
        }),
      );
      return mark;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  /** Takes a check-in back (a wrong tap) with its record; false when there was none. */
  async undo(db: Db, write: CheckInWrite, at = new Date().toISOString()): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: db.table,
                Key: key(write.schoolId, write.program.id, write.date, write.studentId),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            wayEventPut(db, recordOf(write, at, 'program_check_in_undone'), write.retentionDays),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};
