/**
 * `npm run admin -- <command>`: the first accounts of a deployment, written
 * straight to the table (no API: there is nobody to sign in as yet).
 *
 *   create-super-admin --username NAME [--name "Full Name"] [--force]
 *   create-district --name "X"
 *   create-school --district ID --name "Y"
 *   index-parent-emails
 *   index-dismissal-changes
 *   index-bus-riders
 *
 * Which table: `AWS_ENDPOINT_URL_DYNAMODB` set (LocalStack, a DynamoDB Local)
 * → that endpoint and `TABLE_NAME` (default `curbside`); else `TABLE_NAME` or
 * `--table` set → that table in AWS (credentials and region as the AWS CLI's;
 * the region must be named); else the laptop's own database under `.data/`
 * (the running `npm start`'s DynamoDB Local, or one started for the command).
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  ConflictError,
  districtInputSchema,
  newSchoolTimeZone,
  schoolInputSchema,
  usernameSchema,
} from '@curbside/domain';
import { hashPassword, oneTimePassword } from '@curbside/functions/lib/passwords';
import {
  createDb,
  type Db,
  dismissalChanges,
  dismissalPlans,
  districts,
  schools,
  users,
} from '@curbside/store';
import {
  accessKeyIdOf,
  announcedEndpoint,
  type DynamoLocal,
  ensureTable,
  localDynamoClient,
  startDynamoLocal,
} from './dynamo';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-super-admin --username NAME [--name "Full Name"] [--force]
      Creates a super admin and prints their one-time password once.
      Refuses when a super admin exists already, unless --force.
  create-district --name "District name"
      Creates a district and prints its id.
  create-school --district ID --name "School name"
      Creates a school in that district and prints its id.
  index-parent-emails
      Once after upgrading: lets parent accounts made before "Forgot password?"
      find theirs by email address (indexes them; prints how many).
  index-dismissal-changes
      Before and again after upgrading to issue 54: gives dismissal changes made
      before it their place by last day, where the car line finds them in one
      read (moves them; prints how many).
  index-bus-riders
      Before and again after upgrading to issue 54's bus riders: lists each
      student whose weekly plan names a bus on that bus's riders, where queueing
      the bus reads them by key (prints how many plans name a bus).

Which table:
  AWS_ENDPOINT_URL_DYNAMODB set    that endpoint (LocalStack), table TABLE_NAME (default curbside)
  TABLE_NAME or --table set        that table in AWS (the stack's TableName output);
                                   region from --region or AWS_REGION, credentials as for the AWS CLI
  neither                          the laptop's database in .data/ (the one npm start uses)

Options:
  --table NAME     the DynamoDB table (instead of TABLE_NAME)
  --region REGION  the AWS region (instead of AWS_REGION)
  --local          the laptop's database in .data/, even with TABLE_NAME set
  -h, --help       this text
`;

const HELP_HINT = 'Usage: npm run admin -- --help';

/** A refusal the operator can act on: its message is printed, the exit code is 1. */
class AdminError extends Error {}

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** The checkout whose `.data/` is the laptop's database (default: this repository). */
  root?: string;
}

interface Target {
  db: Db;
  /** Where the command writes, for the operator: `table curbside at http://localhost:4566`. */
  where: string;
  close(): Promise<void>;
}

const options = {
  username: { type: 'string' },
  name: { type: 'string' },
  district: { type: 'string' },
  force: { type: 'boolean' },
  table: { type: 'string' },
  region: { type: 'string' },
  local: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
type Flags = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

const firstMessage = (error: { issues: ReadonlyArray<{ message: string }> }) =>
  error.issues[0]?.message ?? 'Invalid input';

/** Does a DynamoDB answer at this endpoint under this key? (a stale `.data/dynamodb-endpoint` does not) */
const answers = async (endpoint: string, accessKeyId: string) => {
  const client = localDynamoClient(endpoint, accessKeyId);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
};

/** The laptop's database: the running `npm start`'s DynamoDB Local, or one of our own for the command. */
const laptopTarget = async (table: string, root: string, region: string | undefined): Promise<Target> => {
  const dataDir = join(root, '.data');
  mkdirSync(dataDir, { recursive: true });
  const running = announcedEndpoint(dataDir);
  const accessKeyId = accessKeyIdOf(dataDir);
  let dynamo: DynamoLocal | undefined;
  let endpoint: string;
  if (running && (await answers(running, accessKeyId))) {
    endpoint = running;
  } else {
    dynamo = await startDynamoLocal({ dataDir });
    endpoint = dynamo.endpoint;
  }
  await ensureTable({ endpoint, tableName: table, accessKeyId });
  return {
    db: createDb({ table, endpoint, accessKeyId, region }),
    where: `table ${table} of the laptop's database (.data/${dynamo ? '' : ', served by the running npm start'})`,
    close: async () => {
      await dynamo?.stop();
    },
  };
};

const openTarget = async (flags: Flags, io: AdminIo): Promise<Target> => {
  const env = io.env;
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB || undefined;
  const table = flags.table || env.TABLE_NAME || undefined;
  const region = flags.region || env.AWS_REGION || undefined;
  if (flags.local || (!endpoint && !table)) {
    return laptopTarget(table ?? 'curbside', io.root ?? repositoryRoot, region);
  }
  if (endpoint) {
    const name = table ?? 'curbside';
    return {
      db: createDb({ table: name, endpoint, region }),
      where: `table ${name} at ${endpoint}`,
      close: async () => {},
    };
  }
  if (!region) {
    throw new AdminError(
      `Which AWS region is table ${table} in? Set AWS_REGION or add --region (the region you deployed to).`,
    );
  }
  return {
    db: createDb({ table: table as string, region }),
    where: `table ${table} in AWS ${region}`,
    close: async () => {},
  };
};

const createSuperAdmin = async (db: Db, flags: Flags, io: AdminIo, where: string) => {
  const parsed = usernameSchema.safeParse(flags.username ?? '');
  if (!flags.username) throw new AdminError('Give the new super admin a username: --username NAME');
  if (!parsed.success) throw new AdminError(firstMessage(parsed.error));
  const username = parsed.data;
  const name = flags.name?.trim() || username;

  const existing = await users.listSuperAdmins(db);
  if (existing.length > 0 && !flags.force) {
    const names = existing.map((user) => user.username).join(', ');
    throw new AdminError(
      `There is already a super admin (${names}). To add another, run the command again with --force.`,
    );
  }

  const password = oneTimePassword();
  try {
    await users.create(db, {
      name,
      username,
      email: null,
      phone: null,
      role: 'super_admin',
      active: true,
      schoolId: null,
      districtId: null,
      mustChangePassword: true,
      passwordHash: await hashPassword(password),
    });
  } catch (error) {
    if (error instanceof ConflictError) throw new AdminError(`Username ${username} is already taken.`);
    throw error;
  }
  io.stderr(`Created super admin ${username} in ${where}.`);
  io.stdout(
    `Sign in as ${username} with this one-time password; you will be asked to set your own: ${password}`,
  );
};

const createDistrict = async (db: Db, flags: Flags, io: AdminIo, where: string) => {
  const parsed = districtInputSchema.safeParse({ name: flags.name ?? '' });
  if (!parsed.success) throw new AdminError(`${firstMessage(parsed.error)}: --name "District name"`);
  const district = await districts.create(db, parsed.data);
  io.stderr(`Created district "${district.name}" (id ${district.id}) in ${where}.`);
  io.stdout(String(district.id));
};

const createSchool = async (db: Db, flags: Flags, io: AdminIo, where: string) => {
  const parsed = schoolInputSchema.safeParse({
    name: flags.name ?? '',
    districtId: flags.district === undefined || flags.district.trim() === '' ? undefined : flags.district,
  });
  if (!parsed.success) {
    const districtIssue = parsed.error.issues.some((issue) => issue.path[0] === 'districtId');
    throw new AdminError(
      `${firstMessage(parsed.error)}: ${districtIssue ? '--district ID' : '--name "School name"'}`,
    );
  }
  const district = await districts.get(db, parsed.data.districtId);
  if (!district) {
    throw new AdminError(
      `District ${parsed.data.districtId} does not exist in ${where}. Create it first: create-district --name "…"`,
    );
  }
  const school = await schools.create(db, { ...parsed.data, timeZone: newSchoolTimeZone(district) });
  io.stderr(`Created school "${school.name}" (id ${school.id}) in district "${district.name}", ${where}.`);
  io.stdout(String(school.id));
};

/** Parent accounts written before the email index get their entry ("Forgot password?", issue 50). */
const indexParentEmails = async (db: Db, _flags: Flags, io: AdminIo, where: string) => {
  const indexed = await users.indexParentEmails(db);
  io.stderr(`Indexed the email address of ${indexed} parent account${indexed === 1 ? '' : 's'} in ${where}.`);
  io.stdout(String(indexed));
};

/** Single dismissal changes written before the one index by last day get their place in it (issue 54). */
const indexDismissalChanges = async (db: Db, _flags: Flags, io: AdminIo, where: string) => {
  const moved = await dismissalChanges.moveToLastDayIndex(db);
  io.stderr(`Moved ${moved} dismissal change${moved === 1 ? '' : 's'} to the index by last day in ${where}.`);
  io.stdout(String(moved));
};

/** Weekly plans written before the buses' riders items get their student listed on them (issue 54). */
const indexBusRiders = async (db: Db, _flags: Flags, io: AdminIo, where: string) => {
  const filled = await dismissalPlans.fillBusRiders(db);
  io.stderr(`Listed the riders of ${filled} weekly plan${filled === 1 ? '' : 's'} naming a bus in ${where}.`);
  io.stdout(String(filled));
};

const COMMANDS = {
  'create-super-admin': createSuperAdmin,
  'create-district': createDistrict,
  'create-school': createSchool,
  'index-parent-emails': indexParentEmails,
  'index-dismissal-changes': indexDismissalChanges,
  'index-bus-riders': indexBusRiders,
} as const;

/** Runs one admin command; answers the exit code (0 done, 1 refused or failed). */
export const runAdmin = async (argv: readonly string[], io: AdminIo): Promise<number> => {
  let flags: Flags;
  let positionals: string[];
  try {
    ({ values: flags, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true }));
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${HELP_HINT}`);
    return 1;
  }
  if (flags.help) {
    io.stdout(USAGE);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (command === undefined) {
    io.stderr(USAGE);
    return 1;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    io.stderr(`Unknown command ${command}.\n${HELP_HINT}`);
    return 1;
  }
  if (extra.length > 0) {
    io.stderr(`Unexpected argument ${extra[0]} (quote a name with spaces).\n${HELP_HINT}`);
    return 1;
  }
  const run = COMMANDS[command as keyof typeof COMMANDS];

  let target: Target | undefined;
  try {
    target = await openTarget(flags, io);
    await run(target.db, flags, io, target.where);
    return 0;
  } catch (error) {
    io.stderr(explain(error, target?.where));
    return 1;
  } finally {
    target?.db.doc.destroy();
    await target?.close();
  }
};

/** The operator's message for a failure: ours as is, the SDK's with what to check. */
const explain = (error: unknown, where: string | undefined): string => {
  if (error instanceof AdminError) return error.message;
  const { name, message } = error as Error;
  if (name === 'ResourceNotFoundException') {
    return `No such table: ${where ?? 'the table'}. Use the stack's TableName output (TABLE_NAME or --table).`;
  }
  if (name === 'CredentialsProviderError' || name === 'UnrecognizedClientException') {
    return `AWS refused the credentials (${message}). Sign in as for the AWS CLI (aws configure, AWS_PROFILE).`;
  }
  return `${where ? `Could not write to ${where}` : 'Could not reach the table'}: ${name}: ${message}`;
};

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) {
  process.exitCode = await runAdmin(process.argv.slice(2), {
    env: process.env,
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
}
