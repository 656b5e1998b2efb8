import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { BUSINESS_METRICS, type BusinessMetric, METRICS_NAMESPACE, METRICS_SERVICE } from '@curbside/api';
import type { Context } from 'aws-lambda';
import { config } from './config';

/**
 * The functions' logs and metrics: AWS Lambda Powertools' Logger (one JSON
 * line per record) and Metrics (CloudWatch's embedded metric format).
 *
 * Every line of an invocation carries its keys: `request_id` (the reference a
 * school quotes: the web client's `X-Request-Id`, else API Gateway's), the
 * function (`function_name`, `function_request_id`), `route`, and once the
 * caller is known `school_id` and `user_id`. Never a student's name, a phone
 * number, an email address, a token or a code: log ids and counts, not
 * records (the API suite's log output is searched for them, `test/logs`).
 *
 * In Lambda the lines go to standard output, where CloudWatch takes them. Off
 * Lambda (the laptop runtime) they go through the process's console: JSON
 * lines, or one readable line each when the terminal is a TTY.
 */
export type LogLevel = 'info' | 'warn' | 'error';

/** The keys of one invocation's lines. */
export interface InvocationKeys {
  request_id?: string;
  route?: string;
  school_id?: number | null;
  user_id?: number | null;
  connection_id?: string;
}

const onLambda = config.onLambda;
/** Readable lines for a person at a terminal (the laptop), JSON for everything else. */
const readable = !onLambda && process.stdout.isTTY === true && config.logFormat !== 'json';

const LEVEL_OF: Record<string, 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT'> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  silent: 'SILENT',
};
/** Powertools' threshold of ERROR (`LogLevelThreshold.ERROR`). */
const ERROR_THRESHOLD = 20;

/** Keys Powertools adds that a person at a terminal does not need (CloudWatch keeps them all). */
const NOT_SHOWN = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_request_id',
  'sampling_rate',
  'xray_trace_id',
]);

/** One readable line: `14:03:07 INFO  request route=POST /api/queue status=201 …`. */
export const readableLine = (attributes: LogAttributes): string => {
  const time = String(attributes.timestamp ?? '').slice(11, 19);
  const fields = Object.entries(attributes)
    .filter(([key, value]) => !NOT_SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  return [time, String(attributes.level).padEnd(5), attributes.message, ...fields].join(' ');
};

class CurbsideLogger extends Logger {
  protected override printLog(logLevel: number, item: LogItem): void {
    if (onLambda) {
      super.printLog(logLevel, item);
      return;
    }
    item.prepareForPrint();
    const attributes = item.getAttributes();
    const line = readable ? readableLine(attributes) : JSON.stringify(attributes);
    if (logLevel >= ERROR_THRESHOLD) console.error(line);
    else console.log(line);
  }
}

export const logger = new CurbsideLogger({
  serviceName: METRICS_SERVICE,
  logLevel: LEVEL_OF[config.logLevel] ?? 'INFO',
});

/** One record: `log('warn', 'live event not published', { type, error: error.name })`. */
export const log = (level: LogLevel, message: string, fields: object = {}) => {
  logger[level](message, fields as LogAttributes);
};

/**
 * The start of an invocation: its keys replace the last invocation's (a warm
 * Lambda container serves one after another), and the Lambda context names
 * the function and its request.
 */
export const beginInvocation = (context: Context | undefined, keys: InvocationKeys = {}) => {
  logger.resetKeys();
  if (context?.functionName) logger.addContext(context);
  addLogKeys(keys);
};

/** Keys learnt during the invocation (the caller, once signed in), on every later line of it. */
export const addLogKeys = (keys: InvocationKeys) => {
  const defined = Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length > 0) logger.appendKeys(defined);
};

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

/**
 * Counts not yet handed to `metrics`, summed per metric: a count is one value
 * a flush, not one a call (a bus of 30's pickup posts to each rider's parents,
 * one `livePosts` count a post; each value stored was work, and every 100 of
 * one metric a line of their own).
 */
const counted = new Map<BusinessMetric, number>();

/** Counts a business metric (sent with the invocation's other metrics when it ends: `flushMetrics`). */
export const countMetric = (metric: BusinessMetric, value = 1) => {
  const { name, unit } = BUSINESS_METRICS[metric];
  // A measure (seconds) keeps each value; a count is summed.
  if (unit === 'Count') counted.set(metric, (counted.get(metric) ?? 0) + value);
  else metrics.addMetric(name, unit, value);
};

/**
 * Sends the invocation's metrics: in Lambda one embedded-metric-format line on
 * standard output (CloudWatch makes the metrics from it); off Lambda the same
 * object through the console, as a log line.
 */
export const flushMetrics = () => {
  for (const [metric, value] of counted) {
    const { name, unit } = BUSINESS_METRICS[metric];
    metrics.addMetric(name, unit, value);
  }
  counted.clear();
  if (!metrics.hasStoredMetrics()) return;
  if (onLambda) {
    metrics.publishStoredMetrics();
    return;
  }
  const emf = metrics.serializeMetrics();
  metrics.clearMetrics();
  if (config.logLevel === 'silent' || config.logLevel === 'error') return;
  const values = Object.fromEntries(
    Object.entries(emf).filter(([key]) => key !== '_aws' && key !== 'service'),
  );
  if (readable) console.log(`${new Date().toISOString().slice(11, 19)} METRIC ${JSON.stringify(values)}`);
  else console.log(JSON.stringify(emf));
};

/**
 * A handler that is not an API's (a schedule, a job): its lines carry its
 * invocation's request id and its name as the route, and its metrics are sent
 * when it ends, whether it answers or throws.
 */
export const loggedInvocation =
  <E, R>(route: string, fn: (event: E, context: Context) => Promise<R>) =>
  async (event?: E, context?: Context): Promise<R> => {
    beginInvocation(context, { request_id: context?.awsRequestId, route });
    try {
      return await fn(event as E, context as Context);
    } finally {
      flushMetrics();
    }
  };
