/**
 * The dismissal's record turned into reports (pure rules): a session's
 * pickups from its events, their summary, the CSV rows, the charts' series.
 * Imported as `@curbside/domain/report`, so screens that show no report do
 * not load it.
 */
export * from './actors';
export * from './charts';
export * from './csv';
export * from './pickups';
export * from './summary';
export * from './waits';
