/**
 * Root query keys that more than one feature invalidates: a feature refreshes another's
 * reads by these prefixes without importing that feature (no circle between feature folders).
 */
export const DISTRICTS_KEY = ['districts'] as const;
/** The school's rosters (`rosters.queries.ts`): a student's row shows their weekly way home. */
export const ROSTERS_KEY = ['rosters'] as const;
/** The pickup sessions, and the school's active one (the queue feature reads its type). */
export const SESSIONS_KEY = ['sessions'] as const;
export const ACTIVE_SESSION_KEY = [...SESSIONS_KEY, 'active'] as const;
