import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/**
 * Devices an account has signed in from: `DEVICE#{sha256(device token)}` /
 * `ACCOUNT#{account}` (the account as the sign-in throttle names it, e.g.
 * `staff#front_demo`), kept a year after the last sign-in (TTL). Only the
 * token's hash is stored. A known device keeps its own allowance of wrong
 * passwords when an attacker has spent the account's, so the real user is
 * never locked out from their usual device.
 */
export const KNOWN_DEVICE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const key = (token: string, account: string) => ({ pk: `DEVICE#${hashOf(token)}`, sk: `ACCOUNT#${account}` });

export const knownDevices = {
  async remember(db: Db, token: string, account: string, now = Date.now()): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...key(token, account),
          entity: 'knownDevice',
          ttl: Math.ceil((now + KNOWN_DEVICE_TTL_MS) / 1000),
        },
      }),
    );
  },

  async knows(db: Db, token: string, account: string, now = Date.now()): Promise<boolean> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(token, account) }));
    return Item !== undefined && (typeof Item.ttl !== 'number' || Item.ttl * 1000 > now);
  },

  /** The id a device's attempts are counted under (its token's hash, never the token). */
  idOf: (token: string) => hashOf(token).slice(0, 22),
};
