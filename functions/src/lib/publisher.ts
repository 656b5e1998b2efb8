import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { ServerMessage } from '@curbside/api';
import { connections, type Db, meter, quietSdkLogger } from '@curbside/store';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { config } from './config';
import { inProcessTransportFor, type ManagementTransport } from './in-process';
import { countMetric, log } from './log';

export interface PublishResult {
  sent: number;
  gone: number;
  failed: number;
}

export interface Publisher {
  /**
   * Sends one event to each connection; answers how many were sent and how many were gone
   * (their rows removed, but those of a connection still connecting: `connections.removeGone`).
   */
  send(connectionIds: readonly string[], event: ServerMessage, channel?: string): Promise<PublishResult>;
  /** Sends one event to every connection of a channel (one Query, no Scan). */
  publish(channel: string, event: ServerMessage): Promise<PublishResult>;
  /** Closes connections (management API DELETE) and removes their rows at once. */
  disconnect(connectionIds: readonly string[]): Promise<void>;
}

/** Runs `task` over `items` with at most `limit` in flight. */
export const forEachBounded = async <T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};

const http = () =>
  new NodeHttpHandler({
    // The SDK's default of 50 sockets throttles a fan-out to a full school.
    httpAgent: new Agent({ keepAlive: true, maxSockets: 200 }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 200 }),
  });

/**
 * A management API client. With `inProcess`, requests go through the
 * transport registered for `endpoint` when there is one (looked up per
 * request), over HTTP otherwise.
 */
export const createManagementClient = (
  endpoint: string,
  region = config.region,
  options: { inProcess?: boolean } = {},
) => {
  const local = endpoint.startsWith('http://');
  const overHttp = http();
  const viaProcess = {
    handle: (request: Parameters<ManagementTransport['handle']>[0], handlerOptions?: unknown) => {
      const transport = inProcessTransportFor(endpoint);
      return transport
        ? transport.handle(request)
        : overHttp.handle(request as Parameters<NodeHttpHandler['handle']>[0], handlerOptions as never);
    },
    updateHttpClientConfig: overHttp.updateHttpClientConfig.bind(overHttp),
    httpHandlerConfigs: overHttp.httpHandlerConfigs.bind(overHttp),
    destroy: () => overHttp.destroy(),
  };
  return new ApiGatewayManagementApiClient({
    endpoint,
    region,
    ...(local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    requestHandler: options.inProcess ? (viaProcess as unknown as NodeHttpHandler) : overHttp,
    // Every post is the same command with no per-call middleware: resolve the stack once
    // (about a third of the SDK's own work per message).
    cacheMiddleware: true,
    logger: quietSdkLogger,
  });
};

/** API Gateway bills WebSocket messages in 32 KB increments. */
const BILLED_MESSAGE_BYTES = 32 * 1024;

const isGone = (error: unknown) =>
  error instanceof GoneException || (error as { name?: string }).name === 'GoneException';

/**
 * A publisher over the live-connection table `db` and a management API
 * `client`. With `inProcessEndpoint`, posts go straight to the transport the
 * laptop runtime registered for that endpoint when it offers `post` (the same
 * answers and the same IAM check, without the SDK's request); in AWS nothing
 * is registered and every post is the SDK's.
 */
export const createPublisher = ({
  db,
  client,
  concurrency = 64,
  inProcessEndpoint,
}: {
  /** The live-connection table. */
  db: Db;
  client: ApiGatewayManagementApiClient;
  concurrency?: number;
  inProcessEndpoint?: string;
}): Publisher => {
  const post = async (connectionId: string, data: Uint8Array) => {
    const direct = inProcessEndpoint ? inProcessTransportFor(inProcessEndpoint)?.post : undefined;
    if (!direct) {
      await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
      return;
    }
    const { status, errorType } = await direct(connectionId, data);
    if (status === 410) throw new GoneException({ message: 'Gone', $metadata: { httpStatusCode: 410 } });
    if (status >= 300) {
      throw Object.assign(new Error(`The management API answered ${status}`), {
        name: errorType ?? 'ManagementApiError',
        $metadata: { httpStatusCode: status },
      });
    }
  };
  const send: Publisher['send'] = async (connectionIds, event, channel) => {
    const data = new TextEncoder().encode(JSON.stringify(event));
    const result: PublishResult = { sent: 0, gone: 0, failed: 0 };
    await forEachBounded(connectionIds, concurrency, async (connectionId) => {
      // Metered (CURBSIDE_METER=1): every post is a billed message, delivered or not.
      meter.add('live.messages');
      meter.add('live.billedMessages', Math.max(1, Math.ceil(data.byteLength / BILLED_MESSAGE_BYTES)));
      meter.add('live.bytes', data.byteLength);
      try {
        await post(connectionId, data);
        result.sent++;
      } catch (error) {
        if (isGone(error)) {
          result.gone++;
          await connections.removeGone(db, connectionId, channel ? [channel] : []);
        } else {
          result.failed++;
          log('warn', 'postToConnection failed', {
            connectionId,
            error: (error as Error).name,
          });
        }
      }
    });
    if (result.sent > 0) countMetric('livePosts', result.sent);
    if (result.failed > 0) countMetric('livePostsFailed', result.failed);
    return result;
  };
  return {
    send,
    publish: async (channel, event) => {
      meter.add(`live.published.${channel}`);
      return send(await connections.inChannel(db, channel), event, channel);
    },
    disconnect: async (connectionIds) => {
      await forEachBounded(connectionIds, concurrency, async (connectionId) => {
        try {
          await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
        } catch (error) {
          // Gone: already closed. Anything else: the row goes anyway, and the TTL ends the rest.
          if (!isGone(error))
            log('warn', 'deleteConnection failed', { connectionId, error: (error as Error).name });
        }
        // Publishers stop sending now, whenever `$disconnect` runs.
        await connections.remove(db, connectionId);
      });
    },
  };
};
