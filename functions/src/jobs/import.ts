import type { Context } from 'aws-lambda';
import { config } from '../lib/config';
import { type JobRun, startJobRun } from '../lib/jobs';
import { log, loggedInvocation } from '../lib/log';
import { failImportRun, runImportJob } from '../services/sis/run';

/** Stop this long before the function's timeout: a page and its checkpoint fit in it. */
const reserveMs = () => config.importJobReserveMs;

/**
 * The import-jobs function, invoked asynchronously with a job's run: works
 * until the job is done or its time is nearly up, then continues in a new
 * invocation from the checkpoint it saved. A run that throws marks its job
 * failed (a district admin sees why and may resume it), then fails the
 * invocation: Lambda does not retry it and sends it to the dead-letter queue.
 */
export const handler = loggedInvocation('job import', async (event: JobRun, context: Context) => {
  try {
    const outcome = await runImportJob(
      event.jobId,
      event.runId,
      () => context.getRemainingTimeInMillis(),
      reserveMs(),
    );
    if (outcome === 'continue') await startJobRun(event, context.functionName);
    return { outcome };
  } catch (error) {
    log('error', 'import job run failed', { jobId: event.jobId, error: String(error) });
    await failImportRun(event.jobId, event.runId).catch((markError: unknown) =>
      log('error', 'failed import job not marked', { jobId: event.jobId, error: String(markError) }),
    );
    throw error;
  }
});
