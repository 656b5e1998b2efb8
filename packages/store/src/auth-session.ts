import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/**
 * Sign-in session: `AUTH#{sha256(token)}` / `AUTH` → userId, expiresAt, ttl.
 * Only the token's hash is stored. TTL deletes late, so expiry is also
 * checked here.
 */
const key = (token: string) => ({
  pk: `AUTH#${createHash('sha256').update(token).digest('base64url')}`,
  sk: 'AUTH',
});

export interface AuthSession {
  userId: number;
  expiresAt: string;
}

export const authSessions = {
  async put(db: Db, token: string, session: AuthSession): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...key(token),
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
    if (!Item || Date.parse(Item.expiresAt) <= now) return undefined;
    return { userId: Item.userId, expiresAt: Item.expiresAt };
  },

  async revoke(db: Db, token: string): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key(token) }));
  },
};
