/**
 * `npm run bench [-- --scale 0.1|1|5] [--duration SECONDS] [--no-budget] [--log]`:
 * the dismissal-rush benchmark. Prints the report, writes it as JSON under
 * `.bench/`, and exits 1 when a budget of DESIGN.md is missed (unless
 * `--no-budget`). `--schools N`: N schools' rushes at once (`schools.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureBundles } from '@curbside/functions/build/bundle-imports';
import { runBenchmark } from './bench';
import { checkBudgets } from './budgets';
import { formatReport } from './report';
import { runSchools } from './schools';
import { checkSchools, formatSchools } from './schools-report';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    duration: { type: 'string' },
    'no-budget': { type: 'boolean', default: false },
    'refetch-all': { type: 'boolean', default: false },
    log: { type: 'boolean', default: false },
    out: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    workers: { type: 'string' },
    schools: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    [
      'npm run bench -- [options]',
      '  --scale N        load multiplier: 1 (default) = 2,000 students, 800 cars, 40 staff screens,',
      '                   100 anonymous screens; 0.1 a quick smoke run; 5 a district-size rush',
      '  --duration SEC   arrival window (default 180 s × scale, 15 to 300 s)',
      '  --refetch-all    staff screens read every list again on every event (the client before live',
      '                   patching) for the whole rush; by default they patch, as the web client does, and a',
      '                   baseline rush of this kind (1/8 of the cars over 1/8 of the window) follows',
      '  --no-budget      report without failing on a missed budget',
      '  --log            let the server log errors and requests',
      '  --out FILE       where to write the JSON report (default .bench/report-<time>.json)',
      '  --cpu-prof       write a V8 CPU profile of the server process under .bench/profiles',
      '  --workers N      worker threads per function in the server (default 0: every handler on one thread)',
      "  --schools N      N schools' rushes at the same time on one server (10 at --scale 0.1 fits a laptop; each",
      "                   school's arrivals over N times its own window unless --duration): checks that no message",
      "                   crosses schools and prints posts per second per school against the region's 10,000",
      '                   WebSocket posts a second (no warm-up, baseline, probes or floor)',
    ].join('\n'),
  );
  process.exit(0);
}

const scale = Number(values.scale);
const durationSec = values.duration === undefined ? undefined : Number(values.duration);
if (!Number.isFinite(scale) || scale <= 0) {
  console.error(`--scale must be a positive number, not ${values.scale}`);
  process.exit(2);
}
if (durationSec !== undefined && !(durationSec >= 1 && durationSec <= 1800)) {
  console.error(`--duration must be between 1 and 1800 seconds, not ${values.duration}`);
  process.exit(2);
}

const workers = values.workers === undefined ? undefined : Number(values.workers);
if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0 && workers <= 64)) {
  console.error(`--workers must be a whole number from 0 to 64, not ${values.workers}`);
  process.exit(2);
}

const schools = values.schools === undefined ? undefined : Number(values.schools);
if (schools !== undefined && !(Number.isInteger(schools) && schools >= 1 && schools <= 50)) {
  console.error(`--schools must be a whole number from 1 to 50, not ${values.schools}`);
  process.exit(2);
}

process.env.AWS_REGION ??= 'us-east-1';
const outFile = (startedAt: string, kind: string) =>
  values.out ?? join(root, '.bench', `${kind}-${startedAt.replace(/[:.]/g, '-').replace(/Z$/, '')}.json`);

/** Writes a run's JSON report (`kind`: report or schools) and says where. */
const writeReport = (startedAt: string, kind: string, content: object) => {
  const file = outFile(startedAt, kind);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  console.log(`\nReport: ${relative(process.cwd(), file) || file}`);
};

if (schools !== undefined) {
  const report = await runSchools({
    scale,
    schools,
    ...(durationSec !== undefined ? { durationSec } : {}),
    ...(workers !== undefined ? { workers } : {}),
    logLevel: values.log ? 'error' : 'silent',
    log: (line) => console.error(line),
  });
  const checks = checkSchools(report);
  console.log(formatSchools(report, checks));
  writeReport(report.startedAt, 'schools', { ...report, checks });
  const failed = checks.filter((check) => !check.pass).length;
  if (failed > 0 && !values['no-budget']) {
    console.error(`\n✖ ${failed} check${failed === 1 ? '' : 's'} failed.`);
    process.exit(1);
  }
  process.exit(0);
}
const report = await runBenchmark({
  scale,
  screens: values['refetch-all'] ? 'refetch-all' : 'patch',
  ...(durationSec !== undefined ? { durationSec } : {}),
  ...(workers !== undefined ? { workers } : {}),
  logLevel: values.log ? 'error' : 'silent',
  ...(values['cpu-prof'] ? { cpuProfileDir: join(root, '.bench', 'profiles') } : {}),
  log: (line) => console.error(line),
});
// Cold starts, measured once the server has stopped (ADR 0019), on bundles built from this tree.
execFileSync('npx', ['tsx', 'build.ts'], { cwd: join(root, 'functions'), stdio: 'ignore' });
report.bundles = await measureBundles(5);
const budgets = checkBudgets(report);
console.log(formatReport(report, budgets));

writeReport(report.startedAt, 'report', { ...report, budgets });

const missed = budgets.filter((check) => !check.pass);
if (missed.length > 0 && !values['no-budget']) {
  console.error(`\n✖ ${missed.length} budget${missed.length === 1 ? '' : 's'} missed.`);
  process.exit(1);
}
process.exit(0);
