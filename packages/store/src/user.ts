import {
  GetCommand,
  QueryCommand,
  ScanCommand,
  type ScanCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { User } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import { getAll, putAll } from './batch-write';
import type { Db } from './db';
import { nextId } from './ids';
import { isConditionFailure, rosterReads } from './query';
import { credentials, legacyParent } from './user-credentials';
import {
  isListKey,
  itemOf,
  userKey as key,
  kindOf,
  type NewUser,
  NO_PASSWORD,
  newUserWrites,
  type Profile,
  parentEmailIndex,
  parentEmailPartition,
  SUPER_ADMINS,
  staffPartition,
  toUser,
  userSearch,
  withoutFlag,
} from './user-item';

export * from './user-item';

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
/** The teachers among a school's staff (gsi1 `SCHOOL#{schoolId}#USERS`, role teacher). */
const teacherReads = rosterReads({
  index: 'gsi1',
  partition: staffPartition,
  isKey: isListKey,
  toRecord: toUser,
  only: { expression: '#role = :teacher', names: { '#role': 'role' }, values: { ':teacher': 'teacher' } },
});

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
  ...credentials,
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
