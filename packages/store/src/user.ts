import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { isConditionFailure } from './query';

/**
 * User (staff and parents): `USER#{id}` / `USER`, holding the password hash.
 * Username claim: `USERNAME#{lowercased username}` / `USERNAME` → userId,
 *   written in the same transaction so a username is never taken twice.
 * Users of a school: gsi1 `SCHOOL#{schoolId}#USERS` / `USER#{id:010}`.
 * Users of a district: gsi2 `DISTRICT#{districtId}#USERS` / `USER#{id:010}`.
 */
const key = (id: number) => ({ pk: `USER#${id}`, sk: 'USER' });
const usernameKey = (username: string) => ({
  pk: `USERNAME#${username.trim().toLowerCase()}`,
  sk: 'USERNAME',
});
const sortable = (id: number) => `USER#${String(id).padStart(10, '0')}`;

export interface NewUser extends Omit<User, 'id'> {
  passwordHash: string;
}

export const users = {
  async create(db: Db, input: NewUser): Promise<User> {
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
                Item: { ...usernameKey(user.username), userId: id, entity: 'username' },
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
      if (isConditionFailure(error)) {
        throw new ConflictError(`Username ${user.username} is already taken`);
      }
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

  /** The user and their password hash, for sign-in only. */
  async findCredentials(db: Db, username: string): Promise<{ user: User; passwordHash: string } | undefined> {
    const claim = await db.doc.send(new GetCommand({ TableName: db.table, Key: usernameKey(username) }));
    const userId = claim.Item?.userId as number | undefined;
    if (userId === undefined) return undefined;
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(userId) }));
    if (!Item) return undefined;
    const { passwordHash, ...user } = stripKeys<User & { passwordHash: string }>(Item);
    return { user, passwordHash };
  },

  async listBySchool(db: Db, schoolId: number): Promise<User[]> {
    return queryUsers(db, 'gsi1', `SCHOOL#${schoolId}#USERS`);
  },

  async listByDistrict(db: Db, districtId: number): Promise<User[]> {
    return queryUsers(db, 'gsi2', `DISTRICT#${districtId}#USERS`);
  },
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
