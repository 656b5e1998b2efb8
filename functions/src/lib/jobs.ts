import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { quietSdkLogger } from '@curbside/store';

/**
 * Starts a run of an import job: in AWS an asynchronous invocation of the
 * import-jobs function (named by `IMPORT_JOBS_FUNCTION`); on a laptop the
 * runtime registers a starter that runs the same handler in-process.
 */
export interface JobRun {
  jobId: string;
  runId: string;
}
type Starter = (run: JobRun) => Promise<void>;

let inProcess: Starter | undefined;
let client: LambdaClient | undefined;

/** The laptop runtime runs job runs itself; answers a function that puts back the one before. */
export const registerInProcessJobs = (starter: Starter) => {
  const previous = inProcess;
  inProcess = starter;
  return () => {
    if (inProcess === starter) inProcess = previous;
  };
};

/** Starts a run; `functionName` defaults to `IMPORT_JOBS_FUNCTION` (the jobs function names itself). */
export const startJobRun = async (
  run: JobRun,
  functionName = process.env.IMPORT_JOBS_FUNCTION,
): Promise<void> => {
  if (inProcess) return inProcess(run);
  if (!functionName) throw new Error('IMPORT_JOBS_FUNCTION is not set: import jobs cannot start');
  client ??= new LambdaClient({ logger: quietSdkLogger });
  await client.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: new TextEncoder().encode(JSON.stringify(run)),
    }),
  );
};
