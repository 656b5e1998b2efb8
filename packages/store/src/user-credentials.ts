import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { User } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import type { Db } from './db';
import { stripKeys } from './ids';
import { isConditionFailure } from './query';
import {
  type AccountKind,
  userKey as key,
  kindOf,
  oneTimeExpiry,
  usernameKey,
  userSearch,
} from './user-item';

/**
 * Signing in and passwords (part of `users`, see `user.ts`): the username
 * claims (`USERNAME#…` / `PARENT_USERNAME#…`) and the password hash on the
 * user item, which nothing else reads.
 */
export const credentials = {
  /**
   * Gives an account without a claimed username its first password, a
   * one-time one (an admin made it): claims the first free of `username`,
   * `username2`, … `username20` and sets the username and the hash, in one
   * transaction per try.
   */
  async claimAndSetPassword(db: Db, user: User, passwordHash: string): Promise<User> {
    const expiresAt = oneTimeExpiry();
    for (let n = 1; n <= 20; n++) {
      const username = n === 1 ? user.username : `${user.username}${n}`;
      const next = { ...user, username, mustChangePassword: true, oneTimePasswordExpiresAt: expiresAt };
      try {
        await db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: db.table,
                  Item: { ...usernameKey(username, kindOf(user.role)), userId: user.id, entity: 'username' },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: db.table,
                  Key: key(user.id),
                  UpdateExpression:
                    'SET username = :username, passwordHash = :hash, #search = :search, mustChangePassword = :yes, oneTimePasswordExpiresAt = :until',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeNames: { '#search': 'search' },
                  ExpressionAttributeValues: {
                    ':username': username,
                    ':hash': passwordHash,
                    ':search': userSearch(next),
                    ':yes': true,
                    ':until': expiresAt,
                  },
                },
              },
            ],
          }),
        );
        return next;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new ConflictError(`No free username like ${user.username}`);
  },

  /** The user of a kind (staff or parent) and their password hash, for sign-in only. */
  async findCredentials(
    db: Db,
    username: string,
    kind: AccountKind = 'staff',
  ): Promise<{ user: User; passwordHash: string } | undefined> {
    if (kind === 'parent')
      return (await credentialsAt(db, usernameKey(username, 'parent'))) ?? legacyParent(db, username);
    const staff = await credentialsAt(db, usernameKey(username, 'staff'));
    return staff && staff.user.role !== 'parent' ? staff : undefined;
  },

  /**
   * Replaces a user's password hash (a sign-in upgrading an older hash), only
   * if it is still `previous`: a password changed meanwhile is never overwritten.
   */
  async replacePasswordHash(db: Db, id: number, previous: string, next: string): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key(id),
          UpdateExpression: 'SET passwordHash = :next',
          ConditionExpression: 'passwordHash = :previous',
          ExpressionAttributeValues: { ':next': next, ':previous': previous },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** Which of these usernames of one kind are taken, and by whom (BatchGet of the claims, 100 a call). */
  async claims(db: Db, usernames: readonly string[], kind: AccountKind): Promise<Map<string, number>> {
    const unique = [...new Set(usernames.map((name) => name.trim().toLowerCase()))];
    const found = new Map<string, number>();
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = unique
        .slice(i, i + 100)
        .map((name) => usernameKey(name, kind));
      while (keys && keys.length > 0) {
        const result: BatchGetCommandOutput = await db.doc.send(
          new BatchGetCommand({ RequestItems: { [db.table]: { Keys: keys } } }),
        );
        for (const item of result.Responses?.[db.table] ?? []) {
          found.set(String(item.pk).slice(String(item.pk).indexOf('#') + 1), item.userId as number);
        }
        keys = result.UnprocessedKeys?.[db.table]?.Keys;
      }
    }
    return found;
  },

  /**
   * A new password hash. `own`: the user chose it, a one-time password is
   * spent (`mustChangePassword` goes); `oneTime`: an admin made it, to be
   * replaced at the next sign-in, within `ONE_TIME_PASSWORD_TTL_MS`; `keep`:
   * the flag stays as it is.
   */
  async setPassword(
    db: Db,
    id: number,
    passwordHash: string,
    kind: 'own' | 'oneTime' | 'keep' = 'keep',
  ): Promise<void> {
    const flag = {
      own: ' REMOVE mustChangePassword, oneTimePasswordExpiresAt',
      oneTime: ', mustChangePassword = :yes, oneTimePasswordExpiresAt = :until',
      keep: '',
    }[kind];
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key(id),
        UpdateExpression: `SET passwordHash = :hash${flag}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':hash': passwordHash,
          ...(kind === 'oneTime' ? { ':yes': true, ':until': oneTimeExpiry() } : {}),
        },
      }),
    );
  },

  /** The user's own new password: the one-time one is spent (`mustChangePassword` goes). */
  setOwnPassword(db: Db, id: number, passwordHash: string): Promise<void> {
    return credentials.setPassword(db, id, passwordHash, 'own');
  },

  /** A one-time password to be replaced at the next sign-in (an admin made it). */
  setOneTimePassword(db: Db, id: number, passwordHash: string): Promise<void> {
    return credentials.setPassword(db, id, passwordHash, 'oneTime');
  },
};

const credentialsAt = async (db: Db, claimKey: { pk: string; sk: string }) => {
  const claim = await db.doc.send(new GetCommand({ TableName: db.table, Key: claimKey }));
  const userId = claim.Item?.userId as number | undefined;
  if (userId === undefined) return undefined;
  const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(userId) }));
  if (!Item) return undefined;
  const { passwordHash, ...user } = stripKeys<User & { passwordHash: string }>(Item);
  return { user, passwordHash };
};

/** A parent registered before parents had their own usernames (their claim is staff-style). */
export const legacyParent = async (db: Db, username: string) => {
  const found = await credentialsAt(db, usernameKey(username, 'staff'));
  return found?.user.role === 'parent' ? found : undefined;
};
