import { randomUUID } from 'node:crypto';
import { cleverLinks, districts, users } from '@curbside/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testDb } from '../../store/test/fixtures/db';
import { ensureTable } from '../src/dynamo';
import { assignDemoClever, DEMO_ACCOUNTS, INCOMPLETE_SEED, seedIfEmpty } from '../src/seed';

const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
const freshDb = async () => {
  const table = `seed-${randomUUID()}`;
  await ensureTable({ endpoint, tableName: table });
  return testDb({ table });
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the demo seed', () => {
  it('seeds an empty table once: every demo account, and nothing twice on a restart', async () => {
    const db = await freshDb();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await seedIfEmpty(db)).toBe(true);
    for (const { username, role } of DEMO_ACCOUNTS) {
      const kind = role === 'parent' ? 'parent' : 'staff';
      expect(await users.findCredentials(db, username, kind)).toBeDefined();
    }
    expect(await seedIfEmpty(db)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  it('says how to start afresh when an earlier start stopped halfway through seeding', async () => {
    const db = await freshDb();
    await districts.create(db, { name: 'Demo Unified School District', active: true, sandbox: false });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await seedIfEmpty(db)).toBe(false);
    expect(warn).toHaveBeenCalledWith(INCOMPLETE_SEED);
  });

  it('leaves a table alone whose first district is not the demo one (npm run admin made it), without a warning', async () => {
    const db = await freshDb();
    await districts.create(db, { name: 'North Valley USD', active: true, sandbox: false });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await seedIfEmpty(db)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
    expect(await users.findCredentials(db, 'super_demo')).toBeUndefined();
  });

  it("assigns the fake Clever district to the demo district, once, and never over a super admin's choice", async () => {
    const db = await freshDb();
    expect(await assignDemoClever(db, 'clever-demo')).toBe(false);
    await seedIfEmpty(db);
    expect(await assignDemoClever(db, 'clever-demo')).toBe(true);
    expect((await districts.get(db, 1))?.cleverId).toBe('clever-demo');
    expect(await cleverLinks.districtOf(db, 'clever-demo')).toBe(1);
    expect(await assignDemoClever(db, 'clever-other')).toBe(false);
    expect((await districts.get(db, 1))?.cleverId).toBe('clever-demo');
  });
});
