import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoffMs, sleep } from '@curbside/domain';
import { access } from './access';
import { billedUnits, meter, meterEnabled, observeWrite } from './meter';
import { sendWithClaim } from './transaction-claim';

/** A handle on the table: the document client and the table's name. */
export interface Db {
  readonly doc: DynamoDBDocumentClient;
  readonly table: string;
}

/**
 * The environment variable naming the access key id of the laptop's DynamoDB
 * Local (which keeps one database per key id): set by the laptop runtime when
 * it starts DynamoDB Local, read by every local client.
 */
export const LOCAL_KEY_ID_VARIABLE = 'CURBSIDE_DYNAMODB_KEY_ID';

export interface DbOptions {
  table: string;
  /** DynamoDB Local or LocalStack; unset in AWS. */
  endpoint?: string | undefined;
  /** With `endpoint`: the access key id (default `CURBSIDE_DYNAMODB_KEY_ID`, else `local`). */
  accessKeyId?: string | undefined;
  region?: string | undefined;
  /** Count request units per invocation label (see `meter.ts`); default: `CURBSIDE_METER=1`. */
  meter?: boolean | undefined;
}

/**
 * Asks every call but a transaction for `ReturnConsumedCapacity: 'TOTAL'` and
 * adds the units AWS would bill (see `billedUnits`) to the meter:
 * `ddb.readUnits`, `ddb.writeUnits` (of which `ddb.estimatedWriteUnits` are
 * estimates), calls and units per operation (`ddb.Query.calls`,
 * `ddb.Query.units`) and the keys BatchGetItems ask for
 * (`ddb.BatchGetItem.keys`). A TransactWriteItems is billed from its items
 * (`transactionUnits`: Local reports one flat figure), so it asks for nothing:
 * DynamoDB Local works the units out item by item while it holds its
 * database-wide lock, which every other call waits for (ADR 0027, "(h54l)").
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's middleware types are generic over every command
type Handler = (args: { input: Record<string, unknown> }) => Promise<{ output?: any }>;

/** How many keys a BatchGetItem's input asks for, over its tables. */
const keysAsked = (input: Record<string, unknown>): number =>
  Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>).reduce(
    (sum, request) => sum + (request.Keys?.length ?? 0),
    0,
  );

const meterMiddleware =
  (next: Handler, context: { commandName?: string }): Handler =>
  async (args) => {
    const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
    const { input } = args;
    if (input.ReturnConsumedCapacity === undefined && operation !== 'TransactWriteItems')
      input.ReturnConsumedCapacity = 'TOTAL';
    // Metering is best effort: a mistake in it must never fail the call.
    const started = performance.now();
    const record = (units: () => { read: number; write: number; estimated: number }, failed?: string) => {
      try {
        meter.call(started, performance.now(), failed ? `${operation}!${failed}` : operation);
        const { read, write, estimated } = units();
        meter.add('ddb.calls');
        meter.add(`ddb.${operation}.calls`);
        meter.add(`ddb.${operation}.units`, read + write);
        // The keys a BatchGetItem asked for: DynamoDB Local takes its lock once a key (ADR 0027, "(h54l)").
        if (operation === 'BatchGetItem') meter.add('ddb.BatchGetItem.keys', keysAsked(input));
        meter.add('ddb.readUnits', read);
        meter.add('ddb.writeUnits', write);
        if (estimated > 0) meter.add('ddb.estimatedWriteUnits', estimated);
      } catch (error) {
        meter.add('meter.errors');
        console.error('meter:', error);
      }
    };
    try {
      const result = await next(args);
      record(() => {
        const units = billedUnits(operation, input, { ok: true, consumed: result.output?.ConsumedCapacity });
        observeWrite(operation, input);
        return units;
      });
      return result;
    } catch (error) {
      record(
        () => billedUnits(operation, input, { ok: false, errorName: (error as { name?: string }).name }),
        (error as { name?: string }).name ?? 'Error',
      );
      throw error;
    }
  };

/** How many times a write DynamoDB cancelled for a conflicting transaction is sent, in all. */
export const CONFLICT_ATTEMPTS = 5;

/**
 * Whether DynamoDB refused a write only because another transaction held one
 * of its items at that moment: a transaction cancelled for `TransactionConflict`
 * with no condition failing, or a single write refused with
 * `TransactionConflictException`. Nothing of it was applied; sent again, it
 * usually goes through. (The SDK retries neither.)
 */
export const isTransactionConflict = (error: unknown): boolean => {
  const { name, CancellationReasons } = error as {
    name?: string;
    CancellationReasons?: Array<{ Code?: string }>;
  };
  if (name === 'TransactionConflictException') return true;
  if (name !== 'TransactionCanceledException') return false;
  const codes = (CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
};

/**
 * Sends a write again, after a short random wait, when DynamoDB cancelled it
 * for a conflicting transaction (see `isTransactionConflict`): two staff
 * tapping at once on one batch or car must both get their change, never a
 * 500 or a condition failure that did not happen. Every car-line change is a
 * transaction (the dismissal's record), so in AWS this is an everyday case.
 */
export const retryConflicts =
  (next: Handler): Handler =>
  async (args) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(args);
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
        await sleep(backoffMs(attempt, 10, { jitter: 'spread' }));
      }
    }
  };

/**
 * An SDK logger that drops everything, like the SDK's default, but has no
 * `info`: the SDK's logger middleware builds a redacted copy of every input
 * and output for `logger.info` even when the logger discards it, a walk over
 * every item a Query returns (a fifth of the SDK's work on a 100-item Query).
 * Every other logger call of the SDK is optional-chained or uses the methods kept.
 */
export const quietSdkLogger = { debug: () => {}, warn: () => {}, error: () => {} } as unknown as NonNullable<
  DynamoDBClientConfig['logger']
>;

export const createDb = ({
  table,
  endpoint,
  accessKeyId,
  region,
  meter: metered = meterEnabled(),
}: DbOptions): Db => {
  const local = endpoint !== undefined && endpoint !== '';
  const keyId = accessKeyId || process.env[LOCAL_KEY_ID_VARIABLE] || 'local';
  const client = new DynamoDBClient({
    region: region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(local ? { endpoint, credentials: { accessKeyId: keyId, secretAccessKey: 'local' } } : {}),
    maxAttempts: 3,
    logger: quietSdkLogger,
  });
  // IAM on a laptop: a call the running invocation's grant does not allow is refused (see access.ts).
  // Not an async function: one promise fewer a call (a refusal is a rejection all the same).
  const accessCheck =
    (next: Handler, context: { commandName?: string }): Handler =>
    (args) => {
      try {
        access.check((context.commandName ?? '').replace(/Command$/, ''), args.input);
      } catch (error) {
        return Promise.reject(error);
      }
      return next(args);
    };
  // biome-ignore lint/suspicious/noExplicitAny: see Handler
  client.middlewareStack.add(accessCheck as any, { step: 'initialize', name: 'curbsideAccess' });
  // Outermost, so that each attempt is checked and metered as the call it is.
  // biome-ignore lint/suspicious/noExplicitAny: see Handler
  client.middlewareStack.add(retryConflicts as any, {
    step: 'initialize',
    name: 'curbsideConflictRetry',
    priority: 'high',
  });
  // Innermost of the three: each attempt of a transaction carries the request's pending Idempotency-Key claim.
  const claimCarrier =
    (next: Handler, context: { commandName?: string }): Handler =>
    (args) =>
      context.commandName === 'TransactWriteItemsCommand'
        ? sendWithClaim(args.input as Parameters<typeof sendWithClaim>[0], () => next(args))
        : next(args);
  // biome-ignore lint/suspicious/noExplicitAny: see Handler
  client.middlewareStack.add(claimCarrier as any, {
    step: 'initialize',
    name: 'curbsideIdempotencyClaim',
    priority: 'low',
  });
  if (metered) {
    // biome-ignore lint/suspicious/noExplicitAny: see Handler
    client.middlewareStack.add(meterMiddleware as any, { step: 'initialize', name: 'curbsideMeter' });
  }
  // The SDK's logger middleware only feeds the logger, and ours drops everything (`quietSdkLogger`):
  // without it, no copy of each output and no walk over a failed call's input (a refused condition).
  client.middlewareStack.remove('loggerMiddleware');
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc: withResolvedHandlers(doc), table };
};

/** What the table handle needs of a document client's command (`@aws-sdk/lib-dynamodb`'s commands). */
interface DocumentCommand {
  clientCommand: {
    resolveMiddleware(
      stack: unknown,
      config: unknown,
      options: undefined,
    ): (command: unknown) => Promise<{
      output: unknown;
    }>;
  };
  middlewareStack: unknown;
  addMarshallingMiddleware(config: unknown): void;
}

const isDocumentCommand = (command: unknown): command is DocumentCommand =>
  typeof (command as Partial<DocumentCommand>).addMarshallingMiddleware === 'function' &&
  typeof (command as Partial<DocumentCommand>).clientCommand?.resolveMiddleware === 'function';

/** The middleware stack's methods that change it: each clears the handlers resolved before. */
const STACK_CHANGES = ['add', 'addRelativeTo', 'use', 'remove', 'removeByTag'] as const;

/**
 * The document client with each command's middleware stack resolved once per
 * command class (issue 54, ADR 0027 "The handler's CPU"), not once per call:
 * sorting and chaining some twenty middlewares and adding the command's
 * marshalling pair took about 6% of a GetItem's CPU. The SDK's own
 * `cacheMiddleware` cannot serve the document client (its cached handler would
 * send the first command's input again); here the handler resolved for a class
 * is handed each call's own low-level command, whose input the marshalling
 * middleware reads. As with `cacheMiddleware`, the calls of a class share the
 * handler's context (what the middlewares note there is the same for every
 * call of it: endpoint, signing region, auth scheme). A change of the client's
 * middleware stack clears the handlers, so a middleware added later (a test's)
 * applies to the next call; a call with options is resolved as the SDK does.
 */
const withResolvedHandlers = (doc: DynamoDBDocumentClient): DynamoDBDocumentClient => {
  let handlers = new WeakMap<object, (command: unknown) => Promise<{ output: unknown }>>();
  const stack = doc.middlewareStack as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of STACK_CHANGES) {
    const change = stack[name];
    if (typeof change !== 'function') continue;
    stack[name] = (...args: unknown[]) => {
      handlers = new WeakMap();
      return change.apply(stack, args);
    };
  }
  const send = doc.send.bind(doc) as (...args: unknown[]) => Promise<unknown>;
  doc.send = ((command: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || !isDocumentCommand(command)) return send(command, ...rest);
    const of = (command as object).constructor;
    let handler = handlers.get(of);
    if (!handler) {
      command.addMarshallingMiddleware(doc.config);
      handler = command.clientCommand.resolveMiddleware(
        (doc.middlewareStack as unknown as { concat(other: unknown): unknown }).concat(
          command.middlewareStack,
        ),
        doc.config,
        undefined,
      );
      handlers.set(of, handler);
    }
    return handler(command.clientCommand).then((result) => result.output);
  }) as typeof doc.send;
  return doc;
};

/** The same client on another table (one connection pool per process for both tables). */
export const onTable = (db: Db, table: string): Db => ({ doc: db.doc, table });
