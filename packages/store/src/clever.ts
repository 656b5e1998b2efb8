import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '@curbside/domain';
import type { Db } from './db';
import { isConditionFailure } from './query';
import { TTL_ATTRIBUTE } from './table';

/**
 * Single sign-on through Clever.
 *
 * - Sign-in state: `SSO_STATE#{sha256(state)}` / `SSO_STATE` → expiresAt,
 *   ttl. Made when a browser starts a sign-in, taken (deleted) by its
 *   callback: single use, and only its hash is stored.
 * - Clever ids: `CLEVER_USER#{cleverId}` / `CLEVER` → userId and
 *   `CLEVER_DISTRICT#{cleverId}` / `CLEVER` → districtId and
 *   `CLEVER_SCHOOL#{cleverId}` / `CLEVER` → schoolId, written with the
 *   record's own `cleverId` in one transaction: one local record per Clever id.
 */
const stateKey = (state: string) => ({
  pk: `SSO_STATE#${createHash('sha256').update(state).digest('base64url')}`,
  sk: 'SSO_STATE',
});
const userLink = (cleverId: string) => ({ pk: `CLEVER_USER#${cleverId}`, sk: 'CLEVER' });
const districtLink = (cleverId: string) => ({ pk: `CLEVER_DISTRICT#${cleverId}`, sk: 'CLEVER' });
const schoolLink = (cleverId: string) => ({ pk: `CLEVER_SCHOOL#${cleverId}`, sk: 'CLEVER' });

export const ssoStates = {
  async create(db: Db, state: string, ttlMs: number, now = Date.now()): Promise<void> {
    const expiresAt = now + ttlMs;
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...stateKey(state),
          entity: 'ssoState',
          expiresAt,
          [TTL_ATTRIBUTE]: Math.ceil(expiresAt / 1000) + 60,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  /** Takes a state once: true when it was made here and has not expired; a second take is false. */
  async take(db: Db, state: string, now = Date.now()): Promise<boolean> {
    try {
      const { Attributes } = await db.doc.send(
        new DeleteCommand({
          TableName: db.table,
          Key: stateKey(state),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      return typeof Attributes?.expiresAt === 'number' && Attributes.expiresAt > now;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};

const idOf = async (db: Db, key: { pk: string; sk: string }, field: string): Promise<number | undefined> => {
  const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key }));
  const id = Item?.[field];
  return typeof id === 'number' ? id : undefined;
};

/** Claims a Clever id for a record (the record gets `cleverId`); 409 when another record holds it. */
const link = async (
  db: Db,
  claim: { pk: string; sk: string },
  field: 'userId' | 'districtId' | 'schoolId',
  id: number,
  record: { pk: string; sk: string },
  cleverId: string,
): Promise<void> => {
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: db.table,
              Item: { ...claim, entity: 'cleverLink', [field]: id },
              ConditionExpression: 'attribute_not_exists(pk) OR #id = :id',
              ExpressionAttributeNames: { '#id': field },
              ExpressionAttributeValues: { ':id': id },
            },
          },
          {
            Update: {
              TableName: db.table,
              Key: record,
              UpdateExpression: 'SET cleverId = :cleverId',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':cleverId': cleverId },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('This Clever account is linked to another record');
    throw error;
  }
};

export const cleverLinks = {
  userOf: (db: Db, cleverId: string) => idOf(db, userLink(cleverId), 'userId'),
  districtOf: (db: Db, cleverId: string) => idOf(db, districtLink(cleverId), 'districtId'),
  schoolOf: (db: Db, cleverId: string) => idOf(db, schoolLink(cleverId), 'schoolId'),
  linkSchool: (db: Db, schoolId: number, cleverId: string) =>
    link(
      db,
      schoolLink(cleverId),
      'schoolId',
      schoolId,
      { pk: `SCHOOL#${schoolId}`, sk: 'SCHOOL' },
      cleverId,
    ),
  linkUser: (db: Db, userId: number, cleverId: string) =>
    link(db, userLink(cleverId), 'userId', userId, { pk: `USER#${userId}`, sk: 'USER' }, cleverId),
  linkDistrict: (db: Db, districtId: number, cleverId: string) =>
    link(
      db,
      districtLink(cleverId),
      'districtId',
      districtId,
      { pk: `DISTRICT#${districtId}`, sk: 'DISTRICT' },
      cleverId,
    ),
};
