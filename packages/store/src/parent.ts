import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '@curbside/domain';
import { putAll } from './batch-write';
import type { Db } from './db';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure, queryAll, rosterReads } from './query';
import { toUser, userKeys } from './user';

/**
 * Parents are user accounts (`user.ts`) with role `parent`. This module owns:
 * - the parents of a school: gsi1 `SCHOOL#{schoolId}#PARENTS` / `USER#{id:010}`
 *   on the user item, with `studentIds` (their children, for the roster);
 * - the links between a parent and a child, both ways:
 *   `PARENT#{parentId}` / `STUDENT#{schoolId}#{studentId}` (a parent's children,
 *   the parent portal) and `SCHOOL#{schoolId}#STUDENT#{studentId}` /
 *   `PARENT#{parentId}` (a child's parents, who are told about the child).
 */
const parentLink = (parentId: number, schoolId: number, studentId: number, linkedAt: string) => ({
  pk: `PARENT#${parentId}`,
  sk: `STUDENT#${schoolId}#${studentId}`,
  entity: 'parentLink',
  parentId,
  schoolId,
  studentId,
  linkedAt,
});
const childLink = (parentId: number, schoolId: number, studentId: number) => ({
  pk: `SCHOOL#${schoolId}#STUDENT#${studentId}`,
  sk: `PARENT#${parentId}`,
  entity: 'childLink',
  parentId,
});

/** The two link items of a parent and a child (the pickup-code transaction writes them too). */
export const parentLinkItems = (parentId: number, schoolId: number, studentId: number, linkedAt: string) => [
  parentLink(parentId, schoolId, studentId, linkedAt),
  childLink(parentId, schoolId, studentId),
];

/**
 * A parent's children changed in one transaction: the roster's `studentIds`
 * set to `ids`, the links both ways put for `added` and deleted for `removed`
 * (at most 20 children, so at most 81 items).
 */
const childrenWrite = (
  db: Db,
  parentId: number,
  schoolId: number,
  ids: readonly number[],
  { added, removed }: { added: readonly number[]; removed: readonly number[] },
) => {
  const linkedAt = new Date().toISOString();
  return new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: db.table,
          Key: userKeys.item(parentId),
          UpdateExpression: 'SET studentIds = :ids',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':ids': [...ids] },
        },
      },
      ...added.flatMap((studentId) =>
        parentLinkItems(parentId, schoolId, studentId, linkedAt).map((Item) => ({
          Put: { TableName: db.table, Item },
        })),
      ),
      ...removed.flatMap((studentId) =>
        parentLinkItems(parentId, schoolId, studentId, linkedAt).map(({ pk, sk }) => ({
          Delete: { TableName: db.table, Key: { pk, sk } },
        })),
      ),
    ],
  });
};

export const parentLinks = {
  /** Links a parent to a child directly (the demo seed). */
  async link(db: Db, parentId: number, schoolId: number, studentId: number): Promise<void> {
    const linkedAt = new Date().toISOString();
    for (const Item of parentLinkItems(parentId, schoolId, studentId, linkedAt)) {
      await db.doc.send(new PutCommand({ TableName: db.table, Item }));
    }
  },

  /** Writes many links at once (a CSV import). */
  async linkMany(db: Db, links: ReadonlyArray<{ parentId: number; schoolId: number; studentId: number }>) {
    const linkedAt = new Date().toISOString();
    await putAll(
      db,
      links.flatMap((link) => parentLinkItems(link.parentId, link.schoolId, link.studentId, linkedAt)),
      8,
    );
  },

  /** A parent's children (one Query; `consistent`: a strongly consistent read, links removed just now are gone). */
  async childrenOf(
    db: Db,
    parentId: number,
    { consistent = false }: { consistent?: boolean } = {},
  ): Promise<Array<{ schoolId: number; studentId: number }>> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        ...(consistent ? { ConsistentRead: true } : {}),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :student)',
        ExpressionAttributeValues: { ':pk': `PARENT#${parentId}`, ':student': 'STUDENT#' },
      }),
    );
    return Items.map((item) => ({ schoolId: item.schoolId as number, studentId: item.studentId as number }));
  },

  /**
   * Which of these children are still linked to the parent, read by key in a
   * BatchGetItem shared with others (`keyed-read.ts`): a parent's poll checks
   * the children its last poll found (a link removed since is not read).
   */
  stillLinked(
    parentId: number,
    links: ReadonlyArray<{ schoolId: number; studentId: number }>,
  ): KeyedRead<Array<{ schoolId: number; studentId: number }>> {
    const keyOf = ({ schoolId, studentId }: { schoolId: number; studentId: number }) => {
      const { pk, sk } = parentLink(parentId, schoolId, studentId, '');
      return { pk, sk };
    };
    return {
      keys: links.map(keyOf),
      from: (found) => links.filter((link) => itemAt(found, keyOf(link)) !== undefined),
    };
  },

  async parentsOf(db: Db, schoolId: number, studentId: number): Promise<number[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#STUDENT#${studentId}` },
      }),
    );
    return Items.map((item) => item.parentId as number);
  },

  /**
   * Takes an erased student from a parent (issue 55): the links both ways and
   * the child in the roster's `studentIds`, in one transaction.
   */
  async unlinkStudent(db: Db, parent: User, schoolId: number, studentId: number): Promise<void> {
    const left = (parent.studentIds ?? []).filter((id) => id !== studentId);
    await db.doc.send(childrenWrite(db, parent.id, schoolId, left, { added: [], removed: [studentId] }));
  },
};

const parentReads = rosterReads({
  index: 'gsi1',
  partition: userKeys.parentPartition,
  isKey: userKeys.isListKey,
  toRecord: toUser,
});

export const parents = {
  /** One page of a school's active parents, in id order, optionally matching a search. */
  page: parentReads.page,
  count: parentReads.count,

  /**
   * Every parent of a school, deactivated ones too, all pages, with the
   * password hash (a CSV import matches against them and rewrites them whole).
   */
  async listAll(db: Db, schoolId: number): Promise<Array<{ user: User; passwordHash: string }>> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': userKeys.parentPartition(schoolId) },
    });
    return items.map((item) => {
      const { hasPassword: _, ...user } = toUser(item);
      return { user, passwordHash: item.passwordHash as string };
    });
  },

  /**
   * Who follows which child in a school: child id → the active parents
   * linked to them. One Query of the school's parents (ids, children and
   * whether active only are used).
   */
  async childrenOfSchool(db: Db, schoolId: number): Promise<Map<number, number[]>> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': userKeys.parentPartition(schoolId) },
      ProjectionExpression: 'id, studentIds, active',
    });
    const following = new Map<number, number[]>();
    for (const item of items) {
      if (item.active === false) continue;
      for (const studentId of (item.studentIds as number[] | undefined) ?? []) {
        following.set(studentId, [...(following.get(studentId) ?? []), item.id as number]);
      }
    }
    return following;
  },

  /**
   * Sets a parent's children: the roster's `studentIds` and the links both
   * ways change in one transaction (at most 20 children, so at most 81 items).
   * Answers the children unlinked (their open pages must stop hearing of
   * them: `connections.forgetChildren`).
   */
  async setChildren(
    db: Db,
    parent: User,
    schoolId: number,
    studentIds: readonly number[],
  ): Promise<{ removed: number[] }> {
    const before = new Set(parent.studentIds ?? []);
    const after = new Set(studentIds);
    const added = [...after].filter((id) => !before.has(id));
    const removed = [...before].filter((id) => !after.has(id));
    await db.doc.send(childrenWrite(db, parent.id, schoolId, [...after], { added, removed }));
    return { removed };
  },

  /**
   * After a parent links a child with a pickup code: the child joins the
   * parent's `studentIds`, and a parent of no school yet joins this school's
   * parents. Both are idempotent; a repeat changes nothing.
   */
  async joinSchool(db: Db, parentId: number, schoolId: number, studentId: number): Promise<void> {
    const ignoreCondition = (error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    };
    await Promise.all([
      db.doc
        .send(
          new UpdateCommand({
            TableName: db.table,
            Key: userKeys.item(parentId),
            UpdateExpression: 'SET studentIds = list_append(if_not_exists(studentIds, :empty), :ids)',
            ConditionExpression: 'attribute_exists(pk) AND NOT contains(studentIds, :id)',
            ExpressionAttributeValues: { ':empty': [], ':ids': [studentId], ':id': studentId },
          }),
        )
        .catch(ignoreCondition),
      db.doc
        .send(
          new UpdateCommand({
            TableName: db.table,
            Key: userKeys.item(parentId),
            UpdateExpression: 'SET schoolId = :school, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_type(schoolId, :null)',
            ExpressionAttributeValues: {
              ':school': schoolId,
              ':null': 'NULL',
              ...Object.fromEntries(
                Object.entries(userKeys.parentIndex(schoolId, parentId)).map(([name, value]) => [
                  `:${name}`,
                  value,
                ]),
              ),
            },
          }),
        )
        .catch(ignoreCondition),
    ]);
  },
};
