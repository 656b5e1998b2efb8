/**
 * The CDK app: `npx cdk synth` at the repo root (cdk.json) or, offline,
 * `npx tsx infra/bin/app.ts`, which synthesizes into `cdk.out` at the repo root.
 * cdk-nag's AwsSolutions pack checks every resource; findings fail the synth.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ensureFunctionBundles } from '../lib/bundles';
import { CurbsideStack } from '../lib/curbside-stack';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// The CDK CLI passes cdk.json's context and its own outdir; a direct run reads them here.
const fromCli = process.env.CDK_OUTDIR !== undefined;
const cdkJson = JSON.parse(readFileSync(`${repoRoot}cdk.json`, 'utf8')) as {
  context?: Record<string, unknown>;
};

ensureFunctionBundles();

const app = new App(fromCli ? {} : { outdir: `${repoRoot}cdk.out`, context: cdkJson.context ?? {} });
new CurbsideStack(app, 'Curbside', {
  description: 'Curbside: school car line (web app, HTTP and WebSocket APIs, DynamoDB)',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
const assembly = app.synth();

// The CLI prints annotations; a direct run prints them here and fails on errors.
if (!fromCli) {
  const messages = assembly.stacks.flatMap((stack) => stack.messages);
  for (const message of messages) {
    if (message.level === 'info') continue;
    console.error(`[${message.level}] ${message.id}: ${String(message.entry.data)}`);
  }
  const errors = messages.filter((message) => message.level === 'error').length;
  console.error(`Synthesized to ${assembly.directory}: ${errors} error(s)`);
  if (errors > 0) process.exitCode = 1;
}
