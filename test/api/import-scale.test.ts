import { CSV_TEMPLATES } from '@curbside/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, importCsv } from '../support/csv-import';
import type { Client } from '../support/server';
import { signedIn, startTestServer } from '../support/server';

/**
 * A large school's roster on the laptop runtime: 2,000 students with their
 * parents (one account per family) and cars (800 families), then the
 * parents file (2,000 rows: each family's two parents) and the vehicles
 * file (800 cars), each one request. API Gateway times a request out at
 * 30 s; each file must finish well inside that. The times are printed.
 */
const STUDENTS = 2000;
const FAMILIES = 800;

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
});
afterAll(async () => {
  await server?.close();
});

const family = (i: number) => i % FAMILIES;
const studentsFile = () =>
  csv([
    [...CSV_TEMPLATES.students],
    ...Array.from({ length: STUDENTS }, (_, i) => [
      `Student${i}`,
      `Family${family(i)}`,
      String((i % 6) + 1),
      `Parent Family${family(i)}`,
      `(555) ${String(100 + (family(i) % 900)).padStart(3, '0')}-${String(1000 + family(i)).slice(-4)}`,
      `parent${family(i)}@family.example`,
      String(2000 + family(i)),
      '',
      '',
    ]),
  ]);
const parentsFile = () =>
  csv([
    [...CSV_TEMPLATES.parents],
    ...Array.from({ length: STUDENTS }, (_, i) => {
      const f = i % FAMILIES;
      const children = Array.from(
        { length: Math.ceil((STUDENTS - f) / FAMILIES) },
        (_, k) => f + k * FAMILIES,
      )
        .map((s) => `Student${s} Family${f}`)
        .join('; ');
      // Each family's first parent is the one the students file made; the others are new.
      return i < FAMILIES
        ? ['Parent', `Family${f}`, `parent${f}@family.example`, '', `${f} Main St`, '', '', children]
        : [`Second${i}`, `Family${f}`, `second${i}@family.example`, '', '', '', '', children];
    }),
  ]);
const vehiclesFile = () =>
  csv([
    [...CSV_TEMPLATES.vehicles],
    ...Array.from({ length: FAMILIES }, (_, f) => [
      String(2000 + f),
      'car',
      'Toyota',
      'Sienna',
      'Silver',
      `PLT-${f}`,
      `Parent Family${f}`,
      '',
      '',
    ]),
  ]);

const timed = async (label: string, run: () => Promise<{ status: number; body: any }>) => {
  const started = performance.now();
  const answer = await run();
  const seconds = (performance.now() - started) / 1000;
  console.info(
    `[import-scale] ${label}: ${seconds.toFixed(2)} s → ${JSON.stringify(answer.body).slice(0, 200)}`,
  );
  expect(answer.status).toBe(200);
  return { seconds, body: answer.body };
};

describe('a 2,000-student school', () => {
  it('imports students with their parents and cars, then parents and vehicles, each well under 30 s', async () => {
    const students = await timed('students (2,000 rows, 800 cars, 800 parents)', () =>
      importCsv(admin, 'students', studentsFile()),
    );
    expect(students.body).toMatchObject({
      created: STUDENTS,
      also: { vehiclesCreated: FAMILIES, parentsCreated: FAMILIES },
    });
    const parents = await timed('parents (2,000 rows, 1,200 new accounts)', () =>
      importCsv(admin, 'parents', parentsFile()),
    );
    expect(parents.body).toMatchObject({ created: STUDENTS - FAMILIES, updated: FAMILIES });
    const vehicles = await timed('vehicles (800 rows)', () => importCsv(admin, 'vehicles', vehiclesFile()));
    expect(vehicles.body).toMatchObject({ updated: FAMILIES });
    const again = await timed('students again (2,000 unchanged)', () =>
      importCsv(admin, 'students', studentsFile()),
    );
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: STUDENTS });
    // API Gateway gives a request 30 s; a loaded 2-core CI machine still has room.
    for (const { seconds } of [students, parents, vehicles, again]) expect(seconds).toBeLessThan(25);
  }, 240_000);
});
