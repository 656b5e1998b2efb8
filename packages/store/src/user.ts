import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { isConditionFailure } from './query';

/**
 * User (staff and parents): `USER#{id}` / `USER`, holding the password hash.
 * Username claim: `USERNAME#{lowercased username}` / `USERNAME` → userId for
 *   staff, `PARENT_USERNAME#{lowercased username}` / `USERNAME` for parents,
 *   written in the same transaction so a username is never taken twice. Staff
 *   and parents sign in at different doors, so their usernames are apart:
 *   parent registration can never tell that a staff username exists. (Parents
 *   registered before the split keep a staff-style claim; sign-in and
 *   registration still find them there.)
 * Users of a school: gsi1 `SCHOOL#{schoolId}#USERS` / `USER#{id:010}`.
 * Users of a district: gsi2 `DISTRICT#{districtId}#USERS` / `USER#{id:010}`.
 */
const key = (id: number) => ({ pk: `USER#${id}`, sk: 'USER' });

/** Who signs in where: staff at the staff sign-in, parents at the parent portal. */
export type AccountKind = 'staff' | 'parent';

const usernameKey = (username: string, kind: AccountKind) => ({
  pk: `${kind === 'parent' ? 'PARENT_USERNAME' : 'USERNAME'}#${username.trim().toLowerCase()}`,
  sk: 'USERNAME',
});
const kindOf = (role: User['role']): AccountKind => (role === 'parent' ? 'parent' : 'staff');
const sortable = (id: number) => `USER#${String(id).padStart(10, '0')}`;

export interface NewUser extends Omit<User, 'id'> {
  passwordHash: string;
}

export const users = {
  async create(db: Db, input: NewUser): Promise<User> {
    const kind = kindOf(input.role);
    const taken = () => new ConflictError(`Username ${input.username} is already taken`);
    if (kind === 'parent' && (await legacyParent(db, input.username))) throw taken();
    const id = await nextId(db, 'user');
    const { passwordHash, ...fields } = input;
    const user: User = { id, ...fields };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...usernameKey(user.username, kind), userId: id, entity: 'username' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: db.table,
                Item: {
                  ...key(id),
                  ...(user.schoolId !== null
                    ? { gsi1pk: `SCHOOL#${user.schoolId}#USERS`, gsi1sk: sortable(id) }
                    : {}),
                  ...(user.districtId !== null
                    ? { gsi2pk: `DISTRICT#${user.districtId}#USERS`, gsi2sk: sortable(id) }
                    : {}),
                  entity: 'user',
                  ...user,
                  passwordHash,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw taken();
      throw error;
    }
    return user;
  },

  async get(db: Db, id: number): Promise<User | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(id) }));
    if (!Item) return undefined;
    const { passwordHash, ...user } = stripKeys<User & { passwordHash: string }>(Item);
    return user;
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

  async listBySchool(db: Db, schoolId: number): Promise<User[]> {
    return queryUsers(db, 'gsi1', `SCHOOL#${schoolId}#USERS`);
  },

  async listByDistrict(db: Db, districtId: number): Promise<User[]> {
    return queryUsers(db, 'gsi2', `DISTRICT#${districtId}#USERS`);
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
const legacyParent = async (db: Db, username: string) => {
  const found = await credentialsAt(db, usernameKey(username, 'staff'));
  return found?.user.role === 'parent' ? found : undefined;
};

const queryUsers = async (db: Db, index: 'gsi1' | 'gsi2', partition: string) => {
  const { Items = [] } = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
    }),
  );
  return Items.map((item) => {
    const { passwordHash, ...user } = stripKeys<User & { passwordHash: string }>(item);
    return user;
  });
};
