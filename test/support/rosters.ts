import { afterAll, beforeAll } from 'vitest';
import { createSchoolWithStaff } from './fixtures';
import { type Client, signedIn, startTestServer } from './server';

/**
 * The shared setup of the roster API tests: the laptop runtime on the file's tables, the demo
 * school's admin, teacher and front desk signed in, and a second school (Maple) with its own
 * admin. The bindings are live: a test file calls `rostersServer()` once at its top, and reads
 * them in its tests.
 */
export let server: Awaited<ReturnType<typeof startTestServer>>;
export let admin: Client;
export let teacher: Client;
export let front: Client;
export let maple: Client;
export let mapleId: number;

export const rostersServer = () => {
  beforeAll(async () => {
    server = await startTestServer();
    admin = await signedIn(server.url, 'admin_demo');
    teacher = await signedIn(server.url, 'teacher_demo');
    front = await signedIn(server.url, 'front_demo');
    mapleId = (await createSchoolWithStaff(server.db, 'maple')).id;
    maple = await signedIn(server.url, 'maple_school_admin');
  });
  afterAll(async () => {
    await server?.close();
  });
};

export const del = (client: Client, path: string) => client.request('DELETE', path);
export const allOf = async (client: Client, path: string) => {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: any = (await client.get(`${path}${sep}limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
    items.push(...page.items);
    cursor = page.next;
  } while (cursor);
  return items;
};
