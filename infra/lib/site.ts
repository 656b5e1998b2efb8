import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  GEOLOCATION_PATHS,
  HASHED_ASSETS_PREFIX,
  HASHED_MAX_AGE_SECONDS,
  MAP_ORIGINS,
  ORIGIN_SECRET_HEADER,
  PRECOMPRESSED,
  SCAN_PATHS,
  SITE_CACHE_CONTROL,
  securityHeaders,
  VIEWER_ADDRESS_HEADER,
} from '@curbside/api';
import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface SiteProps {
  /** The HTTP API (`{apiId}`); `/api/*` goes there. */
  httpApiId: string;
  /** The WebSocket API (`{apiId}`); `/ws` reaches its `ws` stage. */
  webSocketApiId: string;
  /** The built web app; deployed only when it holds an `index.html`. */
  webDist: string;
  /** Optional custom domain; without it the site uses `*.cloudfront.net`. */
  domain?: { names: string[]; certificate: ICertificate };
  /** The secret CloudFront adds to every request it forwards to the APIs (`ORIGIN_SECRET_HEADER`). */
  originSecret: ISecret;
  /** The map's origins for the Content-Security-Policy; default the api's `MAP_ORIGINS`. */
  mapOrigins?: readonly string[];
}

/**
 * Rewrites every path without a file extension to `/index.html` so the
 * single-page app's routes load on a reload. Runs on the default behavior
 * only: `/api/*` and `/ws` never see it, so an API 404 stays an API 404.
 */
const SPA_FALLBACK = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** Stamps the visitor's address on every API request, replacing any value the browser sent. */
export const VIEWER_ADDRESS_FUNCTION = `function handler(event) {
  event.request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return event.request;
}`;

/**
 * The browser's one origin: CloudFront serves the web app from a private S3
 * bucket (origin access control) and routes `/api/*` and `/ws` to the two
 * API Gateways, so the session cookie stays first-party and reaches `$connect`.
 */
export class Site extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly bucket: s3.Bucket;
  readonly logBucket: s3.Bucket;
  /** Security headers of every answer but the bus driver's page; and of that page (geolocation allowed). */
  readonly headersPolicy: cloudfront.ResponseHeadersPolicy;
  readonly geolocationHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  readonly scanHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  /** The same security headers, with the hashed assets' year-long Cache-Control. */
  readonly hashedAssetsHeadersPolicy: cloudfront.ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // S3 server access logs are delivered under a bucket policy rather than the
    // deprecated LogDeliveryWrite ACL (the flag is read from this scope down).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);

    // CloudFront standard logs are delivered with an object ACL, so this
    // bucket (and only this one) keeps ACLs enabled.
    this.logBucket = new s3.Bucket(this, 'LogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 'site-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
      autoDeleteObjects: false,
    });

    // Every request to an API carries the origin secret: the handlers serve nothing else.
    // (A dynamic reference: the value is resolved by CloudFormation, never in the template.)
    const apiOrigin = (apiId: string) =>
      new origins.HttpOrigin(`${apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        customHeaders: { [ORIGIN_SECRET_HEADER]: props.originSecret.secretValue.unsafeUnwrap() },
      });

    // The same headers the laptop runtime sends (packages/api/src/security-headers.ts), plus HSTS,
    // and the Cache-Control it sends (site-caching.ts), whatever metadata the bucket's objects carry.
    const mapOrigins = props.mapOrigins ?? MAP_ORIGINS;
    const headersPolicyFor = (id: string, path: string, cacheControl: string, comment: string) => {
      const headers = securityHeaders(path, { mapOrigins });
      return new cloudfront.ResponseHeadersPolicy(this, id, {
        comment,
        securityHeadersBehavior: {
          contentSecurityPolicy: {
            contentSecurityPolicy: headers['content-security-policy'] as string,
            override: true,
          },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
          referrerPolicy: {
            referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
            override: true,
          },
          strictTransportSecurity: {
            accessControlMaxAge: Duration.days(365),
            includeSubdomains: true,
            override: true,
          },
        },
        customHeadersBehavior: {
          customHeaders: [
            { header: 'Permissions-Policy', value: headers['permissions-policy'] as string, override: true },
            { header: 'Cache-Control', value: cacheControl, override: true },
          ],
        },
      });
    };
    this.headersPolicy = headersPolicyFor(
      'SecurityHeaders',
      '/',
      SITE_CACHE_CONTROL.revalidate,
      'Curbside: strict CSP, no geolocation, revalidated',
    );
    this.geolocationHeadersPolicy = headersPolicyFor(
      'DriverSecurityHeaders',
      GEOLOCATION_PATHS[0] as string,
      SITE_CACHE_CONTROL.revalidate,
      "Curbside: strict CSP, geolocation for the bus driver's page, revalidated",
    );
    this.hashedAssetsHeadersPolicy = headersPolicyFor(
      'HashedAssetHeaders',
      HASHED_ASSETS_PREFIX,
      SITE_CACHE_CONTROL.hashed,
      'Curbside: strict CSP, hashed assets kept a year',
    );

    // The site's files as the laptop serves them (ADR 0026): compressed (Brotli or gzip, by the
    // viewer's Accept-Encoding, which is why both are in the cache key), each kept at the edge as
    // long as its Cache-Control says and no longer: `index.html` and the other unhashed files
    // (`no-cache`) are asked of S3 on every load, so a deploy is seen at once.
    const compressedCachePolicy = (id: string, comment: string, minTtl: number, defaultTtl: number) =>
      new cloudfront.CachePolicy(this, id, {
        comment,
        minTtl: Duration.seconds(minTtl),
        defaultTtl: Duration.seconds(defaultTtl),
        maxTtl: Duration.seconds(HASHED_MAX_AGE_SECONDS),
        enableAcceptEncodingBrotli: true,
        enableAcceptEncodingGzip: true,
        cookieBehavior: cloudfront.CacheCookieBehavior.none(),
        headerBehavior: cloudfront.CacheHeaderBehavior.none(),
        queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
      });
    const siteCachePolicy = compressedCachePolicy(
      'SiteCache',
      'Curbside web app: as long as the Cache-Control says, compressed',
      0,
      0,
    );
    // Hashed assets never change: kept at the edge for the year, whatever S3 says.
    const hashedAssetsCachePolicy = compressedCachePolicy(
      'HashedAssetsCache',
      'Curbside hashed assets: a year at the edge, compressed',
      HASHED_MAX_AGE_SECONDS,
      HASHED_MAX_AGE_SECONDS,
    );

    this.scanHeadersPolicy = headersPolicyFor(
      'ScanSecurityHeaders',
      SCAN_PATHS[0] as string,
      SITE_CACHE_CONTROL.revalidate,
      "Curbside: camera and WebAssembly for the front queue's Scan, revalidated",
    );

    const apiBehavior = {
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Forwards cookies, query strings and headers but not Host: API Gateway
      // routes by its own host name.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      responseHeadersPolicy: this.headersPolicy,
      compress: true,
    } satisfies Partial<cloudfront.BehaviorOptions>;
    const siteOrigin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    const spaFallback = [
      {
        eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
        function: new cloudfront.Function(this, 'SpaFallback', {
          code: cloudfront.FunctionCode.fromInline(SPA_FALLBACK),
          runtime: cloudfront.FunctionRuntime.JS_2_0,
          comment: 'Extensionless paths load the single-page app',
        }),
      },
    ];
    const siteBehavior = {
      origin: siteOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: siteCachePolicy,
      compress: true,
      functionAssociations: spaFallback,
    } satisfies Partial<cloudfront.BehaviorOptions>;
    // Pages that may ask for the position (the bus driver's): the same app, another Permissions-Policy.
    const geolocationBehaviors = Object.fromEntries(
      GEOLOCATION_PATHS.flatMap((path) => [path, `${path}/*`]).map((pattern) => [
        pattern,
        { ...siteBehavior, responseHeadersPolicy: this.geolocationHeadersPolicy },
      ]),
    );

    // The front queue's Scan (the camera, zxing-wasm): the same app, its own CSP and Permissions-Policy.
    const scanBehaviors = Object.fromEntries(
      SCAN_PATHS.flatMap((path) => [path, `${path}/*`]).map((pattern) => [
        pattern,
        { ...siteBehavior, responseHeadersPolicy: this.scanHeadersPolicy },
      ]),
    );

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Curbside web app, HTTP API and live connection',
      defaultRootObject: 'index.html',
      defaultBehavior: { ...siteBehavior, responseHeadersPolicy: this.headersPolicy },
      additionalBehaviors: {
        [`${HASHED_ASSETS_PREFIX}*`]: {
          origin: siteOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: hashedAssetsCachePolicy,
          responseHeadersPolicy: this.hashedAssetsHeadersPolicy,
          compress: true,
        },
        ...geolocationBehaviors,
        ...scanBehaviors,
        '/api/*': {
          ...apiBehavior,
          origin: apiOrigin(props.httpApiId),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          functionAssociations: [
            {
              eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
              function: new cloudfront.Function(this, 'ViewerAddress', {
                code: cloudfront.FunctionCode.fromInline(VIEWER_ADDRESS_FUNCTION),
                runtime: cloudfront.FunctionRuntime.JS_2_0,
                comment: 'The visitor address for per-address sign-in and code throttles',
              }),
            },
          ],
        },
        // The WebSocket stage is named `ws`, so the viewer path `/ws` is the stage.
        '/ws': {
          ...apiBehavior,
          origin: apiOrigin(props.webSocketApiId),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        },
      },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(props.domain
        ? {
            domainNames: props.domain.names,
            certificate: props.domain.certificate,
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });

    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'No geo restriction: parents and staff may open the site from anywhere (travel, roaming phones); access is governed by sign-in, not by country.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'No AWS WAF web ACL yet: a web ACL costs a fixed monthly fee per school deployment; abuse is limited by API Gateway stage throttling and the login throttle in the handlers. Revisit before a public launch.',
      },
      ...(props.domain
        ? []
        : [
            {
              id: 'AwsSolutions-CFR4',
              reason:
                'Without a custom domain the distribution uses the default *.cloudfront.net certificate, for which CloudFront does not allow choosing a minimum TLS version. With a domain (context curbside:domainName + curbside:certificateArn) the stack sets TLSv1.2_2021.',
            },
          ]),
    ]);

    if (existsSync(join(props.webDist, 'index.html'))) {
      this.deployWebApp(props.webDist);
    } else {
      Annotations.of(this).addWarningV2(
        'curbside:web-dist-missing',
        `${props.webDist}/index.html does not exist: the web app is not deployed. Build web/ before synthesizing to deploy it.`,
      );
    }
  }

  /**
   * Two uploads: the content-hashed `assets/` first (cached for a year, old
   * files kept so open tabs can still lazy-load their chunks), then
   * everything else, `index.html` above all, revalidated on every load, with
   * a CloudFront invalidation. The build's precompressed copies stay behind:
   * CloudFront compresses by itself.
   */
  private deployWebApp(webDist: string) {
    const logGroup = new logs.LogGroup(this, 'DeployLogs', { retention: logs.RetentionDays.ONE_MONTH });
    const common = {
      sources: [
        s3deploy.Source.asset(webDist, { exclude: PRECOMPRESSED.map(({ suffix }) => `**/*${suffix}`) }),
      ],
      destinationBucket: this.bucket,
      memoryLimit: 512,
      logGroup,
    };
    const hashed = `${HASHED_ASSETS_PREFIX.slice(1)}*`;
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      ...common,
      // `aws s3 sync` filters, where `*` also matches `/`; pruning spares excluded keys.
      exclude: ['*'],
      include: [hashed],
      prune: false,
      cacheControl: [s3deploy.CacheControl.fromString(SITE_CACHE_CONTROL.hashed)],
    });
    const pages = new s3deploy.BucketDeployment(this, 'DeployPages', {
      ...common,
      exclude: [hashed],
      cacheControl: [s3deploy.CacheControl.fromString(SITE_CACHE_CONTROL.revalidate)],
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    pages.node.addDependency(assets);
  }
}
