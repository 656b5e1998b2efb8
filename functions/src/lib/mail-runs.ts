import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { quietSdkLogger } from '@curbside/store';

/**
 * Starts the sending of a mail run (emailed invites): in AWS an asynchronous
 * invocation of the mail sender (named by `MAIL_SENDER_FUNCTION`); on a
 * laptop the runtime registers a starter that runs the same handler
 * in-process. The answer of the request that queued the run does not wait for it.
 */
export interface MailRunStart {
  schoolId: number;
  runId: string;
}
type Starter = (run: MailRunStart) => Promise<void>;

let inProcess: Starter | undefined;
let client: LambdaClient | undefined;

/** The laptop runtime sends mail runs itself; answers a function that puts back the one before. */
export const registerInProcessMailRuns = (starter: Starter) => {
  const previous = inProcess;
  inProcess = starter;
  return () => {
    if (inProcess === starter) inProcess = previous;
  };
};

/** Starts (or continues) a run; `functionName` defaults to `MAIL_SENDER_FUNCTION` (the sender names itself). */
export const startMailRun = async (
  run: MailRunStart,
  functionName = process.env.MAIL_SENDER_FUNCTION,
): Promise<void> => {
  if (inProcess) return inProcess(run);
  if (!functionName) throw new Error('MAIL_SENDER_FUNCTION is not set: emailed invites cannot be sent');
  client ??= new LambdaClient({ logger: quietSdkLogger });
  await client.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: new TextEncoder().encode(JSON.stringify({ schoolId: run.schoolId, runId: run.runId })),
    }),
  );
};
