/**
 * Configuration, read once at module load. A missing required variable is a
 * crash at start, never a 500 later.
 */
const required = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Environment variable ${name} is not set`);
  }
  return value;
};

const optional = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

const originSecretArn = optional('ORIGIN_SECRET_ARN');
const trustViewerAddress = optional('TRUST_VIEWER_ADDRESS') === '1';
if (trustViewerAddress && !originSecretArn) {
  throw new Error(
    'TRUST_VIEWER_ADDRESS=1 needs ORIGIN_SECRET_ARN: a viewer address is trusted only from CloudFront',
  );
}

export const config = {
  tableName: required('TABLE_NAME'),
  /** The live-connection table: set only for the functions that keep or read connections. */
  connectionTableName: optional('CONNECTION_TABLE_NAME'),
  /** DynamoDB Local or LocalStack; unset in AWS. */
  dynamoEndpoint: optional('AWS_ENDPOINT_URL_DYNAMODB'),
  /** The WebSocket API's management endpoint (https://{api}.execute-api.{region}.amazonaws.com/{stage}). */
  wsManagementEndpoint: optional('WS_MANAGEMENT_ENDPOINT'),
  /** The sender of the school's email (an SES verified identity; CDK context `curbside:mailFrom`). */
  get mailFrom(): string | undefined {
    return optional('MAIL_FROM');
  },
  /** The laptop runtime's SES endpoint (served in-process); unset in AWS, where the client calls SES. */
  get sesEndpoint(): string | undefined {
    return optional('SES_ENDPOINT');
  },
  logLevel: optional('LOG_LEVEL') ?? 'info',
  /** Site origins allowed to send mutations besides the request's own host (the CloudFront domain). */
  allowedOrigins: (optional('ALLOWED_ORIGINS') ?? '').split(',').filter((origin) => origin !== ''),
  /** Behind CloudFront: the visitor's address comes from the header its viewer-request function sets. */
  trustViewerAddress,
  /** Behind CloudFront: the secret it adds to every request (Secrets Manager ARN); requests without it are refused. */
  originSecretArn,
  /** The laptop runtime on its demo seed: the parent login may show the demo account. Never set in AWS. */
  demo: optional('CURBSIDE_DEMO') === '1',
  /**
   * How bus positions reach the maps: coalesced (at most one message per
   * viewer per second for the whole fleet), or `naive` (every position to
   * every viewer at once: the benchmark's comparison, never deployed).
   */
  get busRelay(): 'naive' | 'coalesced' {
    // Read each time: the benchmark switches it in the middle of a run to measure both.
    return optional('BUS_RELAY') === 'naive' ? 'naive' : 'coalesced';
  },
} as const;
