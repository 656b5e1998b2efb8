import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { cancellationReasons, isConditionFailure } from './query';
import { TTL_ATTRIBUTE } from './table';
import { userKey } from './user';

/**
 * Password-reset links of parent accounts (issue 50): `PASSWORDRESET#{hash}` /
 * `PASSWORDRESET` → the account (`userId`), `createdAt`, `expiresAt`,
 * `usedAt`. The token itself is only in the message that carries the link:
 * the store keeps its SHA-256 hash. Using one sets the account's password and
 * spends the link in one transaction, so a link works once. TTL removes the
 * item a day after it expired (its expiry is also checked in code).
 */
const resetKey = (tokenHash: string) => ({ pk: `PASSWORDRESET#${tokenHash}`, sk: 'PASSWORDRESET' });
const KEEP_SECONDS = 24 * 60 * 60;

export interface PasswordReset {
  userId: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export const passwordResets = {
  async create(db: Db, tokenHash: string, reset: Omit<PasswordReset, 'usedAt'>): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...resetKey(tokenHash),
          entity: 'passwordReset',
          ...reset,
          usedAt: null,
          [TTL_ATTRIBUTE]: Math.ceil(Date.parse(reset.expiresAt) / 1000) + KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async get(db: Db, tokenHash: string): Promise<PasswordReset | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: resetKey(tokenHash), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      userId: Item.userId as number,
      createdAt: Item.createdAt as string,
      expiresAt: Item.expiresAt as string,
      usedAt: (Item.usedAt as string | null) ?? null,
    };
  },

  /**
   * Spends the link and gives its account the new password hash (the
   * account's own: a one-time password is spent too), in one transaction.
   * False when the link was used meanwhile, has expired, or its account is gone.
   */
  async redeem(
    db: Db,
    tokenHash: string,
    userId: number,
    passwordHash: string,
    now = new Date().toISOString(),
  ): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: resetKey(tokenHash),
                UpdateExpression: 'SET usedAt = :now',
                ConditionExpression: 'attribute_type(usedAt, :null) AND expiresAt > :now AND userId = :user',
                ExpressionAttributeValues: { ':now': now, ':null': 'NULL', ':user': userId },
              },
            },
            {
              Update: {
                TableName: db.table,
                Key: userKey(userId),
                UpdateExpression:
                  'SET passwordHash = :hash REMOVE mustChangePassword, oneTimePasswordExpiresAt',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':hash': passwordHash },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error) && !cancellationReasons(error).includes('TransactionConflict'))
        return false;
      throw error;
    }
  },
};
