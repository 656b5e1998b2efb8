import { randomBytes } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { isConditionFailure } from './query';

/**
 * The hallway display's private link (issue 32), on the bus links' model:
 * `SCHOOL#{schoolId}` / `DISPLAYLINK` holds the current token, and the token
 * its own item, `DISPLAYTOKEN#{token}` / `DISPLAYTOKEN` ({schoolId}), so a
 * TV's token is checked with one GetItem. Rotating replaces it in one
 * transaction: the old token stops at once.
 */
const linkKey = (schoolId: number) => ({ pk: `SCHOOL#${schoolId}`, sk: 'DISPLAYLINK' });
const tokenKey = (token: string) => ({ pk: `DISPLAYTOKEN#${token}`, sk: 'DISPLAYTOKEN' });

/** 24 random bytes, base64url: 32 characters no one guesses. */
const newToken = () => randomBytes(24).toString('base64url');

export interface DisplayLinkToken {
  schoolId: number;
  token: string;
  rotatedAt: string;
}

const fresh = (schoolId: number): DisplayLinkToken => ({
  schoolId,
  token: newToken(),
  rotatedAt: new Date().toISOString(),
});

const tokenItem = (link: DisplayLinkToken) => ({
  ...tokenKey(link.token),
  entity: 'displayLinkToken',
  schoolId: link.schoolId,
});

export const displayLinks = {
  /** The school's display link, made on first use (two admins asking at once get the same one). */
  async ofSchool(db: Db, schoolId: number): Promise<DisplayLinkToken> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: linkKey(schoolId), ConsistentRead: true }),
    );
    if (Item) return { schoolId, token: Item.token as string, rotatedAt: Item.rotatedAt as string };
    const link = fresh(schoolId);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...linkKey(schoolId), entity: 'displayLink', ...link },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: db.table, Item: tokenItem(link) } },
          ],
        }),
      );
      return link;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return displayLinks.ofSchool(db, schoolId);
    }
  },

  /** A new link for the school; the old token is gone in the same transaction. */
  async rotate(db: Db, schoolId: number): Promise<DisplayLinkToken> {
    const before = await displayLinks.ofSchool(db, schoolId);
    const after = fresh(schoolId);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...linkKey(schoolId), entity: 'displayLink', ...after },
                ConditionExpression: '#token = :token',
                ExpressionAttributeNames: { '#token': 'token' },
                ExpressionAttributeValues: { ':token': before.token },
              },
            },
            { Delete: { TableName: db.table, Key: tokenKey(before.token) } },
            { Put: { TableName: db.table, Item: tokenItem(after) } },
          ],
        }),
      );
      return after;
    } catch (error) {
      // Another admin rotated at the same moment: theirs stands, and the old one is gone either way.
      if (!isConditionFailure(error)) throw error;
      return displayLinks.ofSchool(db, schoolId);
    }
  },

  /** The school of a display token, or undefined when it is not (or no longer) one. */
  async schoolOf(db: Db, token: string): Promise<number | undefined> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return undefined;
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: tokenKey(token) }));
    return Item ? (Item.schoolId as number) : undefined;
  },
};
