/**
 * The business metrics the functions emit (CloudWatch embedded metric
 * format, through Powertools Metrics) and the stack's alarms and dashboard
 * read: one list, so a renamed metric cannot leave an alarm watching nothing.
 * Every metric is in the `Curbside` namespace with the one dimension
 * `service: curbside` (never a school or a user: a dimension value is a
 * metric of its own, billed and kept apart).
 */
export const METRICS_NAMESPACE = 'Curbside';
export const METRICS_SERVICE = 'curbside';

export const BUSINESS_METRICS = {
  /** A car or bus added to a session's queue. */
  carsQueued: { name: 'CarsQueued', unit: 'Count' },
  /** A student released to their car (teacher screen or a completed pickup). */
  releases: { name: 'StudentsReleased', unit: 'Count' },
  /** A live post API Gateway refused for a reason other than a gone connection. */
  livePostsFailed: { name: 'LivePostsFailed', unit: 'Count' },
  /** Live posts sent (the dashboard's "live posts"). */
  livePosts: { name: 'LivePosts', unit: 'Count' },
  /** A help or emergency alert raised. */
  alertsRaised: { name: 'AlertsRaised', unit: 'Count' },
  /** Seconds from an alert's raising to its first acknowledgement. */
  alertAckSeconds: { name: 'AlertAcknowledgeSeconds', unit: 'Seconds' },
  /** Emergency alerts raised 2 minutes ago or more that nobody has acknowledged (the every-minute check). */
  emergenciesUnacknowledged: { name: 'EmergencyAlertsUnacknowledged', unit: 'Count' },
  /** An import job that stopped failed. */
  importsFailed: { name: 'ImportsFailed', unit: 'Count' },
  /** An email given up on (three failed tries). */
  mailsFailed: { name: 'MailsFailed', unit: 'Count' },
  /** A run of the session auto-end schedule that failed. */
  autoEndFailed: { name: 'AutoEndFailed', unit: 'Count' },
} as const;

export type BusinessMetric = keyof typeof BUSINESS_METRICS;

/** An emergency alert nobody acknowledged for this long wakes someone (the stack's alarm). */
export const EMERGENCY_UNACKNOWLEDGED_MS = 2 * 60_000;
