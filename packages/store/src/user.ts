import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  QueryCommand,
  ScanCommand,
  type ScanCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { User } from '@curbside/domain';
import { ConflictError, ONE_TIME_PASSWORD_TTL_MS, searchText } from '@curbside/domain';
import { getAll, putAll } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { type CursorKey, isConditionFailure, rosterReads } from './query';

/**
 * User (staff and parents): `USER#{id}` / `USER`, holding the password hash.
 * Username claim: `USERNAME#{lowercased username}` / `USERNAME` → userId for
 *   staff, `PARENT_USERNAME#{lowercased username}` / `USERNAME` for parents,
 *   written in the same transaction so a username is never taken twice. Staff
 *   and parents sign in at different doors, so their usernames are apart:
 *   parent registration can never tell that a staff username exists. (Parents
 *   registered before the split keep a staff-style claim; sign-in and
 *   registration still find them there.)
 * Staff of a school: gsi1 `SCHOOL#{schoolId}#USERS` / `USER#{id:010}`.
 * Parents of a school (accounts the school made, or that linked a child):
 *   gsi1 `SCHOOL#{schoolId}#PARENTS` / `USER#{id:010}` (see `parent.ts`).
 * Users of a district: gsi2 `DISTRICT#{districtId}#USERS` / `USER#{id:010}`.
 * Super admins (no district): gsi2 `SUPER_ADMINS` / `USER#{id:010}`.
 * Parents (never of a district) by their email address, for "Forgot
 *   password?": gsi2 `PARENT_EMAIL#{lowercased email}` / `USER#{id:010}`.
 * `search` holds the lowercased name, username, email and phone.
 */
/** A user's item. */
export const userKey = (id: number) => ({ pk: `USER#${id}`, sk: 'USER' });
const key = userKey;

/** Who signs in where: staff at the staff sign-in, parents at the parent portal. */
export type AccountKind = 'staff' | 'parent';

const usernameKey = (username: string, kind: AccountKind) => ({
  pk: `${kind === 'parent' ? 'PARENT_USERNAME' : 'USERNAME'}#${username.trim().toLowerCase()}`,
  sk: 'USERNAME',
});
const kindOf = (role: User['role']): AccountKind => (role === 'parent' ? 'parent' : 'staff');
const sortable = (id: number) => `USER#${String(id).padStart(10, '0')}`;
const staffPartition = (schoolId: number) => `SCHOOL#${schoolId}#USERS`;
const parentPartition = (schoolId: number) => `SCHOOL#${schoolId}#PARENTS`;
const SUPER_ADMINS = 'SUPER_ADMINS';
const parentEmailPartition = (email: string) => `PARENT_EMAIL#${email.trim().toLowerCase()}`;
/** A parent's entry in the email index (none without an address). */
const parentEmailIndex = (user: Pick<User, 'id' | 'email'>) =>
  user.email?.trim() ? { gsi2pk: parentEmailPartition(user.email), gsi2sk: sortable(user.id) } : {};

/** Whether a roster cursor names a user item by its gsi1 entry: `USER#{id}` / `USER` with gsi1sk `sortable(id)`. */
const isListKey = (cursor: CursorKey) => {
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
const oneTimeExpiry = () => new Date(Date.now() + ONE_TIME_PASSWORD_TTL_MS).toISOString();

/** A password hash no password matches: an account that cannot sign in until it is given one. */
export const NO_PASSWORD = '!';

export interface NewUser extends Omit<User, 'id'> {
  passwordHash: string;
}

const userSearch = (user: Pick<User, 'name' | 'username' | 'email' | 'phone'>) =>
  searchText(user.name, user.username, user.email, user.phone);

/** The user item with its indexes: staff under their school's users, parents under its parents. */
const itemOf = (user: User, passwordHash: string) => ({
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

const _CURSOR_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk'] as const;
const _keyOf = (item: Record<string, unknown>) => ({
  pk: item.pk,
  sk: item.sk,
  gsi1pk: item.gsi1pk,
  gsi1sk: item.gsi1sk,
});

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

/** The teachers among a school's staff (gsi1 `SCHOOL#{schoolId}#USERS`, role teacher). */
const teacherReads = rosterReads({
  index: 'gsi1',
  partition: staffPartition,
  isKey: isListKey,
  toRecord: toUser,
  only: { expression: '#role = :teacher', names: { '#role': 'role' }, values: { ':teacher': 'teacher' } },
});

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

export const users = {
  async create(db: Db, input: NewUser, id?: number): Promise<User> {
    const kind = kindOf(input.role);
    const taken = () => new ConflictError(`Username ${input.username} is already taken`);
    if (kind === 'parent' && (await legacyParent(db, input.username))) throw taken();
    const { user, writes } = newUserWrites(db, input, id ?? (await nextId(db, 'user')));
    try {
      await db.doc.send(new TransactWriteCommand({ TransactItems: writes }));
    } catch (error) {
      if (isConditionFailure(error)) throw taken();
      throw error;
    }
    return user;
  },

  /**
   * Creates many accounts that cannot sign in yet (a CSV import's parents;
   * ids allocated): BatchWriteItem, 25 a call, with no username claim. Their
   * username is only a proposal until `claimAndSetPassword` gives the account
   * a password and claims the first free form of it.
   */
  async createMany(db: Db, list: readonly User[]): Promise<void> {
    await putAll(
      db,
      list.map((user) => itemOf(user, NO_PASSWORD)),
      8,
    );
  },

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

  /**
   * Rewrites many existing accounts whole (a CSV import's updates), keeping
   * the password hash they were read with: BatchWriteItem, 25 a call. A
   * change made to one of them meanwhile (a new password) is overwritten.
   */
  async putMany(db: Db, list: ReadonlyArray<{ user: User; passwordHash: string }>): Promise<void> {
    await putAll(
      db,
      list.map(({ user, passwordHash }) => itemOf(user, passwordHash)),
      8,
    );
  },

  async get(db: Db, id: number): Promise<User | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(id) }));
    return Item ? withoutFlag(toUser(Item)) : undefined;
  },

  /** Some users by id (BatchGetItem); ids that name nobody are left out. */
  async getMany(db: Db, ids: readonly number[]): Promise<User[]> {
    const items = await getAll(
      db,
      [...new Set(ids)].map((id) => key(id)),
    );
    return items.filter((item) => item.sk === 'USER').map((item) => withoutFlag(toUser(item)));
  },

  /** A user, read consistently, and whether they can sign in (the roster's view). */
  async getForRoster(db: Db, id: number): Promise<(User & { hasPassword: boolean }) | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(id), ConsistentRead: true }),
    );
    return Item ? toUser(Item) : undefined;
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

  /** Replaces a teacher's or parent's roster fields (the user must exist); a parent's email index follows the email. */
  async updateProfile(db: Db, user: User, profile: Profile): Promise<User> {
    const next: User = { ...user, ...profile };
    const emailIndex =
      user.role === 'parent' && profile.email !== undefined ? parentEmailIndex(next) : undefined;
    const fields = Object.entries({ ...profile, search: userSearch(next), ...emailIndex }).filter(
      ([, value]) => value !== undefined,
    );
    // A parent whose address was cleared leaves the email index.
    const remove = emailIndex && !('gsi2pk' in emailIndex) ? ' REMOVE gsi2pk, gsi2sk' : '';
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key(user.id),
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}${remove}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError('This account was removed meanwhile');
      throw error;
    }
    return next;
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
    return users.setPassword(db, id, passwordHash, 'own');
  },

  /** A one-time password to be replaced at the next sign-in (an admin made it). */
  setOneTimePassword(db: Db, id: number, passwordHash: string): Promise<void> {
    return users.setPassword(db, id, passwordHash, 'oneTime');
  },

  async listBySchool(db: Db, schoolId: number): Promise<User[]> {
    return queryUsers(db, 'gsi1', staffPartition(schoolId));
  },

  /** The parent accounts with this email address (any case), each with whether it has a password: one Query of the email index. */
  async parentsByEmail(db: Db, email: string): Promise<Array<User & { hasPassword: boolean }>> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': parentEmailPartition(email) },
      }),
    );
    return Items.map(toUser).filter((user) => user.role === 'parent');
  },

  async listByDistrict(db: Db, districtId: number): Promise<User[]> {
    return queryUsers(db, 'gsi2', `DISTRICT#${districtId}#USERS`);
  },

  /** The super admins (the first-account command asks whether there is one). */
  async listSuperAdmins(db: Db): Promise<User[]> {
    return queryUsers(db, 'gsi2', SUPER_ADMINS);
  },

  /**
   * Once, after an upgrade (`npm run admin -- index-parent-emails`, never a
   * request path): gives every parent account written before the email index
   * its entry (issue 50, "Forgot password?"). A Scan of the table in pages;
   * an account that has its entry already is left as it is. Answers how many
   * accounts it indexed.
   */
  async indexParentEmails(db: Db): Promise<number> {
    let indexed = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page: ScanCommandOutput = await db.doc.send(
        new ScanCommand({
          TableName: db.table,
          FilterExpression: 'entity = :user AND #role = :parent AND attribute_not_exists(gsi2pk)',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':user': 'user', ':parent': 'parent' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const entry = parentEmailIndex({
          id: item.id as number,
          email: (item.email as string | null) ?? null,
        });
        if (!('gsi2pk' in entry)) continue;
        try {
          await db.doc.send(
            new UpdateCommand({
              TableName: db.table,
              Key: key(item.id as number),
              UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi2pk)',
              ExpressionAttributeValues: { ':pk': entry.gsi2pk, ':sk': entry.gsi2sk },
            }),
          );
          indexed += 1;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return indexed;
  },

  /** One page of a school's active teachers, in id order, optionally matching a search. */
  teachersPage: teacherReads.page,
  /** Every teacher of a school, deactivated ones too, all pages (a CSV import matches against them). */
  teachersOfSchool: teacherReads.listAll,
  countTeachers: teacherReads.count,
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
  return Items.map((item) => withoutFlag(toUser(item)));
};
