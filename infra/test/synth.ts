import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMPORT_JOBS, MAIL_SENDER, type RouteDefinition } from '@curbside/api';
import { App, type AppProps, Aspects } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, expect } from 'vitest';
import { ensureFunctionBundles } from '../lib/bundles';
import { CurbsideStack } from '../lib/curbside-stack';

export type Resources = Record<
  string,
  { Type: string; Properties: any; DeletionPolicy?: string; Metadata?: any; Condition?: string }
>;

/** Managed policy ids (same in every account). */
export const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
export const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

export interface SynthOptions {
  /** CDK context (`curbside:cleverClientId`, …). */
  context?: Record<string, unknown>;
  /** Check every resource with cdk-nag's AwsSolutions pack, as `bin/app.ts` does (default). */
  nag?: boolean;
}

/** One synthesized stack and what its tests read of it. */
export interface SynthesizedStack {
  app: App;
  stack: CurbsideStack;
  template: Template;
  resources: Resources;
  /** The web app the stack deploys: an index.html, a hashed asset and its precompressed copies. */
  webDist: string;
  /** A new app synthesizing under this file's temporary folder (removed after the file). */
  testApp: (props?: AppProps) => App;
  /** Synthesizes another stack (another route table) in this file's folder. */
  synth: (routes?: readonly RouteDefinition[]) => { app: App; stack: CurbsideStack; template: Template };
}

/** Synthesized stacks of this worker process, by options: the test files of a worker share them. */
const workerGlobals = globalThis as { curbsideStacks?: Map<string, SynthesizedStack> };
workerGlobals.curbsideStacks ??= new Map();
const cache = workerGlobals.curbsideStacks;

/** The temporary folder of this worker's syntheses, removed when the worker exits. */
let outdirs: string | undefined;
const outdirsOfWorker = (): string => {
  if (outdirs) return outdirs;
  const created = mkdtempSync(join(tmpdir(), 'curbside-cdk-test-'));
  outdirs = created;
  process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  return created;
};

const synthesize = (options: SynthOptions): SynthesizedStack => {
  ensureFunctionBundles();
  const root = mkdtempSync(join(outdirsOfWorker(), 'stack-'));
  const webDist = join(root, 'web');
  mkdirSync(join(webDist, 'assets'), { recursive: true });
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><script src="/assets/app-1.js"></script>');
  writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1)');
  // The build's precompressed copies (web/precompress.ts), for the laptop only.
  writeFileSync(join(webDist, 'assets', 'app-1.js.br'), 'brotli');
  writeFileSync(join(webDist, 'assets', 'app-1.js.gz'), 'gzip');
  writeFileSync(join(webDist, 'index.html.br'), 'brotli');
  const testApp = (props: AppProps = {}) => new App({ outdir: mkdtempSync(join(root, 'app-')), ...props });
  const synth = (routes?: readonly RouteDefinition[]) => {
    const app = testApp(options.context ? { context: options.context } : {});
    const stack = new CurbsideStack(app, 'Curbside', { webDist, ...(routes ? { routes } : {}) });
    if (options.nag !== false) Aspects.of(app).add(new AwsSolutionsChecks());
    return { app, stack, template: Template.fromStack(stack) };
  };
  const { app, stack, template } = synth();
  return { app, stack, template, resources: template.toJSON().Resources, webDist, testApp, synth };
};

/**
 * The stack synthesized with `options`, for the calling test file: set in its `beforeAll`.
 * A worker synthesizes each set of options once, whichever of its files asks first (a synthesis
 * takes tens of seconds of a core), into one temporary folder (the function bundles and web
 * files are copied as assets, about 30 MB a synthesis) removed when the worker exits. Tests
 * only read the stack: none may change it.
 */
export const synthesizeOnce = (options: SynthOptions = {}): SynthesizedStack => {
  const synthesized = {} as SynthesizedStack;
  beforeAll(() => {
    const key = JSON.stringify({ context: options.context ?? {}, nag: options.nag !== false });
    let found = cache.get(key);
    if (!found) {
      found = synthesize(options);
      cache.set(key, found);
    }
    Object.assign(synthesized, found);
  }, 180_000);
  return synthesized;
};

/** The one item of a list (and the expectation that there is one). */
export const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0] as T;
};

/** `integrations/{Ref}` → the integration's logical id. */
export const integrationOf = (route: { Properties: any }): string =>
  route.Properties.Target['Fn::Join'][1][1].Ref;

/** What tests ask of a synthesized stack's template: by type, by function, by role. */
export const inspect = (synthesized: SynthesizedStack) => {
  const resources = () => synthesized.resources;
  const logicalId = (planId: string): string => {
    const { stack } = synthesized;
    const fn =
      planId === IMPORT_JOBS.id
        ? stack.importJobsFunction
        : planId === MAIL_SENDER.id
          ? stack.mailSenderFunction
          : stack.functions.get(planId);
    if (!fn) throw new Error(`no function ${planId}`);
    return stack.getLogicalId(fn.node.defaultChild as CfnFunction);
  };
  const ofType = (type: string) => Object.entries(resources()).filter(([, r]) => r.Type === type);
  const apiLogicalId = (protocol: 'HTTP' | 'WEBSOCKET') =>
    only(ofType('AWS::ApiGatewayV2::Api').filter(([, r]) => r.Properties.ProtocolType === protocol))[0];
  const tableLogicalId = (withPitr: boolean) =>
    only(
      ofType('AWS::DynamoDB::Table').filter(
        ([, t]) =>
          (t.Properties.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled === true) === withPitr,
      ),
    )[0];
  /** The Lambda function an integration invokes. */
  const functionOfIntegration = (integrationId: string): string => {
    const json = JSON.stringify(resources()[integrationId]?.Properties.IntegrationUri);
    const match = /"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/.exec(json);
    if (!match?.[1]) throw new Error(`integration ${integrationId} has no function: ${json}`);
    return match[1];
  };
  const statementsOfRole = (roleLogicalId: string): any[] =>
    ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleLogicalId }]))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((statement: any) => statement.Effect === 'Allow');
  const roleOf = (planId: string) =>
    resources()[logicalId(planId)]!.Properties.Role['Fn::GetAtt'][0] as string;
  /** The actions a function's role allows on a resource whose JSON mentions `target`. */
  const actionsOn = (planId: string, target: string): string[] =>
    statementsOfRole(roleOf(planId))
      .filter((s) => JSON.stringify(s.Resource).includes(target))
      .flatMap((s) => [s.Action].flat());
  const environmentOf = (planId: string) => resources()[logicalId(planId)]!.Properties.Environment.Variables;
  /** The asynchronous-invocation settings of a function (by its logical id): one. */
  const invokeConfigOf = (functionLogicalId: string) =>
    only(
      ofType('AWS::Lambda::EventInvokeConfig').filter(
        ([, c]) => JSON.stringify(c.Properties.FunctionName) === JSON.stringify({ Ref: functionLogicalId }),
      ),
    )[1];
  /** The roles allowed to invoke a function (by its logical id), sorted. */
  const rolesInvoking = (functionLogicalId: string): string[] =>
    ofType('AWS::IAM::Policy')
      .filter(([, p]) =>
        p.Properties.PolicyDocument.Statement.some(
          (s: any) =>
            [s.Action].flat().includes('lambda:InvokeFunction') &&
            JSON.stringify(s.Resource).includes(functionLogicalId),
        ),
      )
      .flatMap(([, p]) => p.Properties.Roles.map((r: any) => r.Ref as string))
      .sort();
  return {
    invokeConfigOf,
    rolesInvoking,
    logicalId,
    ofType,
    apiLogicalId,
    tableLogicalId,
    functionOfIntegration,
    statementsOfRole,
    roleOf,
    actionsOn,
    environmentOf,
  };
};
