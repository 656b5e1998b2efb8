/**
 * `npx tsx test/bench/sis-import.ts [schools] [studentsPerSchool]`: a whole
 * district's roster import on the laptop runtime, against the fake Clever
 * (default 10 schools × 2,000 students = 20,000). Imports the district, each
 * school, then each school's students (one job per school, all at once, as a
 * district admin would start them), and reports the time, the longest HTTP
 * request, and the DynamoDB units AWS would bill (the runtime's meter).
 */
import { ensureTable, startDynamoLocal, startFakeClever } from '@curbside/local';
import { seedIfEmpty } from '@curbside/local/seed';
import { createDb, meter } from '@curbside/store';
import { Client } from '../support/server';

const schools = Number(process.argv[2] ?? 10);
const perSchool = Number(process.argv[3] ?? 2000);
process.env.CURBSIDE_METER = '1';
process.env.LOG_LEVEL ??= 'warn';

const dynamo = await startDynamoLocal({ inMemory: true });
const tableName = 'curbside-sis-bench';
await ensureTable({ endpoint: dynamo.endpoint, tableName });
await seedIfEmpty(createDb({ table: tableName, endpoint: dynamo.endpoint }));
const clever = await startFakeClever({ district: { schools, studentsPerSchool: perSchool, seed: 3 } });
Object.assign(process.env, {
  CLEVER_API_URL: clever.url,
  CLEVER_DISTRICT_TOKENS: JSON.stringify({ [clever.districtId]: clever.districtToken }),
});
const { startServer } = await import('@curbside/local');
const server = await startServer({ port: 0, tableName, dynamoEndpoint: dynamo.endpoint });

let longest = { ms: 0, what: '' };
const client = new Client(server.url);
const timed = async <T>(what: string, work: () => Promise<T>) => {
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  if (ms > longest.ms) longest = { ms, what };
  return result;
};
const follow = async (id: string) => {
  for (;;) {
    const job = (await timed('GET /api/import-jobs/{id}', () => client.get(`/api/import-jobs/${id}`))).body;
    if (job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

try {
  await client.login('district_demo');
  meter.reset();
  const started = performance.now();
  const district = await timed('POST /api/clever/import/district', () =>
    client.post('/api/clever/import/district', { cleverDistrictId: clever.districtId }),
  );
  await follow(district.body.job.id);
  const local: number[] = [];
  for (const school of clever.data.schools) {
    const answer = await timed('POST /api/clever/import/school', () =>
      client.post('/api/clever/import/school', { cleverSchoolId: school.id, localDistrictId: 1 }),
    );
    local.push((await follow(answer.body.job.id)).schoolId);
  }
  const rosterStart = performance.now();
  const jobs = await Promise.all(
    clever.data.schools.map((school, i) =>
      timed('POST /api/clever/import/students', () =>
        client.post('/api/clever/import/students', {
          cleverSchoolId: school.id,
          localSchoolId: local[i],
          createMissingClassrooms: true,
        }),
      ),
    ),
  );
  const done = await Promise.all(jobs.map((answer) => follow(answer.body.job.id)));
  const seconds = (performance.now() - started) / 1000;
  const totals = { read: 0, write: 0 };
  for (const counters of Object.values(meter.snapshot())) {
    totals.read += counters['ddb.readUnits'] ?? 0;
    totals.write += counters['ddb.writeUnits'] ?? 0;
  }
  // The same import again: nothing changed in Clever, so only the jobs' own records are written.
  meter.reset();
  const againStart = performance.now();
  const again = await Promise.all(
    clever.data.schools.map((school, i) =>
      client.post('/api/clever/import/students', {
        cleverSchoolId: school.id,
        localSchoolId: local[i],
        createMissingClassrooms: true,
      }),
    ),
  );
  const repeated = await Promise.all(again.map((answer) => follow(answer.body.job.id)));
  let againWrites = 0;
  for (const counters of Object.values(meter.snapshot())) againWrites += counters['ddb.writeUnits'] ?? 0;
  const sum = (kind: 'students' | 'teachers' | 'classrooms' | 'parents') =>
    done.reduce((n, job) => n + job.counts[kind].created, 0);
  console.log(
    JSON.stringify(
      {
        schools,
        students: sum('students'),
        teachers: sum('teachers'),
        classrooms: sum('classrooms'),
        parents: sum('parents'),
        failed: done.filter((job) => job.status !== 'succeeded').map((job) => job.error),
        totalSeconds: Math.round(seconds),
        rosterSeconds: Math.round((performance.now() - rosterStart) / 1000),
        longestRequestMs: Math.round(longest.ms),
        longestRequest: longest.what,
        writeUnits: Math.round(totals.write),
        readUnits: Math.round(totals.read),
        writeUnitsPerStudent: +(totals.write / sum('students')).toFixed(2),
        cleverRequests: clever.requestLog.length,
        repeatSeconds: Math.round((performance.now() - againStart) / 1000),
        repeatWriteUnits: Math.round(againWrites),
        repeatChanged: repeated.reduce(
          (n, job) =>
            n + job.counts.students.created + job.counts.students.updated + job.counts.parents.updated,
          0,
        ),
      },
      null,
      2,
    ),
  );
} finally {
  await server.close();
  await clever.close();
  await dynamo.stop();
}
