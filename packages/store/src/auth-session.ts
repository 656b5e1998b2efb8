import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { deleteAll } from './batch-write';
import type { Db } from './db';
import { queryAll } from './query';

/**
 * Sign-in session: `AUTH#{sessionId}` / `AUTH` → userId, expiresAt, ttl, where
 * the session id is sha256(token) in base64url: only the token's hash is
 * stored. A user's sessions: gsi1 `USER#{userId}#AUTH` / `{sessionId}`, so
 * all of them can be revoked at once. TTL deletes late, so expiry is also
 * checked here.
 */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('base64url');

const keyOfId = (sessionId: string) => ({ pk: `AUTH#${sessionId}`, sk: 'AUTH' });
/** A sign-in's item, by its token. */
export const authSessionKey = (token: string) => keyOfId(sessionIdOf(token));
const key = authSessionKey;
const userSessions = (userId: number) => `USER#${userId}#AUTH`;

export interface AuthSession {
  userId: number;
  expiresAt: string;
}

/** A sign-in item as a session, when it has not expired. */
export const liveSession = (
  item: Record<string, unknown> | undefined,
  now = Date.now(),
): AuthSession | undefined =>
  item && Date.parse(item.expiresAt as string) > now
    ? { userId: item.userId as number, expiresAt: item.expiresAt as string }
    : undefined;

export const authSessions = {
  async put(db: Db, token: string, session: AuthSession): Promise<void> {
    const sessionId = sessionIdOf(token);
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...keyOfId(sessionId),
          gsi1pk: userSessions(session.userId),
          gsi1sk: sessionId,
          entity: 'authSession',
          ...session,
          ttl: Math.ceil(Date.parse(session.expiresAt) / 1000),
        },
      }),
    );
  },

  /** The live session of a token; expired or revoked answers undefined. */
  async get(db: Db, token: string, now = Date.now()): Promise<AuthSession | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(token) }));
    return liveSession(Item, now);
  },

  async revoke(db: Db, token: string): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key(token) }));
  },

  /**
   * Revokes every session of a user (one index Query, then batch deletes);
   * answers the ids of the sessions revoked. Sessions signed in before
   * sessions were indexed by user are not found here; they expire within 12 hours.
   */
  async revokeAllOf(db: Db, userId: number): Promise<string[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': userSessions(userId) },
      ProjectionExpression: 'gsi1sk',
    });
    const ids = items.map((item) => item.gsi1sk as string);
    await deleteAll(db, ids.map(keyOfId));
    return ids;
  },
};
