import { log, loggedInvocation } from '../lib/log';
import { startNightlySync } from '../services/sis/districts';

/** Every night: re-imports every district connected to Clever (one job each). */
export const handler = loggedInvocation('schedule clever-sync', async () => {
  const jobs = await startNightlySync();
  log('info', 'nightly clever sync started', { jobs: jobs.length });
  return { jobs: jobs.map((job) => job.id) };
});
