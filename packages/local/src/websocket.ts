/** The WebSocket API on a laptop: `/ws` upgrades run `$connect`/`$default`/`$disconnect`, plus the (in-process) management API. */
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WS_ROUTES } from '@curbside/api';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { type Invoke, invoke as inProcessInvoke } from './lambda';
import { logError } from './log';
import {
  type ConnectionInfo,
  connectEvent,
  connectionInfo,
  disconnectEvent,
  messageEvent,
  newConnectionId,
} from './ws-events';

/** API Gateway's limits: 128 KB per message; idle connections close after 10 minutes, all after 2 hours. */
const MAX_MESSAGE_BYTES = 128 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60_000;
const MAX_LIFETIME_MS = 2 * 60 * 60_000;
const SWEEP_EVERY_MS = 15_000;

export interface LiveConnection extends ConnectionInfo {
  socket: WebSocket;
  /** Last message from the client (or the connect); idle time counts from here. */
  lastActiveAt: number;
}

export interface WebSocketGatewayOptions {
  idleTimeoutMs?: number;
  maxLifetimeMs?: number;
  /** How handlers run: in this thread (default) or in the runtime's worker threads. */
  invoke?: Invoke;
  /**
   * Posts to connections written in one turn of the event loop before the rest wait for the
   * next (`POSTS_PER_TURN`); `Infinity`: every post at once, as before h54m (micro-benchmarks).
   */
  postsPerTurn?: number;
}

/**
 * The laptop runtime serves every request, WebSocket message and handler on one thread: a
 * fan-out of hundreds of posts written at once is a stretch that every request arriving
 * meanwhile waits for (in AWS, API Gateway delivers them, off the handler's thread). So at most
 * this many posts are written a turn; the rest wait in one first-in-first-out outbox for the
 * next turns (`setImmediate`), and the requests and DynamoDB answers that arrived meanwhile run
 * between them. One outbox for every connection: a screen gets its messages in the order they
 * were posted, whoever posted them.
 */
export const POSTS_PER_TURN = 32;

const toBuffer = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

const statusOf = (result: unknown): number => {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) {
    const status = (result as { statusCode: unknown }).statusCode;
    if (typeof status === 'number') return status;
  }
  return 200;
};

/** Answers a refused upgrade with a plain HTTP status and closes the socket. */
const refuse = (socket: Duplex, status: number) => {
  if (socket.destroyed) return;
  const body = JSON.stringify({ message: STATUS_CODES[status] ?? 'Error' });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
};

/** What the management API answers: status, headers and a JSON body (or none). */
export interface ManagementAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

const jsonAnswer = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ManagementAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const GONE = jsonAnswer(410, { message: 'Gone' }, { 'x-amzn-ErrorType': 'GoneException' });

export const createWebSocketGateway = ({
  idleTimeoutMs = IDLE_TIMEOUT_MS,
  maxLifetimeMs = MAX_LIFETIME_MS,
  invoke = inProcessInvoke,
  postsPerTurn = POSTS_PER_TURN,
}: WebSocketGatewayOptions = {}) => {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const live = new Map<string, LiveConnection>();
  const pending = new Set<Promise<unknown>>();
  let closing = false;

  /** A post accepted and waiting for its turn (written then if its connection is still open). */
  interface Post {
    connection: LiveConnection;
    body: Uint8Array;
  }
  const outbox: (Post | undefined)[] = [];
  let next = 0;
  /** Posts written in this turn; the next turn (its `setImmediate`) starts again from 0. */
  let writtenThisTurn = 0;
  let turnScheduled = false;
  const write = ({ connection, body }: Post) => {
    writtenThisTurn++;
    // A connection that closed after its post was accepted loses it, as on API Gateway.
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(body, { binary: false });
  };
  const nextTurn = () => {
    turnScheduled = false;
    writtenThisTurn = 0;
    while (next < outbox.length && writtenThisTurn < postsPerTurn) {
      const post = outbox[next] as Post;
      outbox[next++] = undefined;
      write(post);
    }
    // The written part goes (at once when all is written; in steps while posts keep coming).
    if (next === outbox.length || next >= 4096) {
      outbox.splice(0, next);
      next = 0;
    }
    scheduleTurn();
  };
  const scheduleTurn = () => {
    // A turn with nothing written and nothing waiting needs no successor.
    if (turnScheduled || (writtenThisTurn === 0 && outbox.length === 0)) return;
    turnScheduled = true;
    setImmediate(nextTurn);
  };
  /**
   * Accepts a post to an open connection, as API Gateway answers one (200: accepted for
   * delivery), and writes it now while this turn has room and nothing waits before it, else in
   * its turn. So a handler's fan-out is not held by the turns: its answer waits for no socket.
   */
  const post = (connection: LiveConnection, body: Uint8Array) => {
    if (outbox.length === 0 && writtenThisTurn < postsPerTurn) write({ connection, body });
    else outbox.push({ connection, body });
    scheduleTurn();
    return jsonAnswer(200, undefined);
  };

  /** Runs a handler in the background; errors are logged, and `close()` waits for it. */
  const track = (task: Promise<unknown>) => {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  const run = (module: string, event: unknown) =>
    track(invoke(module, event).catch((error) => logError(`${module} failed`, error)));

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const connection of live.values()) {
      if (now - connection.lastActiveAt > idleTimeoutMs || now - connection.connectedAt > maxLifetimeMs) {
        connection.socket.close(1001, 'Going away');
      }
    }
  }, SWEEP_EVERY_MS);
  sweep.unref();

  const accept = (info: ConnectionInfo, socket: WebSocket) => {
    const connection: LiveConnection = { ...info, socket, lastActiveAt: Date.now() };
    live.set(info.connectionId, connection);
    socket.on('message', (data, isBinary) => {
      connection.lastActiveAt = Date.now();
      run(`ws/${WS_ROUTES.$default}`, messageEvent(info, toBuffer(data), isBinary));
    });
    socket.on('error', (error) => logError(`websocket ${info.connectionId}`, error));
    socket.once('close', (code, reason) => {
      live.delete(info.connectionId);
      run(`ws/${WS_ROUTES.$disconnect}`, disconnectEvent(info, code, reason.toString('utf8')));
    });
  };

  /** An `upgrade` on `/ws`: `$connect` decides before the socket is accepted. */
  const connect = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const info = connectionInfo(request, newConnectionId());
    let status: number;
    try {
      status = statusOf(await invoke(`ws/${WS_ROUTES.$connect}`, connectEvent(info, request)));
    } catch (error) {
      logError('ws/connect failed', error);
      status = 500;
    }
    if (status < 200 || status > 299) {
      refuse(socket, status);
      return;
    }
    if (closing || socket.destroyed) {
      // Shutting down, or the client left while `$connect` ran: clean up as AWS would.
      refuse(socket, 503);
      run(`ws/${WS_ROUTES.$disconnect}`, disconnectEvent(info, 1006, 'Connection not established'));
      return;
    }
    server.handleUpgrade(request, socket, head, (ws) => accept(info, ws));
  };

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    track(connect(request, socket, head).catch((error) => logError('websocket upgrade failed', error)));
  };

  /**
   * `POST|GET|DELETE /@connections/{id}`, answered like API Gateway so the
   * real `ApiGatewayManagementApiClient` works: an unknown or closed id is a
   * 410 `GoneException`. Reached only in-process, by this server's own
   * handlers (`management.ts`): there is no HTTP route to it, so no other
   * process or machine can post to, read or close a connection.
   */
  const answer = (method: string, connectionId: string, body: Uint8Array): Promise<ManagementAnswer> => {
    const found = live.get(connectionId);
    const connection = found?.socket.readyState === WebSocket.OPEN ? found : undefined;
    switch (method) {
      case 'POST': {
        if (!connection) return Promise.resolve(GONE);
        if (body.length > MAX_MESSAGE_BYTES) {
          return Promise.resolve(
            jsonAnswer(
              413,
              { message: 'Message too long' },
              { 'x-amzn-ErrorType': 'PayloadTooLargeException' },
            ),
          );
        }
        return Promise.resolve(post(connection, body));
      }
      case 'GET':
        if (!connection) return Promise.resolve(GONE);
        // The wire names are camelCase; the SDK answers them as ConnectedAt, Identity.SourceIp, ...
        return Promise.resolve(
          jsonAnswer(200, {
            connectedAt: new Date(connection.connectedAt).toISOString(),
            lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
            identity: { sourceIp: connection.sourceIp, userAgent: connection.userAgent },
          }),
        );
      case 'DELETE':
        if (!connection) return Promise.resolve(GONE);
        connection.socket.close(1000, 'Connection deleted');
        return Promise.resolve({ status: 204, headers: {} });
      default:
        return Promise.resolve(
          jsonAnswer(405, { message: 'Method not allowed' }, { allow: 'POST, GET, DELETE' }),
        );
    }
  };

  /** Closes every socket (their `$disconnect` runs) and waits for running handlers. */
  const close = async () => {
    closing = true;
    clearInterval(sweep);
    // Every accepted post goes out before the sockets close.
    while (next < outbox.length) nextTurn();
    const sockets = [...live.values()].map((connection) => connection.socket);
    const allClosed = () =>
      Promise.all(
        sockets.map((socket) =>
          socket.readyState === WebSocket.CLOSED
            ? undefined
            : new Promise((done) => socket.once('close', done)),
        ),
      );
    for (const socket of sockets) socket.close(1001, 'Server shutting down');
    await Promise.race([allClosed(), new Promise((done) => setTimeout(done, 1000).unref())]);
    for (const socket of sockets) if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
    await allClosed();
    // Each socket's `$disconnect` has started by now.
    while (pending.size > 0) await Promise.allSettled([...pending]);
    server.close();
  };

  return { upgrade, answer, close, connections: live as ReadonlyMap<string, LiveConnection> };
};

export type WebSocketGateway = ReturnType<typeof createWebSocketGateway>;
