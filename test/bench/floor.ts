/**
 * The floor: what the same machine does without Curbside in the way.
 * - A bare PutItem loop on the same DynamoDB Local instance, with as many
 *   clients as the API load had and the same request rate (open loop).
 * - A bare `ws` broadcast from the server process to as many clients as there
 *   were staff screens, at the rush's event rate, with messages of the same size.
 */
import { Agent } from 'node:http';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { localAccessKeyId } from '@curbside/local';
import { openFloorClient } from './screens';
import type { ServerProcess } from './server-process';
import { Samples, seededRandom, sleep } from './stats';
import type { BroadcastFloor, PutFloor } from './types';

export const barePutLoop = async (options: {
  endpoint: string;
  tableName: string;
  clients: number;
  perSecond: number;
  durationMs: number;
  itemBytes: number;
}): Promise<PutFloor> => {
  if (!/^http:\/\/(127\.0\.0\.1|localhost):\d+$/.test(options.endpoint)) {
    throw new Error(`The floor only targets a local DynamoDB, not ${options.endpoint}`);
  }
  const client = new DynamoDBClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    // DynamoDB Local keeps a database per key id: the one the server's table is in.
    credentials: { accessKeyId: localAccessKeyId(), secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { httpAgent: new Agent({ keepAlive: true, maxSockets: options.clients }) },
  });
  const latency = new Samples();
  let errors = 0;
  let puts = 0;
  const filler = 'x'.repeat(Math.max(0, options.itemBytes - 60));
  const perClient = options.perSecond / options.clients;
  const started = performance.now();
  const worker = async (w: number) => {
    const random = seededRandom(7_000 + w);
    let due = started + (-Math.log(1 - random()) * 1000) / perClient;
    while (due - started < options.durationMs) {
      await sleep(due - performance.now());
      const sent = performance.now();
      try {
        await client.send(
          new PutItemCommand({
            TableName: options.tableName,
            Item: { pk: { S: `FLOOR#${w}` }, sk: { S: `PUT#${puts++}` }, data: { S: filler } },
          }),
        );
        latency.push(performance.now() - sent);
      } catch {
        errors++;
      }
      due += (-Math.log(1 - random()) * 1000) / perClient;
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, w) => worker(w)));
  client.destroy();
  return {
    clients: options.clients,
    perSecond: options.perSecond,
    puts: latency.length,
    errors,
    itemBytes: options.itemBytes,
    latencyMs: latency.summary(),
  };
};

export const bareBroadcast = async (
  server: ServerProcess,
  options: { clients: number; messages: number; perSecond: number; payloadBytes: number },
): Promise<BroadcastFloor> => {
  const { url } = await server.ask({ type: 'floorServer' });
  const latency = new Samples();
  const clients = await Promise.all(
    Array.from({ length: options.clients }, () => openFloorClient(url, latency)),
  );
  const result = await server.ask({
    type: 'floorBroadcast',
    count: options.messages,
    perSecond: options.perSecond,
    payloadBytes: options.payloadBytes,
  });
  const deadline = performance.now() + 5000;
  while (latency.length < result.sent && performance.now() < deadline) await sleep(20);
  for (const client of clients) client.close();
  return {
    clients: result.clients,
    messages: options.messages,
    perSecond: options.perSecond,
    payloadBytes: options.payloadBytes,
    expected: result.sent,
    received: latency.length,
    latencyMs: latency.summary(),
  };
};
