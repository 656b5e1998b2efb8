import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HASHED_MAX_AGE_SECONDS,
  SITE_CACHE_CONTROL,
  securityHeaders,
  VIEWER_ADDRESS_HEADER,
} from '@curbside/api';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { describe, expect, it } from 'vitest';
import { Site } from '../lib/site';
import { ALL_VIEWER_EXCEPT_HOST_HEADER, CACHING_DISABLED, inspect, only, synthesizeOnce } from './synth';

/** The web app behind CloudFront (`lib/site.ts`). */
const curbside = synthesizeOnce();
const { ofType, apiLogicalId } = inspect(curbside);

describe('web app', () => {
  it('buckets block all public access and refuse plain HTTP', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThan(0);
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.DeletionPolicy, id).toBe('Retain');
      const policy = only(
        ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === id),
      )[1].Properties.PolicyDocument.Statement;
      expect(policy, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('CloudFront: S3 through OAC with the SPA fallback function, /api/* and /ws to the APIs uncached', () => {
    const [, distribution] = only(ofType('AWS::CloudFront::Distribution'));
    const config = distribution.Properties.DistributionConfig;
    const originOf = (id: string) => config.Origins.find((o: any) => o.Id === id);

    const s3Origin = originOf(config.DefaultCacheBehavior.TargetOriginId);
    expect(s3Origin.OriginAccessControlId).toEqual({
      'Fn::GetAtt': [only(ofType('AWS::CloudFront::OriginAccessControl'))[0], 'Id'],
    });
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.Logging).toBeDefined();

    const behaviors = Object.fromEntries(config.CacheBehaviors.map((b: any) => [b.PathPattern, b]));
    expect(Object.keys(behaviors).sort()).toEqual([
      '/api/*',
      '/assets/*',
      '/bus-driver',
      '/bus-driver/*',
      '/front-queue',
      '/front-queue/*',
      '/parent-dashboard',
      '/parent-dashboard/*',
      '/ws',
    ]);
    const expectedApi = { '/api/*': apiLogicalId('HTTP'), '/ws': apiLogicalId('WEBSOCKET') };
    for (const [path, api] of Object.entries(expectedApi)) {
      const behavior = behaviors[path];
      expect(behavior.CachePolicyId, path).toBe(CACHING_DISABLED);
      expect(behavior.OriginRequestPolicyId, path).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(behavior.AllowedMethods, path).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
      expect(behavior.ViewerProtocolPolicy, path).not.toBe('allow-all');
      const origin = originOf(behavior.TargetOriginId);
      expect(origin.DomainName, path).toEqual({
        'Fn::Join': [
          '',
          [{ Ref: api }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }],
        ],
      });
      expect(origin.CustomOriginConfig.OriginProtocolPolicy, path).toBe('https-only');
    }
  });

  const headersPolicy = (ref: unknown) => {
    const id = (ref as { Ref: string }).Ref;
    return curbside.resources[id]!.Properties.ResponseHeadersPolicyConfig;
  };

  it('every answer carries the strict CSP, Permissions-Policy, nosniff, Referrer-Policy and HSTS the laptop sends', () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    const expected = securityHeaders('/');
    const behaviors = [
      config.DefaultCacheBehavior,
      // The pages with their own Permissions-Policy (and the front queue's CSP) are checked below.
      ...config.CacheBehaviors.filter(
        (b: any) => !/^\/(bus-driver|parent-dashboard|front-queue)/.test(b.PathPattern),
      ),
    ];
    for (const behavior of behaviors) {
      const policy = headersPolicy(behavior.ResponseHeadersPolicyId);
      const security = policy.SecurityHeadersConfig;
      expect(security.ContentSecurityPolicy).toEqual({
        ContentSecurityPolicy: expected['content-security-policy'],
        Override: true,
      });
      expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toMatch(
        /script-src 'self';.*frame-ancestors 'none'/,
      );
      expect(security.ContentTypeOptions).toEqual({ Override: true });
      expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
      expect(security.ReferrerPolicy).toEqual({
        ReferrerPolicy: 'strict-origin-when-cross-origin',
        Override: true,
      });
      expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
      expect(policy.CustomHeadersConfig.Items).toContainEqual({
        Header: 'Permissions-Policy',
        Value: expected['permissions-policy'],
        Override: true,
      });
      expect(expected['permissions-policy']).toContain('geolocation=()');
    }
  });

  it("the bus driver's page and the parent's dashboard alone may ask for the position", () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    for (const pattern of ['/bus-driver', '/bus-driver/*', '/parent-dashboard', '/parent-dashboard/*']) {
      const behavior = config.CacheBehaviors.find((b: any) => b.PathPattern === pattern);
      expect(behavior.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
      expect(behavior.FunctionAssociations).toEqual(config.DefaultCacheBehavior.FunctionAssociations);
      const [permissions] = headersPolicy(behavior.ResponseHeadersPolicyId).CustomHeadersConfig.Items;
      expect(permissions.Value).toBe(securityHeaders('/bus-driver')['permissions-policy']);
      expect(permissions.Value).toContain('geolocation=(self)');
    }
  });

  it("the front queue's page alone may open the camera and compile WebAssembly (the Scan)", () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    const expected = securityHeaders('/front-queue');
    for (const pattern of ['/front-queue', '/front-queue/*']) {
      const behavior = config.CacheBehaviors.find((b: any) => b.PathPattern === pattern);
      expect(behavior.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
      expect(behavior.FunctionAssociations).toEqual(config.DefaultCacheBehavior.FunctionAssociations);
      const policy = headersPolicy(behavior.ResponseHeadersPolicyId);
      const [permissions] = policy.CustomHeadersConfig.Items;
      expect(permissions.Value).toBe(expected['permissions-policy']);
      expect(permissions.Value).toContain('camera=(self)');
      expect(permissions.Value).toContain('geolocation=()');
      expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toBe(
        expected['content-security-policy'],
      );
      expect(expected['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    }
  });

  const cloudFrontFunction = (comment: RegExp) => {
    const [, fn] = only(
      ofType('AWS::CloudFront::Function').filter(([, f]) =>
        comment.test(f.Properties.FunctionConfig.Comment),
      ),
    );
    return new Function(`${fn.Properties.FunctionCode}; return handler;`)() as (event: any) => any;
  };

  it('API requests carry the visitor address as CloudFront saw it, never one the browser made up', () => {
    const [, distribution] = only(ofType('AWS::CloudFront::Distribution'));
    const api = distribution.Properties.DistributionConfig.CacheBehaviors.find(
      (b: any) => b.PathPattern === '/api/*',
    );
    expect(api.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    const stamp = cloudFrontFunction(/visitor address/);
    const request = { uri: '/api/login', headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.9.9.9' } } };
    expect(stamp({ request, viewer: { ip: '203.0.113.7' } }).headers[VIEWER_ADDRESS_HEADER]).toEqual({
      value: '203.0.113.7',
    });
  });

  it('the SPA fallback rewrites extensionless paths only', () => {
    const handler = cloudFrontFunction(/single-page app/);
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/queue')).toBe('/index.html');
    expect(rewrite('/students/12/pickup')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/favicon.svg')).toBe('/favicon.svg');
  });

  /** A behavior's cache policy (one of this stack's own) and the Cache-Control its answers carry. */
  const cachingOf = (behavior: any) => ({
    cachePolicy: curbside.resources[behavior.CachePolicyId.Ref]!.Properties.CachePolicyConfig,
    cacheControl: headersPolicy(behavior.ResponseHeadersPolicyId).CustomHeadersConfig.Items.find(
      (item: any) => item.Header === 'Cache-Control',
    ),
  });

  it('serves the site compressed (Brotli or gzip) and cached as the laptop serves it', () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    const behaviors = Object.fromEntries(config.CacheBehaviors.map((b: any) => [b.PathPattern, b]));
    const site = [config.DefaultCacheBehavior, behaviors['/bus-driver'], behaviors['/bus-driver/*']];
    for (const behavior of [...site, behaviors['/assets/*']]) {
      expect(behavior.Compress).toBe(true);
      const { cachePolicy } = cachingOf(behavior);
      expect(cachePolicy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
        EnableAcceptEncodingBrotli: true,
        EnableAcceptEncodingGzip: true,
        CookiesConfig: { CookieBehavior: 'none' },
        QueryStringsConfig: { QueryStringBehavior: 'none' },
      });
    }
    // index.html and the other unhashed files: never kept at the edge past their no-cache, revalidated by browsers.
    for (const behavior of site) {
      const { cachePolicy, cacheControl } = cachingOf(behavior);
      expect(cachePolicy).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: HASHED_MAX_AGE_SECONDS });
      expect(cacheControl).toEqual({ Header: 'Cache-Control', Value: 'no-cache', Override: true });
    }
    // Hashed assets: a year, at the edge and in the browser, never asked again.
    const hashed = behaviors['/assets/*'];
    expect(hashed.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    const { cachePolicy, cacheControl } = cachingOf(hashed);
    expect(cachePolicy).toMatchObject({ MinTTL: 31_536_000, DefaultTTL: 31_536_000, MaxTTL: 31_536_000 });
    expect(cacheControl).toEqual({
      Header: 'Cache-Control',
      Value: 'public, max-age=31536000, immutable',
      Override: true,
    });
    expect(SITE_CACHE_CONTROL.hashed).toBe(cacheControl.Value);
  });

  it('uploads no precompressed copy of the build: CloudFront compresses by itself', () => {
    const staged = readdirSync(curbside.app.outdir, { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && entry.name.startsWith('asset.'),
    );
    const webAssets = staged
      .map((entry) => entry.name)
      .filter((name) => readdirSync(join(curbside.app.outdir, name)).includes('index.html'));
    expect(webAssets).toHaveLength(1);
    const dir = join(curbside.app.outdir, webAssets[0] as string);
    expect(readdirSync(dir).sort()).toEqual(['assets', 'index.html']);
    expect(readdirSync(join(dir, 'assets'))).toEqual(['app-1.js']);
  });

  it('deploys web/dist: hashed assets kept and cached long, the rest revalidated and invalidated', () => {
    const deployments = ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    expect(deployments).toHaveLength(2);
    const assets = only(deployments.filter((d) => JSON.stringify(d.Include) === '["assets/*"]'));
    expect(assets).toMatchObject({ Exclude: ['*'], Prune: false });
    expect(assets.DistributionId).toBeUndefined();
    expect(deployments).toContainEqual(
      expect.objectContaining({ Exclude: ['assets/*'], Prune: true, DistributionPaths: ['/*'] }),
    );
  });

  it('skips the deployment with a warning when the web app is not built', () => {
    const empty = mkdtempSync(join(tmpdir(), 'curbside-noweb-'));
    try {
      const siteStack = new Stack(curbside.testApp(), 'SiteOnly');
      new Site(siteStack, 'Site', {
        httpApiId: 'http123',
        webSocketApiId: 'ws123',
        webDist: empty,
        originSecret: new Secret(siteStack, 'Secret'),
      });
      Template.fromStack(siteStack).resourceCountIs('Custom::CDKBucketDeployment', 0);
      Annotations.fromStack(siteStack).hasWarning('/SiteOnly/Site', Match.stringLikeRegexp('not deployed'));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
