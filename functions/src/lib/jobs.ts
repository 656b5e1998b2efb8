import { asyncStarter } from './async-start';

/**
 * Starts a run of an import job: in AWS an asynchronous invocation of the
 * import-jobs function (named by `IMPORT_JOBS_FUNCTION`); on a laptop the
 * runtime registers a starter that runs the same handler in-process.
 */
export interface JobRun {
  jobId: string;
  runId: string;
}

const jobRuns = asyncStarter<JobRun>('IMPORT_JOBS_FUNCTION', 'import jobs cannot start');

/** The laptop runtime runs job runs itself; answers a function that puts back the one before. */
export const registerInProcessJobs = jobRuns.register;

/** Starts a run; `functionName` defaults to `IMPORT_JOBS_FUNCTION` (the jobs function names itself). */
export const startJobRun = (run: JobRun, functionName?: string) => jobRuns.start(run, functionName);
