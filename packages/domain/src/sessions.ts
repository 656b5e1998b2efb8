/** Pickup sessions (specification §3, §4, §5). */
export const SESSION_TYPES = ['morning_dropoff', 'afternoon_pickup'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

export const SESSION_TYPE_NAME: Readonly<Record<SessionType, string>> = {
  morning_dropoff: 'Morning Dropoff',
  afternoon_pickup: 'Afternoon Pickup',
};

/**
 * Who may end a running session: back queue staff and above. Ending a session
 * ends the school's dismissal on every screen. The back of the line completes
 * the last batch, so back queue staff know when the line is empty; front queue
 * staff (the most numerous role, often volunteers adding cars at the entrance)
 * do not, and one stray tap there ended the dismissal. Keeping it above school
 * admins would leave the screens running for up to two hours whenever no admin
 * is at hand (the session only auto-ends at its end time).
 */
export const END_SESSION_MIN_ROLE = 'back_queue_wrangler' as const;

/** Default session length: 2 hours. */
export const SESSION_DEFAULT_LENGTH_MS = 2 * 60 * 60 * 1000;

/**
 * Form defaults: start now, end after the school's usual dismissal length
 * (its `defaultSessionMinutes` setting; two hours when it has none), named after the type.
 */
export const sessionDefaults = (
  type: SessionType,
  now = new Date(),
  lengthMs: number = SESSION_DEFAULT_LENGTH_MS,
) => ({
  name: SESSION_TYPE_NAME[type],
  type,
  startTime: now.toISOString(),
  endTime: new Date(now.getTime() + lengthMs).toISOString(),
  notes: '',
});

/** A session is running from its start until it is ended or its end time passes. */
export const isSessionRunning = (session: { status: string; endTime: string }, now = Date.now()) =>
  session.status === 'active' && Date.parse(session.endTime) > now;
