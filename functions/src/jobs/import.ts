import type { Context } from 'aws-lambda';
import { type JobRun, startJobRun } from '../lib/jobs';
import { runImportJob } from '../services/sis/run';

/** Stop this long before the function's timeout: a page and its checkpoint fit in it. */
const reserveMs = () => Number(process.env.IMPORT_JOB_RESERVE_MS) || 60_000;

/**
 * The import-jobs function, invoked asynchronously with a job's run: works
 * until the job is done or its time is nearly up, then continues in a new
 * invocation from the checkpoint it saved.
 */
export const handler = async (event: JobRun, context: Context) => {
  const outcome = await runImportJob(
    event.jobId,
    event.runId,
    () => context.getRemainingTimeInMillis(),
    reserveMs(),
  );
  if (outcome === 'continue') await startJobRun(event, context.functionName);
  return { outcome };
};
