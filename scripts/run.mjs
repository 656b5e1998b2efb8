#!/usr/bin/env node
/**
 * What `npm start`, `npm test`, `npm run bench`, `npm run lighthouse` and `npm run admin` do on a
 * fresh clone: install with pnpm (bootstrapped through npx: corepack is not
 * relied on), build what the command needs, then run it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node 22 is the baseline (Lambda runs nodejs22.x; AWS SDK releases after early
 * January 2027 need it). On an older Node, the npm registry's `node` package
 * brings Node 22 into `.tools/` once, and this script runs again under it, with
 * it first on the PATH for everything it starts (pnpm, vite, vitest, tsx).
 */
const NODE_MAJOR = 22;
if (Number(process.versions.node.split('.')[0]) < NODE_MAJOR) {
  const prefix = join(root, '.tools', `node${NODE_MAJOR}`);
  const nodeBin = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(nodeBin)) {
    console.log(
      `\n▶ Node ${process.versions.node} is older than ${NODE_MAJOR}: installing Node ${NODE_MAJOR} into .tools/ (npm registry)`,
    );
    mkdirSync(prefix, { recursive: true });
    const installed = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node@${NODE_MAJOR}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (installed.status !== 0 || !existsSync(nodeBin)) {
      console.error(
        `✖ Could not install Node ${NODE_MAJOR}; install Node.js ${NODE_MAJOR} or newer and run this again.`,
      );
      process.exit(1);
    }
  }
  // Ctrl-C reaches both processes: this one waits for the other to stop (DynamoDB Local included).
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  const again = spawnSync(nodeBin, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(nodeBin)}:${process.env.PATH ?? ''}` },
  });
  process.exit(again.status ?? 1);
}
const bin = (name, dir = root) => join(dir, 'node_modules', '.bin', name);
const [command = 'test', ...rest] = process.argv.slice(2);

/**
 * Node's AsyncContextFrame (the default from Node 24): `AsyncLocalStorage`
 * without promise hooks. The laptop runtime keeps each invocation's IAM grant
 * in one (`packages/store/src/access.ts`), and with the hooks every promise of
 * every request paid for it: the server's CPU in the benchmark fell from 0.26
 * to 0.22 cores with the frame, for the same work. Added where this Node knows it.
 */
const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';
const withAsyncContextFrame = (options = '') =>
  process.allowedNodeEnvironmentFlags.has(ASYNC_CONTEXT_FRAME) && !options.includes(ASYNC_CONTEXT_FRAME)
    ? `${options} ${ASYNC_CONTEXT_FRAME}`.trim()
    : options;

const step = (title, cmd, args, options = {}) => {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) {
    console.error(`✖ ${title}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
};

const requireJava = () => {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error || java.status !== 0) {
    console.error(
      '✖ Java 17 or newer is needed to run DynamoDB Local (Debian: apt-get install -y default-jre-headless).',
    );
    process.exit(1);
  }
};

const install = () =>
  step('Installing dependencies (pnpm)', 'npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile'], {
    env: { ...process.env, npm_config_yes: 'true' },
  });

/** A child process's end: its exit status (1 when it could not start or was killed), and why. */
const ended = (child) =>
  new Promise((resolve) => {
    child.once('error', (error) => resolve({ status: 1, error }));
    child.once('close', (status, signal) => resolve({ status: status ?? 1, signal }));
  });

/** Runs a command; answers its end (`ended`). */
const run = (cmd, args, options = {}) => ended(spawn(cmd, args, { cwd: root, ...options }));

/**
 * A step run beside others: its output (standard output and error, interleaved) is kept and
 * shown by `report` once it is done, so that steps at once do not mix their lines.
 * `lowPriority`: it runs at the lowest CPU priority (nice 19), on what the others leave idle.
 */
const background = async (title, cmd, args, { lowPriority = false, ...options } = {}) => {
  const started = Date.now();
  let output = '';
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (lowPriority && child.pid !== undefined) {
    try {
      setPriority(child.pid, 19);
    } catch {
      // Not allowed here: it runs at the usual priority.
    }
  }
  const keep = (chunk) => {
    output += chunk;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const { status, error, signal } = await ended(child);
  return { title, status, error, signal, output, seconds: (Date.now() - started) / 1000 };
};

/** Shows a background step's title, time and output, and how it failed. */
const report = ({ title, status, error, signal, output, seconds }) => {
  console.log(`\n▶ ${title} (${seconds.toFixed(1)} s)`);
  if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (error) console.error(`✖ ${title}: ${error.message}`);
  else if (status !== 0) console.error(`✖ ${title} failed (exit ${signal ?? status})`);
};

const buildWeb = () =>
  background('Building the web app', bin('vite', join(root, 'web')), ['build', '--logLevel', 'warn'], {
    cwd: join(root, 'web'),
    env: { ...process.env, NODE_ENV: 'production' },
  });

const buildFunctions = () =>
  background('Bundling the Lambda handlers', bin('tsx'), ['build.ts'], { cwd: join(root, 'functions') });

/** Prints the ten slowest test files, then the closing line CI reads: `tests: N passed, N failed, N skipped`. */
const summarize = (file, ...more) => {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const other of more.filter((name) => existsSync(name))) {
    const next = JSON.parse(readFileSync(other, 'utf8'));
    for (const key of ['numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests'])
      report[key] = (report[key] ?? 0) + (next[key] ?? 0);
    report.testResults.push(...next.testResults);
  }
  const slowest = report.testResults
    .map((result) => ({ file: result.name.replace(`${root}/`, ''), ms: result.endTime - result.startTime }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  console.log('\nSlowest test files:');
  for (const { file, ms } of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(
    `\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`,
  );
};

/** Installs, checks for Java and builds the web app, as `npm start` runs it; stops on a failure. */
const readyToServe = async () => {
  install();
  requireJava();
  const built = await buildWeb();
  report(built);
  if (built.status !== 0) process.exit(1);
};

switch (command) {
  case 'start': {
    await readyToServe();
    step('Starting Curbside', bin('tsx'), ['packages/local/src/main.ts', ...rest], {
      env: { ...process.env, NODE_OPTIONS: withAsyncContextFrame(process.env.NODE_OPTIONS) },
    });
    break;
  }
  case 'test': {
    install();
    requireJava();
    // `npm test -- --project unit` (or integration, browser) is a quick focused run: no lint or
    // type check, the Lambda bundles built only for the projects whose tests read them (the
    // bundles' own tests and the CDK stack's are integration tests), the web app only for the
    // browser project.
    const projects = rest.flatMap((arg, i) =>
      arg === '--project' ? [rest[i + 1]] : arg.startsWith('--project=') ? [arg.slice(10)] : [],
    );
    const whole = projects.length === 0;
    // The two builds at once (each mostly one core), then the tests, with the lint and type
    // checks beside them at the lowest priority: the tests leave part of the second core idle
    // (waiting on browsers and DynamoDB Local), and the checks fill it without slowing the
    // tests' own start (DynamoDB Local, the demo seed), which they shared the cores with. The
    // checks' output is kept and shown after the tests, before the closing line; any failure
    // fails the run.
    const builds = [];
    if (whole || projects.some((name) => name !== 'unit')) builds.push(buildFunctions());
    if (whole || projects.includes('browser')) builds.push(buildWeb());
    const built = await Promise.all(builds);
    for (const step of built) report(step);
    if (built.some((step) => step.status !== 0)) process.exit(1);
    const checks = whole
      ? [
          background('Lint and format (biome)', bin('biome'), ['ci', '.'], { lowPriority: true }),
          background('Type check', bin('tsc'), ['-p', 'tsconfig.json'], { lowPriority: true }),
          background('Type check (web)', bin('tsc'), ['-p', 'web/tsconfig.json'], { lowPriority: true }),
        ]
      : [];
    if (whole) console.log('\n▶ Lint and type checks (beside the tests; their output follows them)');
    const results = join(root, '.test-results');
    mkdirSync(results, { recursive: true });
    const reportFile = join(results, 'vitest.json');
    // The API and WebSocket flows' log output (issue 55), read by the privacy check after them.
    const logs = join(results, 'logs');
    rmSync(logs, { recursive: true, force: true });
    const logsReport = join(results, 'vitest-logs.json');
    rmSync(logsReport, { force: true });
    console.log('\n▶ Running every test (vitest)');
    const tests = await run(
      bin('vitest'),
      ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...rest],
      { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1', CURBSIDE_LOG_CAPTURE: logs } },
    );
    let logCheck = { status: 0 };
    if (existsSync(logs) && readdirSync(logs).length > 0) {
      console.log(
        '\n▶ No personal data in the log output of the API and WebSocket flows (vitest, project logs)',
      );
      logCheck = await run(
        bin('vitest'),
        [
          'run',
          '--project',
          'logs',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${logsReport}`,
        ],
        {
          stdio: 'inherit',
          env: { ...process.env, NODE_NO_WARNINGS: '1', CURBSIDE_LOG_CHECK: '1', CURBSIDE_LOG_CAPTURE: logs },
        },
      );
    }
    const checked = await Promise.all(checks);
    for (const check of checked) report(check);
    summarize(reportFile, logsReport);
    process.exit(
      tests.status === 0 && logCheck.status === 0 && checked.every((check) => check.status === 0) ? 0 : 1,
    );
    break;
  }
  case 'bench': {
    install();
    requireJava();
    step('Dismissal-rush benchmark', bin('tsx'), ['test/bench/run.ts', ...rest]);
    break;
  }
  case 'lighthouse': {
    // Issue 57's phone budget (test/lighthouse/run.ts): the web app as `npm start` builds it.
    await readyToServe();
    step('Lighthouse, mobile profile', bin('tsx'), ['test/lighthouse/run.ts', ...rest]);
    break;
  }
  case 'admin': {
    // Its standard output is the answer (an id, a one-time password): installing, when a fresh
    // clone needs it, talks on standard error only.
    if (!existsSync(bin('tsx'))) {
      console.error('▶ Installing dependencies (pnpm)');
      const installed = spawnSync('npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile'], {
        cwd: root,
        stdio: ['inherit', 2, 2],
        env: { ...process.env, npm_config_yes: 'true' },
      });
      if (installed.status !== 0) {
        console.error('✖ Installing dependencies failed');
        process.exit(1);
      }
    }
    const run = spawnSync(bin('tsx'), ['packages/local/src/admin.ts', ...rest], {
      cwd: root,
      stdio: 'inherit',
      env: { NODE_NO_WARNINGS: '1', ...process.env },
    });
    process.exit(run.status ?? 1);
    break;
  }
  default:
    console.error(`Unknown command ${command}: use start, test, bench, lighthouse or admin.`);
    process.exit(2);
}
