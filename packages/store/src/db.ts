import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { access } from './access';
import { billedUnits, meter, meterEnabled, observeWrite } from './meter';

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
 * Asks every call for `ReturnConsumedCapacity: 'TOTAL'` and adds the units
 * AWS would bill (see `billedUnits`) to the meter: `ddb.readUnits`,
 * `ddb.writeUnits` (of which `ddb.estimatedWriteUnits` are estimates), and
 * calls and units per operation (`ddb.Query.calls`, `ddb.Query.units`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's middleware types are generic over every command
type Handler = (args: { input: Record<string, unknown> }) => Promise<{ output?: any }>;

const meterMiddleware =
  (next: Handler, context: { commandName?: string }): Handler =>
  async (args) => {
    const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
    const { input } = args;
    if (input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
    // Metering is best effort: a mistake in it must never fail the call.
    const record = (units: () => { read: number; write: number; estimated: number }) => {
      try {
        const { read, write, estimated } = units();
        meter.add('ddb.calls');
        meter.add(`ddb.${operation}.calls`);
        meter.add(`ddb.${operation}.units`, read + write);
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
      record(() =>
        billedUnits(operation, input, { ok: false, errorName: (error as { name?: string }).name }),
      );
      throw error;
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
  const accessCheck =
    (next: Handler, context: { commandName?: string }): Handler =>
    async (args) => {
      access.check((context.commandName ?? '').replace(/Command$/, ''), args.input);
      return next(args);
    };
  // biome-ignore lint/suspicious/noExplicitAny: see Handler
  client.middlewareStack.add(accessCheck as any, { step: 'initialize', name: 'curbsideAccess' });
  if (metered) {
    // biome-ignore lint/suspicious/noExplicitAny: see Handler
    client.middlewareStack.add(meterMiddleware as any, { step: 'initialize', name: 'curbsideMeter' });
  }
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc, table };
};

/** The same client on another table (one connection pool per process for both tables). */
export const onTable = (db: Db, table: string): Db => ({ doc: db.doc, table });
