import { asyncStarter } from './async-start';

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

const mailRuns = asyncStarter<MailRunStart>('MAIL_SENDER_FUNCTION', 'emailed invites cannot be sent');

/** The laptop runtime sends mail runs itself; answers a function that puts back the one before. */
export const registerInProcessMailRuns = mailRuns.register;

/** Starts (or continues) a run; `functionName` defaults to `MAIL_SENDER_FUNCTION` (the sender names itself). */
export const startMailRun = (run: MailRunStart, functionName?: string) =>
  mailRuns.start({ schoolId: run.schoolId, runId: run.runId }, functionName);
