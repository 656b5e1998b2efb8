import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localDynamoClient } from '@curbside/local';
import { runAdmin } from '@curbside/local/admin';
import { createDb, type Db, districts, LOCAL_KEY_ID_VARIABLE, schools, users } from '@curbside/store';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, startTestServer } from '../support/server';

/**
 * `npm run admin`: the first super admin, district and school of a new
 * deployment, run as an operator runs it (a child process on the table the
 * environment names) against this file's DynamoDB Local.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
const PASSWORD_LINE =
  /^Sign in as (\S+) with this one-time password; you will be asked to set your own: ([A-Za-z0-9]{12})$/m;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The table's environment: DynamoDB Local under the run's key, never AWS. */
const envFor = (table: string): NodeJS.ProcessEnv => ({
  ...process.env,
  TABLE_NAME: table,
  AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  [LOCAL_KEY_ID_VARIABLE]: process.env[LOCAL_KEY_ID_VARIABLE],
  NODE_NO_WARNINGS: '1',
});

/** `npm run admin -- …` without npm: the script `npm run admin` runs. */
const admin = (table: string, ...args: string[]): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'run.mjs'), 'admin', ...args], {
      cwd: root,
      env: envFor(table),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** The same command in this process (quicker, for the refusals). */
const adminHere = async (table: string, ...args: string[]): Promise<Run> => {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env: envFor(table),
    stdout: (line) => {
      stdout += `${line}\n`;
    },
    stderr: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { code, stdout, stderr };
};

const freshTable = async (): Promise<{ table: string; db: Db }> => {
  const table = `admin-${randomUUID()}`;
  await ensureTable({ endpoint, tableName: table });
  return { table, db: createDb({ table, endpoint }) };
};

const itemCount = async (db: Db) => {
  const client = localDynamoClient(endpoint);
  try {
    const { Count } = await client.send(new ScanCommand({ TableName: db.table, Select: 'COUNT' }));
    return Count ?? 0;
  } finally {
    client.destroy();
  }
};

const stopAfter: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stopAfter) await stop();
});

describe('npm run admin -- create-super-admin', () => {
  it('makes the first super admin on a clean table, who signs in with the password printed once', async () => {
    const table = process.env.TABLE_NAME as string;

    const run = await admin(table, 'create-super-admin', '--username', 'first_admin');

    expect(run.stderr).toContain('Created super admin first_admin');
    expect(run.code).toBe(0);
    const [, username, password] = run.stdout.match(PASSWORD_LINE) ?? [];
    expect(username).toBe('first_admin');
    expect(run.stdout.split(password as string)).toHaveLength(2); // printed once
    const server = await startTestServer({ seed: false });
    stopAfter.push(() => server.close());
    const stored = await users.findCredentials(server.db, 'first_admin');
    expect(stored?.user).toMatchObject({
      role: 'super_admin',
      schoolId: null,
      districtId: null,
      active: true,
      mustChangePassword: true,
    });
    const client = new Client(`http://127.0.0.1:${server.port}`);
    const signedIn = await client.login('first_admin', password);
    expect(signedIn).toMatchObject({
      username: 'first_admin',
      role: 'super_admin',
      mustChangePassword: true,
    });
    expect((await client.get('/api/me')).status).toBe(200);
  });

  it('refuses a second super admin without --force, and makes one with it', async () => {
    const { table, db } = await freshTable();
    expect((await admin(table, 'create-super-admin', '--username', 'one')).code).toBe(0);

    const refused = await admin(table, 'create-super-admin', '--username', 'two');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('There is already a super admin (one)');
    expect(refused.stderr).toContain('--force');
    expect(refused.stdout).toBe('');
    expect(await users.findCredentials(db, 'two')).toBeUndefined();

    const forced = await admin(table, 'create-super-admin', '--username', 'two', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(PASSWORD_LINE);
    expect((await users.listSuperAdmins(db)).map((user) => user.username).sort()).toEqual(['one', 'two']);
  });

  it('refuses a username a staff account already has, whatever its case', async () => {
    const { table, db } = await freshTable();
    await users.create(db, {
      name: 'Terry Teacher',
      username: 'terry',
      email: null,
      phone: null,
      role: 'teacher',
      active: true,
      schoolId: 1,
      districtId: 1,
      passwordHash: '!',
    });

    const run = await adminHere(table, 'create-super-admin', '--username', 'Terry');

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Username Terry is already taken.');
    expect(run.stdout).toBe('');
    expect(await users.listSuperAdmins(db)).toEqual([]);
  });

  it('refuses a missing or malformed username and writes nothing', async () => {
    const { table, db } = await freshTable();

    const missing = await adminHere(table, 'create-super-admin');
    const malformed = await adminHere(table, 'create-super-admin', '--username', 'no spaces please');

    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('--username NAME');
    expect(malformed).toMatchObject({ code: 1, stdout: '' });
    expect(malformed.stderr).toContain('Username can only contain letters, digits and . _ @ -');
    expect(await itemCount(db)).toBe(0);
  });
});

describe('npm run admin -- create-district, create-school', () => {
  it('prints the ids of a new district and of a school in it, both readable from the store', async () => {
    const { table, db } = await freshTable();

    const district = await admin(table, 'create-district', '--name', 'North Valley USD');
    expect(district.code).toBe(0);
    const districtId = Number(district.stdout.trim());
    const school = await admin(
      table,
      'create-school',
      '--district',
      String(districtId),
      '--name',
      'Oak Elementary',
    );
    expect(school.code).toBe(0);
    const schoolId = Number(school.stdout.trim());

    expect(await districts.get(db, districtId)).toMatchObject({
      name: 'North Valley USD',
      active: true,
      sandbox: false,
    });
    expect(await schools.get(db, schoolId)).toMatchObject({
      name: 'Oak Elementary',
      districtId,
      active: true,
      sandbox: false,
    });
    expect((await schools.listByDistrict(db, districtId)).map((s) => s.id)).toEqual([schoolId]);
  });

  it('refuses a missing name or district and an unknown district, with the message, and writes nothing', async () => {
    const { table, db } = await freshTable();

    const noDistrictName = await admin(table, 'create-district');
    const blankDistrictName = await adminHere(table, 'create-district', '--name', '   ');
    const noSchoolName = await adminHere(table, 'create-school', '--district', '1');
    const noDistrict = await adminHere(table, 'create-school', '--name', 'Oak Elementary');
    const unknownDistrict = await admin(
      table,
      'create-school',
      '--district',
      '42',
      '--name',
      'Oak Elementary',
    );

    expect(noDistrictName.code).toBe(1);
    expect(noDistrictName.stderr).toContain('District name is required');
    expect(blankDistrictName.code).toBe(1);
    expect(blankDistrictName.stderr).toContain('District name is required');
    expect(noSchoolName.code).toBe(1);
    expect(noSchoolName.stderr).toContain('School name is required');
    expect(noDistrict.code).toBe(1);
    expect(noDistrict.stderr).toContain('District is required');
    expect(unknownDistrict.code).toBe(1);
    expect(unknownDistrict.stderr).toContain('District 42 does not exist');
    for (const run of [noDistrictName, blankDistrictName, noSchoolName, noDistrict, unknownDistrict]) {
      expect(run.stdout).toBe('');
    }
    expect(await itemCount(db)).toBe(0);
  });
});

describe('npm run admin', () => {
  it('prints its usage with --help, and with no command (exit 1)', async () => {
    const help = await admin('unused', '--help');
    const bare = await adminHere('unused');
    const unknown = await adminHere('unused', 'create-everything');

    expect(help.code).toBe(0);
    expect(help.stdout).toContain('create-super-admin --username NAME');
    expect(help.stdout).toContain('create-school --district ID --name');
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('Usage: npm run admin -- <command>');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown command create-everything');
  });

  it('names the table it could not find, and where it looked', async () => {
    const run = await adminHere('no-such-table', 'create-district', '--name', 'North Valley USD');

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`No such table: table no-such-table at ${endpoint}.`);
    expect(run.stdout).toBe('');
  });

  it('asks which region a deployed table is in rather than guess one', async () => {
    let stderr = '';
    const code = await runAdmin(['create-district', '--name', 'X'], {
      env: { TABLE_NAME: 'Curbside-TableCD117FA1-ABC' },
      stdout: () => {},
      stderr: (line) => {
        stderr += line;
      },
    });

    expect(code).toBe(1);
    expect(stderr).toContain('Which AWS region is table Curbside-TableCD117FA1-ABC in?');
  });
});
