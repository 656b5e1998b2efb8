import { randomBytes } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  BUS_MAP,
  type Bus,
  type BusLinkKind,
  type BusLocation,
  type BusPosition,
  busIdOf,
} from '@curbside/domain';
import type { Db } from './db';
import { isConditionFailure, queryAll } from './query';

/**
 * Buses: the school's two private links and the positions drivers share.
 *
 * Links: `SCHOOL#{schoolId}` / `BUSLINKS` holds the current driver and map
 * tokens; each token also has its own item, `BUSTOKEN#{token}` / `BUSTOKEN`
 * ({schoolId, kind}), so a page's token is checked with one GetItem. Rotating
 * replaces both in one transaction: the old tokens stop at once, their items
 * kept as replaced (`replacedAt`, gone after `REPLACED_TOKEN_DAYS`), so a page
 * still holding one can be told it was replaced (issue 50).
 *
 * Positions: `SCHOOL#{schoolId}#BUSES` / `BUS#{busId}`, the last position of
 * each bus with a TTL of 5 minutes (no history is kept; expiry is also
 * checked on read). The fan-out gate, `SCHOOL#{schoolId}#BUSES` / `FANOUT`,
 * holds the second of the last fan-out: a conditional write lets only the
 * first position of each second fan out.
 */
const linksKey = (schoolId: number) => ({ pk: `SCHOOL#${schoolId}`, sk: 'BUSLINKS' });
const tokenKey = (token: string) => ({ pk: `BUSTOKEN#${token}`, sk: 'BUSTOKEN' });
const positionsPartition = (schoolId: number) => `SCHOOL#${schoolId}#BUSES`;
const positionKey = (schoolId: number, busId: string) => ({
  pk: positionsPartition(schoolId),
  sk: `BUS#${busId}`,
});
const gateKey = (schoolId: number) => ({ pk: positionsPartition(schoolId), sk: 'FANOUT' });

/** What a try at a second's bus fan-out found (`busPositions.claimFanOut`). */
export type FanOutClaim = { claimed: true; previous: number } | { claimed: false; covered: boolean };

/** How long a replaced token is still known as replaced (its item's TTL), in days. */
export const REPLACED_TOKEN_DAYS = 90;

/** A replaced token's item: it opens nothing, and says whose it was. */
const replacedItem = (token: string, holder: BusLinkHolder, at: string) => ({
  ...tokenKey(token),
  entity: 'busLinkToken',
  ...holder,
  replacedAt: at,
  ttl: Math.ceil(Date.parse(at) / 1000) + REPLACED_TOKEN_DAYS * 86_400,
});

/** 24 random bytes, base64url: 32 characters no one guesses. */
const newToken = () => randomBytes(24).toString('base64url');

export interface BusLinkTokens {
  schoolId: number;
  driverToken: string;
  mapToken: string;
  rotatedAt: string;
}

/** Whom a bus-link token belongs to. */
export interface BusLinkHolder {
  schoolId: number;
  kind: BusLinkKind;
}

const tokenItems = (links: BusLinkTokens) =>
  (
    [
      ['driver', links.driverToken],
      ['map', links.mapToken],
    ] as const
  ).map(([kind, token]) => ({
    ...tokenKey(token),
    entity: 'busLinkToken',
    schoolId: links.schoolId,
    kind,
  }));

const freshLinks = (schoolId: number): BusLinkTokens => ({
  schoolId,
  driverToken: newToken(),
  mapToken: newToken(),
  rotatedAt: new Date().toISOString(),
});

const linksOf = (item: Record<string, unknown>): BusLinkTokens => ({
  schoolId: item.schoolId as number,
  driverToken: item.driverToken as string,
  mapToken: item.mapToken as string,
  rotatedAt: item.rotatedAt as string,
});

export const busLinks = {
  /** The school's links, made on first use (two schools' admins asking at once get the same ones). */
  async ofSchool(db: Db, schoolId: number): Promise<BusLinkTokens> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: linksKey(schoolId), ConsistentRead: true }),
    );
    if (Item) return linksOf(Item);
    const links = freshLinks(schoolId);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...linksKey(schoolId), entity: 'busLinks', ...links },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...tokenItems(links).map((Item) => ({ Put: { TableName: db.table, Item } })),
          ],
        }),
      );
      return links;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return busLinks.ofSchool(db, schoolId);
    }
  },

  /** New links for the school; the old tokens stop in the same transaction (kept as replaced). */
  async rotate(db: Db, schoolId: number): Promise<{ before: BusLinkTokens; after: BusLinkTokens }> {
    const before = await busLinks.ofSchool(db, schoolId);
    const after = freshLinks(schoolId);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...linksKey(schoolId), entity: 'busLinks', ...after },
                ConditionExpression: 'driverToken = :driver AND mapToken = :map',
                ExpressionAttributeValues: { ':driver': before.driverToken, ':map': before.mapToken },
              },
            },
            ...(
              [
                [before.driverToken, 'driver'],
                [before.mapToken, 'map'],
              ] as const
            ).map(([token, kind]) => ({
              Put: { TableName: db.table, Item: replacedItem(token, { schoolId, kind }, after.rotatedAt) },
            })),
            ...tokenItems(after).map((Item) => ({ Put: { TableName: db.table, Item } })),
          ],
        }),
      );
    } catch (error) {
      // Another admin rotated at the same moment: theirs stand, and the old ones are gone either way.
      if (!isConditionFailure(error)) throw error;
      return { before, after: await busLinks.ofSchool(db, schoolId) };
    }
    return { before, after };
  },

  /** The school and kind of a token, or undefined when it is not (or no longer) a link's. */
  async holderOf(db: Db, token: string): Promise<BusLinkHolder | undefined> {
    const found = await busLinks.lookup(db, token);
    return found && !found.replaced ? found.holder : undefined;
  },

  /**
   * Whose a token is, and whether the school replaced it since (a rotation;
   * such a token opens nothing: `holderOf` answers undefined for it).
   * Undefined when it never was a link's, or was replaced long ago.
   */
  async lookup(db: Db, token: string): Promise<{ holder: BusLinkHolder; replaced: boolean } | undefined> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return undefined;
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: tokenKey(token) }));
    if (!Item) return undefined;
    const holder = { schoolId: Item.schoolId as number, kind: Item.kind as BusLinkKind };
    return { holder, replaced: typeof Item.replacedAt === 'string' };
  },
};

const fresh = (updatedAt: number, now: number) => now - updatedAt < BUS_MAP.staleMs;

export const busPositions = {
  /**
   * A bus's new last position (gone 5 minutes after it, unless another
   * comes). Answers false when a position taken later is already kept: a
   * driver's messages may be handled out of order.
   */
  async put(
    db: Db,
    schoolId: number,
    busId: string,
    location: BusLocation,
    now = Date.now(),
  ): Promise<boolean> {
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: {
            ...positionKey(schoolId, busId),
            entity: 'busPosition',
            busId,
            location,
            updatedAt: now,
            ttl: Math.ceil((now + BUS_MAP.staleMs) / 1000),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #location.#taken < :taken',
          ExpressionAttributeNames: { '#location': 'location', '#taken': 'timestamp' },
          ExpressionAttributeValues: { ':taken': location.timestamp },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async remove(db: Db, schoolId: number, busId: string): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: positionKey(schoolId, busId) }));
  },

  /** The school's buses with a position under 5 minutes old (one Query of a small partition). */
  async ofSchool(db: Db, schoolId: number, now = Date.now()): Promise<BusPosition[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :bus)',
      ExpressionAttributeValues: { ':pk': positionsPartition(schoolId), ':bus': 'BUS#' },
      ProjectionExpression: 'busId, #location, updatedAt',
      ExpressionAttributeNames: { '#location': 'location' },
    });
    return items
      .filter((item) => fresh(item.updatedAt as number, now))
      .map((item) => ({
        busId: item.busId as string,
        location: item.location as BusLocation,
        updatedAt: item.updatedAt as number,
      }));
  },

  /**
   * Claims the fan-out of the current second for the school: answers the
   * time of the previous fan-out (0 for the first) when this caller claimed
   * it; otherwise whether a position kept now is covered without this caller
   * waiting: a later second's fan-out was already claimed, or someone watches
   * this second's late positions (`claimWatch`). A failed claim is billed as a
   * write either way: the gate's old values come with it.
   */
  async claimFanOut(db: Db, schoolId: number, windowMs: number, now = Date.now()): Promise<FanOutClaim> {
    const slot = Math.floor(now / windowMs);
    try {
      const { Attributes } = await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: gateKey(schoolId),
          UpdateExpression: 'SET slot = :slot, #at = :now, entity = :entity',
          ConditionExpression: 'attribute_not_exists(slot) OR slot < :slot',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':slot': slot, ':now': now, ':entity': 'busFanOut' },
          ReturnValues: 'UPDATED_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { claimed: true, previous: (Attributes?.at as number | undefined) ?? 0 };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The SDK leaves the old item of a failed condition in DynamoDB's own shape.
      const gate = (error as { Item?: Record<string, { N?: string }> }).Item ?? {};
      const number = (name: string) => Number(gate[name]?.N ?? Number.NEGATIVE_INFINITY);
      return { claimed: false, covered: number('slot') > slot || number('watchSlot') === slot };
    }
  },

  /**
   * Claims the watch of the late positions of second `slot` (kept after its
   * fan-out read the fleet): the one caller it answers true to waits for the
   * next second and fans out. False when someone else watches, or when a
   * later second's fan-out is already claimed (it reads after every position
   * of this second).
   */
  async claimWatch(db: Db, schoolId: number, slot: number): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: gateKey(schoolId),
          UpdateExpression: 'SET watchSlot = :slot',
          ConditionExpression: 'slot = :slot AND (attribute_not_exists(watchSlot) OR watchSlot < :slot)',
          ExpressionAttributeValues: { ':slot': slot },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};

/** The school's buses: its active bus vehicles, `B{number}`, named `Bus {number}`, their route the contact's name. */
export const busFleet = {
  async ofSchool(db: Db, schoolId: number): Promise<Bus[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :bus)',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#VEHICLES`, ':bus': 'bus#' },
      ProjectionExpression: '#number, parentName, active',
      ExpressionAttributeNames: { '#number': 'number' },
    });
    return items
      .filter((item) => item.active !== false)
      .map((item) => ({
        busId: busIdOf(item.number as string),
        name: `Bus ${item.number as string}`,
        route: (item.parentName as string | null | undefined) ?? null,
      }))
      .sort((a, b) => a.busId.localeCompare(b.busId, undefined, { numeric: true }));
  },
};
