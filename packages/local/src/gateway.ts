/** One Node HTTP server standing in for CloudFront + HTTP API + WebSocket API + EventBridge on a laptop. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import type { Duplex } from 'node:stream';
import { IMPORT_JOBS, MAIL_SENDER, MAP_ORIGINS, parseOrigins, securityHeaders } from '@curbside/api';
import { registerInProcessMail, registerInProcessManagement } from '@curbside/functions/lib/in-process';
import { type JobRun, registerInProcessJobs } from '@curbside/functions/lib/jobs';
import { type MailRunStart, registerInProcessMailRuns } from '@curbside/functions/lib/mail-runs';
import { connectionTableNameFor } from '@curbside/store';
import { ensureTable } from './dynamo';
import { fromHttpResult, matchRoute, splitUrl, toHttpEvent } from './events';
import { type Invoke, invoke as inProcessInvoke } from './lambda';
import { logError, logInfo } from './log';
import { watchCall } from './loop-watch';
import { createMailbox, type Mailbox, mailPage, sesTransport } from './mail';
import { inProcessTransport } from './management';
import { startSchedules } from './scheduler';
import { serveStatic } from './static';
import { createWebSocketGateway } from './websocket';
import { createWorkerPools, WorkerCrashed, type WorkerPools } from './workers';

export interface ServerOptions {
  /** Default 3000; 0 picks any free port. */
  port?: number;
  /** Default 127.0.0.1; `0.0.0.0` serves the local network (tablets). */
  host?: string;
  tableName: string;
  /** The live-connection table; default `{tableName}-connections`, created when missing. */
  connectionTableName?: string;
  dynamoEndpoint: string;
  /** The built web app (`web/dist`); without it a page says how to build it. */
  webDist?: string;
  /** Run `schedules` from `@curbside/api` on timers. */
  runSchedules?: boolean;
  /** The data is the demo seed: the parent login shows the demo account (never in AWS). */
  demo?: boolean;
  /** The map's origins for the Content-Security-Policy; default `MAP_ORIGINS` (env, comma-separated) or the api's list. */
  mapOrigins?: readonly string[];
  /**
   * Run each function in worker threads, at most this many per function, as Lambda runs
   * each in its own containers (`'cores'`: the machine's cores). 0 (the default) runs
   * every handler on this thread: quicker to start, as the tests do.
   */
  workers?: number | 'cores';
  /** Handler modules loaded from other files in the workers (tests). */
  workerModules?: Record<string, string>;
  /** Where the emulated SES keeps each message (`.data/mail`); default: in memory. */
  mailDir?: string;
}

export interface RunningServer {
  /** `http://{host}:{port}`, for example `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  /** The worker pools, when the functions run in workers. */
  workers: WorkerPools | undefined;
  /** The messages the handlers sent through the emulated SES (listed at `/dev/mail`). */
  mail: Mailbox;
  /**
   * The asynchronous invocations that failed every try (Lambda's retries,
   * then the function's on-failure destination: in AWS its dead-letter queue).
   */
  deadLetters: DeadLetter[];
  /** Closes sockets (running their `$disconnect`), timers and the server. */
  close(): Promise<void>;
}

/** What Lambda sends an on-failure destination: the function, the event, the error and the tries. */
export interface DeadLetter {
  function: string;
  requestPayload: unknown;
  errorMessage: string;
  attempts: number;
  at: string;
}

/** API Gateway would take more; a laptop runtime refuses anything above 1 MB. */
const MAX_BODY_BYTES = 1024 * 1024;

const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
};

/** Reads the request body, or answers null (after draining) when it exceeds `limit` bytes. */
const readBody = (request: IncomingMessage, limit: number): Promise<Buffer | null> =>
  new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > limit;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    request.on('error', reject);
  });

/** Answers a refused upgrade on any path but `/ws`. */
const refuseUpgrade = (socket: Duplex, status: string) => {
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
};

const listen = (server: ReturnType<typeof createServer>, port: number, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(Object.assign(new Error(`Port ${port} is already in use on ${host}.`), { code: error.code }));
      } else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });

/**
 * What a request log line shows of a path: an API call as its route's
 * template (`GET /api/pickup-codes/lookup/{code}`), so no path parameter (a
 * pickup code above all) is ever logged; any other path as it is.
 */
const loggedPath = (method: string, rawPath: string): string => {
  if (rawPath.startsWith('/api/')) {
    const match = matchRoute(method, rawPath);
    return match.kind === 'route' ? match.route.path : '/api/…';
  }
  // A page path may carry a code too (`/invite/{code}`): only its first segment is logged.
  if (rawPath.startsWith('/assets/')) return rawPath;
  const first = /^\/[^/]*/.exec(rawPath)?.[0] ?? '/';
  return first === rawPath ? rawPath : `${first}/…`;
};

/** The address other processes on this machine reach the server at. */
/**
 * Whether a caller is this machine itself: 127.0.0.0/8 or ::1, also as an
 * IPv4-mapped IPv6 address (a server listening on `::` sees `::ffff:127.0.0.1`).
 */
export const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && (address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address));

const loopbackOf = (host: string) =>
  host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

export const startServer = async ({
  port = 3000,
  host = '127.0.0.1',
  tableName,
  connectionTableName = connectionTableNameFor(tableName),
  dynamoEndpoint,
  webDist,
  runSchedules = false,
  demo = false,
  mapOrigins = process.env.MAP_ORIGINS ? parseOrigins(process.env.MAP_ORIGINS) : MAP_ORIGINS,
  workers = 0,
  workerModules,
  mailDir,
}: ServerOptions): Promise<RunningServer> => {
  // The WebSocket API's connection table, as the stack creates it beside the data table.
  await ensureTable({ endpoint: dynamoEndpoint, tableName: connectionTableName, kind: 'connections' });
  // Handlers run here, or in worker threads made once the configuration below is set.
  let pools: WorkerPools | undefined;
  const invoke: Invoke = (module, event, options) =>
    pools ? pools.invoke(module, event, options) : inProcessInvoke(module, event, options);
  const sockets = createWebSocketGateway({ invoke });
  const mail = createMailbox(mailDir ? { dir: mailDir } : {});

  const answeredByHandler = new WeakSet<ServerResponse>();
  /** `/api/*`: the route table decides; the handler gets the same event API Gateway would build. */
  const api = async (
    request: IncomingMessage,
    response: ServerResponse,
    rawPath: string,
    arrived: number,
  ) => {
    const method = request.method ?? 'GET';
    const match = matchRoute(method, rawPath);
    if (match.kind === 'none') return sendJson(response, 404, { message: 'Not found' });
    if (match.kind === 'method') {
      return sendJson(response, 405, { message: 'Method not allowed' }, { allow: match.allowed.join(', ') });
    }
    const watch = watchCall(match.route.name, arrived);
    if (watch) response.once('finish', () => watch('written'));
    const body = await readBody(request, MAX_BODY_BYTES);
    if (!body) return sendJson(response, 413, { message: 'Request body too large (limit 1 MB)' });
    const event = toHttpEvent({
      request,
      body,
      routeKey: match.routeKey,
      pathParameters: match.pathParameters,
    });
    let result: unknown;
    watch?.('invoke');
    try {
      result = await invoke(`http/${match.route.name}`, event);
      watch?.('answered');
    } catch (error) {
      // An uncaught error in a Lambda: API Gateway answers this; a crashed one (its worker died), 502.
      logError(`http/${match.route.name} failed`, error);
      if (error instanceof WorkerCrashed)
        return sendJson(response, 502, { message: 'Internal Server Error' });
      return sendJson(response, 500, { message: 'Internal Server Error' });
    }
    const out = fromHttpResult(result);
    answeredByHandler.add(response);
    response.writeHead(out.statusCode, out.headers);
    response.end(method === 'HEAD' ? undefined : out.body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const arrived = performance.now();
    const started = Date.now();
    const { rawPath } = splitUrl(request.url ?? '/');
    // The same security headers CloudFront adds in AWS, on every answer.
    for (const [name, value] of Object.entries(securityHeaders(rawPath, { mapOrigins }))) {
      response.setHeader(name, value);
    }
    // A request a handler answered has its handler's line (request id, route, caller, status).
    response.on('finish', () => {
      if (!answeredByHandler.has(response))
        logInfo(
          () =>
            `${request.method} ${loggedPath(request.method ?? 'GET', rawPath)} ${response.statusCode} ${Date.now() - started}ms`,
        );
    });
    // The management API (`/@connections/{id}`) has no HTTP route: the handlers reach it in-process only.
    if (rawPath === '/api' || rawPath.startsWith('/api/')) return api(request, response, rawPath, arrived);
    if (rawPath === '/ws')
      return sendJson(response, 426, { message: 'Upgrade Required' }, { upgrade: 'websocket' });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendJson(response, 405, { message: 'Method not allowed' }, { allow: 'GET, HEAD' });
    }
    // The laptop's mail (the emulated SES's messages): this runtime's page only, never deployed,
    // and shown only to this machine, whatever address the server listens on (issue 49).
    if (rawPath === '/dev/mail') {
      if (!isLoopback(request.socket.remoteAddress)) return sendJson(response, 404, { message: 'Not found' });
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return response.end(request.method === 'HEAD' ? undefined : mailPage(mail.list()));
    }
    serveStatic(webDist, request, response, rawPath);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      logError(`${request.method} ${request.url} failed`, error);
      if (!response.headersSent) sendJson(response, 500, { message: 'Internal Server Error' });
      else response.destroy();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (splitUrl(request.url ?? '/').rawPath === '/ws') sockets.upgrade(request, socket, head);
    else refuseUpgrade(socket, '404 Not Found');
  });

  const actualPort = await listen(server, port, host);
  // Handlers read their configuration when first imported, which happens after this.
  process.env.TABLE_NAME = tableName;
  process.env.CONNECTION_TABLE_NAME = connectionTableName;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoEndpoint;
  process.env.WS_MANAGEMENT_ENDPOINT = `http://${loopbackOf(host)}:${actualPort}`;
  process.env.CURBSIDE_DEMO = demo ? '1' : '';
  // SES v2 on this server, in-process as the management API (no HTTP route); the sender as configured, or the laptop's.
  process.env.SES_ENDPOINT = `http://${loopbackOf(host)}:${actualPort}`;
  process.env.MAIL_FROM ||= 'Curbside <no-reply@curbside.localhost>';
  const deliver = async (message: Parameters<Mailbox['deliver']>[0]) => mail.deliver(message).id;
  const unregisterMail = registerInProcessMail(process.env.SES_ENDPOINT, sesTransport(deliver));
  // The handlers post to this server's management API in-process (the same answers, no HTTP hop).
  const unregister = registerInProcessManagement(
    process.env.WS_MANAGEMENT_ENDPOINT,
    inProcessTransport(sockets.answer),
  );
  // Import jobs and mail runs run here as their functions would (asynchronously, continuing themselves).
  const jobRuns = new Set<Promise<void>>();
  const deadLetters: DeadLetter[] = [];
  let stopping = false;
  /**
   * As Lambda runs an asynchronous invocation: a failed one is tried again
   * (`retryAttempts` more times), then handed to the on-failure destination
   * (here `deadLetters` and an error line; in AWS the function's dead-letter queue).
   */
  const startAsync = (
    fn: { id: string; module: string; retryAttempts: number },
    event: unknown,
    timeoutMs: number,
    what: string,
  ) => {
    if (stopping) return;
    const attempt = async (tries: number): Promise<void> => {
      try {
        await invoke(fn.module, event, { timeoutMs, stopping: () => stopping });
      } catch (error) {
        if (tries <= fn.retryAttempts && !stopping) return attempt(tries + 1);
        logError(
          `${what} failed (${tries} ${tries === 1 ? 'try' : 'tries'}): sent to the dead-letter queue`,
          error,
        );
        deadLetters.push({
          function: fn.id,
          requestPayload: event,
          errorMessage: error instanceof Error ? error.message : String(error),
          attempts: tries,
          at: new Date().toISOString(),
        });
      }
    };
    const task = attempt(1).finally(() => jobRuns.delete(task));
    jobRuns.add(task);
  };
  const startJob = async (run: JobRun) =>
    startAsync(
      IMPORT_JOBS,
      run,
      Number(process.env.IMPORT_JOB_TIMEOUT_MS) || IMPORT_JOBS.access.timeoutSeconds * 1000,
      'import job run',
    );
  const startMailRun = async (run: MailRunStart) =>
    startAsync(
      MAIL_SENDER,
      run,
      Number(process.env.MAIL_SENDER_TIMEOUT_MS) || MAIL_SENDER.access.timeoutSeconds * 1000,
      'mail run',
    );
  const unregisterJobs = registerInProcessJobs(startJob);
  const unregisterMailRuns = registerInProcessMailRuns(startMailRun);
  const limit = workers === 'cores' ? availableParallelism() : workers;
  if (limit > 0) {
    pools = createWorkerPools({
      limit,
      managementEndpoint: process.env.WS_MANAGEMENT_ENDPOINT,
      mailEndpoint: process.env.SES_ENDPOINT,
      ...(workerModules ? { modules: workerModules } : {}),
      answerQuestion: async (question) =>
        question.kind === 'management'
          ? Promise.all(
              question.calls.map((call) => sockets.answer(call.method, call.connectionId, call.body)),
            )
          : question.kind === 'mail'
            ? deliver(question.mail)
            : question.kind === 'mailRun'
              ? startMailRun(question.run)
              : startJob(question.run),
    });
  }
  const stopSchedules = runSchedules ? startSchedules(undefined, invoke) : undefined;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopping = true;
      pools?.stop();
      await stopSchedules?.();
      // A running import saves its place at its next page and stops (it can be resumed); a mail run
      // stops claiming messages and settles those it sent.
      await Promise.allSettled([...jobRuns]);
      unregisterJobs();
      unregisterMailRuns();
      // Sockets first: their handlers may still post through this server.
      await sockets.close();
      await pools?.close();
      unregister();
      unregisterMail();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
    })();
    return closing;
  };

  return {
    url: `http://${loopbackOf(host)}:${actualPort}`,
    port: actualPort,
    workers: pools,
    mail,
    deadLetters,
    close,
  };
};
