import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PickupCode } from '@curbside/domain';
import { deleteAll } from './batch-write';
import type { Db } from './db';
import { parentLinkItems } from './parent';
import { cancellationReasons, isConditionFailure } from './query';

/**
 * Pickup code: `PICKUPCODE#{code}` / `CODE`, claimed on condition that no
 * active code holds it (absent, or expired), so active codes are unique.
 * TTL removes it a day after expiry; expiry is checked in code.
 * A student's current code: `STUDENT_CODE#{schoolId}#{studentId}` / `CODE` → code.
 * Using a code writes the parent links (`parent.ts` owns their keys).
 */
const codeKey = (code: string) => ({ pk: `PICKUPCODE#${code}`, sk: 'CODE' });
const currentKey = (schoolId: number, studentId: number) => ({
  pk: `STUDENT_CODE#${schoolId}#${studentId}`,
  sk: 'CODE',
});
const DAY_SECONDS = 24 * 60 * 60;

export const pickupCodes = {
  /**
   * Claims a code for a student and makes it the student's current one, on
   * condition that the current one is still `previous` (what the caller read).
   * 'taken' when an active code of anyone already holds these characters (try
   * others); 'raced' when someone else gave the student a code meanwhile.
   */
  async claim(db: Db, code: PickupCode, previous: string | null): Promise<'claimed' | 'taken' | 'raced'> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...codeKey(code.code),
                  entity: 'pickupCode',
                  ...code,
                  ttl: Math.ceil(Date.parse(code.expiresAt) / 1000) + DAY_SECONDS,
                },
                ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
                ExpressionAttributeValues: { ':now': new Date().toISOString() },
              },
            },
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...currentKey(code.schoolId, code.studentId),
                  code: code.code,
                  entity: 'studentCode',
                },
                ...(previous === null
                  ? { ConditionExpression: 'attribute_not_exists(pk)' }
                  : {
                      ConditionExpression: 'code = :previous',
                      ExpressionAttributeValues: { ':previous': previous },
                    }),
              },
            },
          ],
        }),
      );
      return 'claimed';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return cancellationReasons(error)[1] === 'ConditionalCheckFailed' ? 'raced' : 'taken';
    }
  },

  async get(db: Db, code: string): Promise<PickupCode | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: codeKey(code), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk, sk, entity, ttl, ...rest } = Item;
    return rest as PickupCode;
  },

  /**
   * The student's most recent code, whatever its state, and the characters
   * the student's pointer holds (what `claim` expects as `previous`; they
   * outlive the code item, which TTL removes a day after expiry).
   */
  async current(
    db: Db,
    schoolId: number,
    studentId: number,
  ): Promise<{ code: PickupCode | undefined; pointer: string | null }> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: currentKey(schoolId, studentId), ConsistentRead: true }),
    );
    if (!Item) return { code: undefined, pointer: null };
    const pointer = Item.code as string;
    const code = await pickupCodes.get(db, pointer);
    return {
      code: code?.studentId === studentId && code.schoolId === schoolId ? code : undefined,
      pointer,
    };
  },

  /** Erases a student's current code and its pointer (issue 55). */
  async eraseOfStudent(db: Db, schoolId: number, studentId: number): Promise<void> {
    const { code, pointer } = await pickupCodes.current(db, schoolId, studentId);
    await deleteAll(db, [currentKey(schoolId, studentId), ...(pointer && code ? [codeKey(pointer)] : [])]);
  },

  /** The student's most recent code, whatever its state. */
  async currentFor(db: Db, schoolId: number, studentId: number): Promise<PickupCode | undefined> {
    return (await pickupCodes.current(db, schoolId, studentId)).code;
  },

  /**
   * Uses an active code and links the parent to the child, in one
   * transaction: a code is used once, never after it expires.
   */
  async use(db: Db, code: PickupCode, parentId: number, usedAt = new Date().toISOString()): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: codeKey(code.code),
                UpdateExpression: 'SET usedAt = :usedAt, usedBy = :parentId',
                ConditionExpression:
                  'studentId = :studentId AND attribute_type(usedAt, :null) AND expiresAt > :now',
                ExpressionAttributeValues: {
                  ':usedAt': usedAt,
                  ':parentId': parentId,
                  ':studentId': code.studentId,
                  ':null': 'NULL',
                  ':now': usedAt,
                },
              },
            },
            ...parentLinkItems(parentId, code.schoolId, code.studentId, usedAt).map((Item) => ({
              Put: { TableName: db.table, Item },
            })),
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
