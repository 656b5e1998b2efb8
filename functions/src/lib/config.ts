/**
 * Configuration: every environment variable the functions read, read here
 * and nowhere else (issue 56). Each value is read and checked on first use,
 * not at module load: a function reads only what it uses (the origin-secret
 * rotation has no table), and a missing required variable is an error naming
 * it the first time it is asked for — at a handler's first use, never a
 * wrong value later. Values a test or the benchmark switch while running
 * (`busRelay`, the mail pace, the job reserves) are read each time.
 */
const optional = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

const required = (name: string): string => {
  const value = optional(name);
  if (value === undefined) throw new Error(`Environment variable ${name} is not set`);
  return value;
};

/** A value read and checked on first use, then kept (a read that throws is tried again next time). */
const once = <T>(read: () => T): (() => T) => {
  let read_ = false;
  let value: T;
  return () => {
    if (!read_) {
      value = read();
      read_ = true;
    }
    return value;
  };
};

/** A positive number of milliseconds (or a count) from the environment, else `fallback`. */
const positive = (name: string, fallback: number): number => {
  const value = Number(optional(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const tableName = once(() => required('TABLE_NAME'));
const allowedOrigins = once(() =>
  (optional('ALLOWED_ORIGINS') ?? '').split(',').filter((origin) => origin !== ''),
);
const originSecretArn = once(() => optional('ORIGIN_SECRET_ARN'));
const trustViewerAddress = once(() => {
  const trusted = optional('TRUST_VIEWER_ADDRESS') === '1';
  if (trusted && !originSecretArn()) {
    throw new Error(
      'TRUST_VIEWER_ADDRESS=1 needs ORIGIN_SECRET_ARN: a viewer address is trusted only from CloudFront',
    );
  }
  return trusted;
});

/** The functions another function starts asynchronously (`lib/async-start.ts`), by their variable. */
export type FunctionVariable = 'IMPORT_JOBS_FUNCTION' | 'MAIL_SENDER_FUNCTION';

export const config = {
  /** The data table (`TABLE_NAME`): required by every function that reads or writes data. */
  get tableName(): string {
    return tableName();
  },
  /** The live-connection table: set only for the functions that keep or read connections. */
  get connectionTableName(): string | undefined {
    return optional('CONNECTION_TABLE_NAME');
  },
  /** DynamoDB Local or LocalStack; unset in AWS. */
  get dynamoEndpoint(): string | undefined {
    return optional('AWS_ENDPOINT_URL_DYNAMODB');
  },
  /** The key id DynamoDB Local keeps this process's tables under (the laptop and tests: the store's `LOCAL_KEY_ID_VARIABLE`); unset in AWS. */
  get localKeyId(): string | undefined {
    return optional('CURBSIDE_DYNAMODB_KEY_ID');
  },
  /** The AWS region of the SDK clients the functions create themselves. */
  get region(): string {
    return optional('AWS_REGION') ?? 'us-east-1';
  },
  /** The WebSocket API's management endpoint (https://{api}.execute-api.{region}.amazonaws.com/{stage}). */
  get wsManagementEndpoint(): string | undefined {
    return optional('WS_MANAGEMENT_ENDPOINT');
  },
  /** The sender of the school's email (an SES verified identity; CDK context `curbside:mailFrom`). */
  get mailFrom(): string | undefined {
    return optional('MAIL_FROM');
  },
  /** The laptop runtime's SES endpoint (served in-process); unset in AWS, where the client calls SES. */
  get sesEndpoint(): string | undefined {
    return optional('SES_ENDPOINT');
  },
  /** Messages the mail sender sends per second (default 10: under SES's default account rate of 14). */
  get mailSendRate(): number {
    return positive('MAIL_SEND_RATE', 10);
  },
  /** The first wait after SES throttles a message (doubled on each further refusal). */
  get mailThrottleBackoffMs(): number {
    const ms = Number(optional('MAIL_THROTTLE_BACKOFF_MS') ?? 1000);
    return Number.isFinite(ms) && ms >= 0 ? ms : 1000;
  },
  /** The time a mail run keeps in hand before its invocation ends (it continues in a new one). */
  get mailSenderReserveMs(): number {
    return positive('MAIL_SENDER_RESERVE_MS', 60_000);
  },
  /** The time an import job keeps in hand before its invocation ends (it continues in a new one). */
  get importJobReserveMs(): number {
    return positive('IMPORT_JOB_RESERVE_MS', 60_000);
  },
  /** The function a variable names, started asynchronously; unset on the laptop (it runs the work in-process). */
  functionName(variable: FunctionVariable): string | undefined {
    return optional(variable);
  },
  get logLevel(): string {
    return optional('LOG_LEVEL') ?? 'info';
  },
  /** Running in Lambda (its runtime sets the function's name). */
  get onLambda(): boolean {
    return optional('AWS_LAMBDA_FUNCTION_NAME') !== undefined;
  },
  /** `LOG_FORMAT=json`: JSON log lines even at a terminal. */
  get logFormat(): 'json' | undefined {
    return optional('LOG_FORMAT') === 'json' ? 'json' : undefined;
  },
  /** Site origins allowed to send mutations besides the request's own host (the CloudFront domain). */
  get allowedOrigins(): string[] {
    return allowedOrigins();
  },
  /** Behind CloudFront: the visitor's address comes from the header its viewer-request function sets. */
  get trustViewerAddress(): boolean {
    return trustViewerAddress();
  },
  /** Behind CloudFront: the secret it adds to every request (Secrets Manager ARN); requests without it are refused. */
  get originSecretArn(): string | undefined {
    return originSecretArn();
  },
  /** The CloudFront distribution whose origin secret the rotation function rotates (`DISTRIBUTION_ID`). */
  get distributionId(): string {
    return required('DISTRIBUTION_ID');
  },
  /** The laptop runtime on its demo seed: the parent login may show the demo account. Never set in AWS. */
  get demo(): boolean {
    return optional('CURBSIDE_DEMO') === '1';
  },
  /**
   * How bus positions reach the maps: coalesced (at most one message per
   * viewer per second for the whole fleet), or `naive` (every position to
   * every viewer at once: the benchmark's comparison, never deployed).
   */
  get busRelay(): 'naive' | 'coalesced' {
    // Read each time: the benchmark switches it in the middle of a run to measure both.
    return optional('BUS_RELAY') === 'naive' ? 'naive' : 'coalesced';
  },
  /** Clever single sign-on and the roster import (`lib/clever-config.ts` says what each is). */
  clever: {
    get clientId(): string | undefined {
      return optional('CLEVER_CLIENT_ID');
    },
    get oauthUrl(): string {
      return optional('CLEVER_OAUTH_URL') ?? 'https://clever.com';
    },
    get apiUrl(): string {
      return optional('CLEVER_API_URL') ?? 'https://api.clever.com';
    },
    /** A secret's Secrets Manager ARN (`{name}_ARN`, in AWS) and its value (`{name}`, the laptop and tests). */
    secret(name: 'CLEVER_CLIENT_SECRET' | 'CLEVER_DISTRICT_TOKENS'): { arn?: string; value?: string } {
      return { arn: optional(`${name}_ARN`), value: optional(name) };
    },
    /** Records per page of the Data API (`CLEVER_PAGE_SIZE`); undefined: the import's own. */
    get pageSize(): number | undefined {
      const size = Number(optional('CLEVER_PAGE_SIZE'));
      return Number.isInteger(size) && size > 0 ? size : undefined;
    },
    /** The first wait before calling Clever again after a failure (`CLEVER_RETRY_MS`, default 500). */
    get retryMs(): number {
      return positive('CLEVER_RETRY_MS', 500);
    },
  },
};
