import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { putAll } from './batch-write';
import type { Db } from './db';
import { queryAll } from './query';

/**
 * WebSocket connections.
 * Connection: `CONN#{connectionId}` / `CONN` with the channels it joined.
 * Channel member: `CHANNEL#{channel}` / `CONN#{connectionId}`: fan-out is one
 *   Query on the channel's partition, never a Scan.
 * Both carry a TTL of 2 hours 10 minutes: API Gateway closes every
 * connection after 2 hours, and `$disconnect` is best effort.
 */
export const CONNECTION_TTL_SECONDS = 2 * 60 * 60 + 10 * 60;

export interface Connection {
  connectionId: string;
  channels: string[];
  userId: number | null;
  connectedAt: string;
}

const key = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' });
const memberKey = (channel: string, connectionId: string) => ({
  pk: `CHANNEL#${channel}`,
  sk: `CONN#${connectionId}`,
});

export const connections = {
  async put(db: Db, connection: Connection): Promise<void> {
    const ttl = Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS;
    const items = [
      { ...key(connection.connectionId), entity: 'connection', ttl, ...connection },
      ...connection.channels.map((channel) => ({
        ...memberKey(channel, connection.connectionId),
        entity: 'channelMember',
        connectionId: connection.connectionId,
        ttl,
      })),
    ];
    await putAll(db, items);
  },

  async get(db: Db, connectionId: string): Promise<Connection | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(connectionId) }));
    if (!Item || (typeof Item.ttl === 'number' && Item.ttl * 1000 < Date.now())) return undefined;
    return {
      connectionId: Item.connectionId,
      channels: Item.channels,
      userId: Item.userId ?? null,
      connectedAt: Item.connectedAt,
    };
  },

  /** Connection ids in a channel, skipping rows whose TTL has passed. */
  async inChannel(db: Db, channel: string): Promise<string[]> {
    const now = Math.floor(Date.now() / 1000);
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `CHANNEL#${channel}` },
      ProjectionExpression: 'connectionId, #ttl',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
    });
    return items
      .filter((item) => typeof item.ttl !== 'number' || item.ttl >= now)
      .map((item) => item.connectionId as string);
  },

  /**
   * Removes a connection and its channel memberships, including those of
   * `alsoIn` (the channel a publish found it in), so a membership left over
   * from a partly failed delete is removed too.
   */
  async remove(db: Db, connectionId: string, alsoIn: readonly string[] = []): Promise<void> {
    const connection = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(connectionId) }));
    const channels = new Set<string>([...(connection.Item?.channels ?? []), ...alsoIn]);
    await Promise.all([
      db.doc.send(new DeleteCommand({ TableName: db.table, Key: key(connectionId) })),
      ...[...channels].map((channel) =>
        db.doc.send(new DeleteCommand({ TableName: db.table, Key: memberKey(channel, connectionId) })),
      ),
    ]);
  },
};
