import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, districts, schools } from '@curbside/store';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin';
import { accessKeyIdOf, announceEndpoint, type DynamoLocal, startDynamoLocal } from '../src/dynamo';

/**
 * `npm run admin` with neither TABLE_NAME nor AWS_ENDPOINT_URL_DYNAMODB set:
 * the laptop's own database under `.data/` (here a checkout in a temporary
 * folder). Its own file: starting DynamoDB Local on `.data/` points this
 * process at that database's key.
 */
const checkout = mkdtempSync(join(tmpdir(), 'curbside-admin-'));
const dataDir = join(checkout, '.data');
let running: DynamoLocal | undefined;

afterAll(async () => {
  await running?.stop();
  rmSync(checkout, { recursive: true, force: true });
});

const adminOnLaptop = async (...args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env: { AWS_REGION: 'us-east-1' },
    root: checkout,
    stdout: (line) => {
      stdout += line;
    },
    stderr: (line) => {
      stderr += line;
    },
  });
  return { code, stdout, stderr };
};

describe('npm run admin on a laptop', () => {
  it("writes to .data's database whether npm start is running or not, and npm start serves it", async () => {
    // Not running: the command starts DynamoDB Local on .data for itself, and stops it.
    const district = await adminOnLaptop('create-district', '--name', 'North Valley USD');
    expect(district).toMatchObject({ code: 0, stdout: '1' });
    expect(district.stderr).toContain("table curbside of the laptop's database (.data/)");

    // Running (as npm start runs it, announcing its endpoint): the command uses that one.
    running = await startDynamoLocal({ dataDir });
    const unannounce = announceEndpoint(dataDir, running.endpoint);
    const school = await adminOnLaptop('create-school', '--district', '1', '--name', 'Oak Elementary');
    expect(school).toMatchObject({ code: 0, stdout: '1' });
    expect(school.stderr).toContain('served by the running npm start');

    const db = createDb({
      table: 'curbside',
      endpoint: running.endpoint,
      accessKeyId: accessKeyIdOf(dataDir),
    });
    expect(await districts.get(db, 1)).toMatchObject({ name: 'North Valley USD' });
    expect(await schools.get(db, 1)).toMatchObject({ name: 'Oak Elementary', districtId: 1 });
    unannounce();
    expect(existsSync(join(dataDir, 'dynamodb-endpoint'))).toBe(false);
  }, 120_000);
});
