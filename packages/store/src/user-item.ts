import type { User } from '@curbside/domain';
import { ONE_TIME_PASSWORD_TTL_MS, searchText } from '@curbside/domain';
import type { Db } from './db';
import { stripKeys } from './ids';
import type { CursorKey } from './query';

// The user item's keys and shape, and a new account's writes (the whole key layout: `user.ts`).

/** A user's item. */
export const userKey = (id: number) => ({ pk: `USER#${id}`, sk: 'USER' });
const key = userKey;

/** Who signs in where: staff at the staff sign-in, parents at the parent portal. */
export type AccountKind = 'staff' | 'parent';

export const usernameKey = (username: string, kind: AccountKind) => ({
  pk: `${kind === 'parent' ? 'PARENT_USERNAME' : 'USERNAME'}#${username.trim().toLowerCase()}`,
  sk: 'USERNAME',
});
export const kindOf = (role: User['role']): AccountKind => (role === 'parent' ? 'parent' : 'staff');
const sortable = (id: number) => `USER#${String(id).padStart(10, '0')}`;
export const staffPartition = (schoolId: number) => `SCHOOL#${schoolId}#USERS`;
const parentPartition = (schoolId: number) => `SCHOOL#${schoolId}#PARENTS`;
export const SUPER_ADMINS = 'SUPER_ADMINS';
export const parentEmailPartition = (email: string) => `PARENT_EMAIL#${email.trim().toLowerCase()}`;
/** A parent's entry in the email index (none without an address). */
export const parentEmailIndex = (user: Pick<User, 'id' | 'email'>) =>
  user.email?.trim() ? { gsi2pk: parentEmailPartition(user.email), gsi2sk: sortable(user.id) } : {};

/** Whether a roster cursor names a user item by its gsi1 entry: `USER#{id}` / `USER` with gsi1sk `sortable(id)`. */
export const isListKey = (cursor: CursorKey) => {
  const id = /^USER#(\d{10})$/.exec(cursor.gsi1sk ?? '')?.[1];
  return id !== undefined && cursor.pk === key(Number(id)).pk && cursor.sk === key(Number(id)).sk;
};

/** Key builders of user items, shared with `parent.ts` (parents are users). */
export const userKeys = {
  item: key,
  parentIndex: (schoolId: number, id: number) => ({
    gsi1pk: parentPartition(schoolId),
    gsi1sk: sortable(id),
  }),
  parentPartition,
  isListKey,
};

/** When a one-time password given now stops working. */
export const oneTimeExpiry = () => new Date(Date.now() + ONE_TIME_PASSWORD_TTL_MS).toISOString();

/** A password hash no password matches: an account that cannot sign in until it is given one. */
export const NO_PASSWORD = '!';

export interface NewUser extends Omit<User, 'id'> {
  passwordHash: string;
}

export const userSearch = (user: Pick<User, 'name' | 'username' | 'email' | 'phone'>) =>
  searchText(user.name, user.username, user.email, user.phone);

/** The user item with its indexes: staff under their school's users, parents under its parents. */
export const itemOf = (user: User, passwordHash: string) => ({
  ...key(user.id),
  ...(user.schoolId !== null
    ? user.role === 'parent'
      ? userKeys.parentIndex(user.schoolId, user.id)
      : { gsi1pk: staffPartition(user.schoolId), gsi1sk: sortable(user.id) }
    : {}),
  ...(user.role === 'parent'
    ? parentEmailIndex(user)
    : user.districtId !== null
      ? { gsi2pk: `DISTRICT#${user.districtId}#USERS`, gsi2sk: sortable(user.id) }
      : user.role === 'super_admin'
        ? { gsi2pk: SUPER_ADMINS, gsi2sk: sortable(user.id) }
        : {}),
  entity: 'user',
  search: userSearch(user),
  ...user,
  passwordHash,
});

/** A user item without its keys and password hash. */
export const toUser = (item: Record<string, unknown>): User & { hasPassword: boolean } => {
  const { passwordHash, ...user } = stripKeys<User & { passwordHash: string }>(item);
  return { ...user, hasPassword: passwordHash !== NO_PASSWORD };
};
export const withoutFlag = ({ hasPassword: _, ...user }: User & { hasPassword: boolean }): User => user;

/** Fields of a teacher's or parent's roster record that an update may change. */
export type Profile = Partial<
  Pick<
    User,
    | 'name'
    | 'email'
    | 'phone'
    | 'active'
    | 'firstName'
    | 'lastName'
    | 'address'
    | 'emergencyContact'
    | 'emergencyPhone'
    | 'studentIds'
    | 'retiredBySis'
  >
>;

/**
 * A new account's writes, for one transaction: its username claim and its
 * item, each on condition that it does not exist yet (a username is never
 * taken twice). Answers the user as made and the two writes, in that order.
 */
export const newUserWrites = (db: Db, input: NewUser, userId: number) => {
  const { passwordHash, ...fields } = input;
  // A one-time password (an account made with one) works for `ONE_TIME_PASSWORD_TTL_MS`.
  const user: User = {
    id: userId,
    ...fields,
    ...(fields.mustChangePassword
      ? { oneTimePasswordExpiresAt: fields.oneTimePasswordExpiresAt ?? oneTimeExpiry() }
      : {}),
  };
  const writes = [
    {
      Put: {
        TableName: db.table,
        Item: { ...usernameKey(user.username, kindOf(user.role)), userId, entity: 'username' },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: itemOf(user, passwordHash),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  return { user, writes };
};
