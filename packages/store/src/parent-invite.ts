import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ParentInvite, User } from '@curbside/domain';
import { putAll } from './batch-write';
import type { Db } from './db';
import { nextId, nextIds, stripKeys } from './ids';
import { parentLinkItems } from './parent';
import { cancellationReasons, isConditionFailure, queryAll } from './query';
import { type NewUser, newUserWrites } from './user';

/**
 * Parent invites (issue 29):
 * - the invite: `PARENTINVITE#{id}` / `INVITE`, in gsi1 under its student,
 *   `SCHOOL#{schoolId}#STUDENT#{studentId}#INVITES` / `INVITE#{id:010}`
 *   (a student's invites, newest last);
 * - its token, stored only as a SHA-256 hash: `INVITETOKEN#{hash}` /
 *   `INVITETOKEN` → the invite's id (one GetItem per link opened).
 * Accepting sets `acceptedAt` on condition that the invite is neither used,
 * revoked nor expired, and writes the parent's links in the same transaction.
 * TTL removes both items 90 days after expiry (the list keeps expired ones till then).
 */
const inviteKey = (id: number) => ({ pk: `PARENTINVITE#${id}`, sk: 'INVITE' });
const tokenKey = (tokenHash: string) => ({ pk: `INVITETOKEN#${tokenHash}`, sk: 'INVITETOKEN' });
const studentPartition = (schoolId: number, studentId: number) =>
  `SCHOOL#${schoolId}#STUDENT#${studentId}#INVITES`;
const KEEP_SECONDS = 90 * 24 * 60 * 60;

export type NewParentInvite = Omit<ParentInvite, 'id'> & { tokenHash: string };

/** The invite's use by a parent, on condition that it is neither used, revoked nor expired. */
const acceptWrite = (db: Db, invite: ParentInvite, parentId: number, now: string) => ({
  Update: {
    TableName: db.table,
    Key: inviteKey(invite.id),
    UpdateExpression: 'SET acceptedAt = :now, acceptedBy = :parent',
    ConditionExpression:
      'attribute_type(acceptedAt, :null) AND attribute_type(revokedAt, :null) AND expiresAt > :now',
    ExpressionAttributeValues: { ':now': now, ':parent': parentId, ':null': 'NULL' },
  },
});

/** The parent's links to the invite's child. */
const linkWrites = (db: Db, invite: ParentInvite, parentId: number, now: string) =>
  parentLinkItems(parentId, invite.schoolId, invite.studentId, now).map((Item) => ({
    Put: { TableName: db.table, Item },
  }));

export const parentInvites = {
  /** Writes many invites at once (ids from one counter raise), both items each. */
  async createMany(db: Db, list: readonly NewParentInvite[]): Promise<ParentInvite[]> {
    const ids = await nextIds(db, 'parentInvite', list.length);
    const made = list.map((invite, i) => ({ ...invite, id: ids[i] as number }));
    await putAll(
      db,
      made.flatMap(({ tokenHash, ...invite }) => {
        const ttl = Math.ceil(Date.parse(invite.expiresAt) / 1000) + KEEP_SECONDS;
        return [
          {
            ...inviteKey(invite.id),
            gsi1pk: studentPartition(invite.schoolId, invite.studentId),
            gsi1sk: `INVITE#${String(invite.id).padStart(10, '0')}`,
            entity: 'parentInvite',
            ...invite,
            ttl,
          },
          { ...tokenKey(tokenHash), entity: 'parentInviteToken', inviteId: invite.id, ttl },
        ];
      }),
      8,
    );
    return made.map(({ tokenHash: _, ...invite }) => invite);
  },

  async get(db: Db, id: number): Promise<ParentInvite | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: inviteKey(id), ConsistentRead: true }),
    );
    return Item ? stripKeys<ParentInvite>(Item) : undefined;
  },

  /** The invite a token (by its hash) belongs to. */
  async byTokenHash(db: Db, tokenHash: string): Promise<ParentInvite | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: tokenKey(tokenHash) }));
    return typeof Item?.inviteId === 'number' ? parentInvites.get(db, Item.inviteId) : undefined;
  },

  async listByStudent(db: Db, schoolId: number, studentId: number): Promise<ParentInvite[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': studentPartition(schoolId, studentId) },
    });
    return items.map((item) => stripKeys<ParentInvite>(item));
  },

  /** Revokes a pending or expired invite; false when it was accepted (or revoked) already. */
  async revoke(db: Db, id: number, revokedAt = new Date().toISOString()): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: inviteKey(id),
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_type(acceptedAt, :null) AND attribute_type(revokedAt, :null)',
          ExpressionAttributeValues: { ':at': revokedAt, ':null': 'NULL' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /**
   * Accepts an invite with a new parent account (issue 49): the account (its
   * username claim and its item, already of the invite's school and with the
   * child), the invite's use and the child's links, in one transaction. A
   * refused accept leaves nothing behind: `gone` when the invite was used,
   * revoked or expired meanwhile (three parallel accepts: one account),
   * `taken` when another parent has the username.
   */
  async acceptWithNewAccount(
    db: Db,
    invite: ParentInvite,
    account: NewUser,
    now = new Date().toISOString(),
  ): Promise<{ outcome: 'accepted'; user: User } | { outcome: 'gone' | 'taken' }> {
    const { user, writes } = newUserWrites(
      db,
      { ...account, schoolId: invite.schoolId, studentIds: [invite.studentId] },
      await nextId(db, 'user'),
    );
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            acceptWrite(db, invite, user.id, now),
            ...writes,
            ...linkWrites(db, invite, user.id, now),
          ],
        }),
      );
      return { outcome: 'accepted', user };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The invite's condition is the first item; without reasons, ask the invite itself.
      const reasons = cancellationReasons(error);
      if (reasons.length > 0) return { outcome: reasons[0] === 'ConditionalCheckFailed' ? 'gone' : 'taken' };
      const after = await parentInvites.get(db, invite.id);
      return {
        outcome: after?.acceptedAt || after?.revokedAt || !after || after.expiresAt <= now ? 'gone' : 'taken',
      };
    }
  },

  /**
   * Uses an invite and links the parent to its child, in one transaction:
   * false when it was used, revoked or expired meanwhile.
   */
  async accept(
    db: Db,
    invite: ParentInvite,
    parentId: number,
    now = new Date().toISOString(),
  ): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [acceptWrite(db, invite, parentId, now), ...linkWrites(db, invite, parentId, now)],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};
