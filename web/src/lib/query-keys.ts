/**
 * Root query keys that more than one feature invalidates: a feature refreshes another's
 * reads by these prefixes without importing that feature (no circle between feature folders).
 */
export const DISTRICTS_KEY = ['districts'] as const;
