import type { Context } from 'aws-lambda';
import { config } from '../lib/config';
import { loggedInvocation } from '../lib/log';
import { type MailRunStart, startMailRun } from '../lib/mail-runs';
import { sendMailRun } from '../services/mail-sender';

/** Stop claiming messages this long before the function's timeout (a throttled one may wait 30 s). */
const reserveMs = () => config.mailSenderReserveMs;

/**
 * The mail sender, invoked asynchronously with a mail run: sends its messages
 * until they are all settled or its time is nearly up, then continues in a
 * new invocation with the messages still queued.
 */
export const handler = loggedInvocation('job mail', async (event: MailRunStart, context: Context) => {
  const outcome = await sendMailRun(
    { schoolId: event.schoolId, runId: event.runId },
    () => context.getRemainingTimeInMillis(),
    reserveMs(),
    context.awsRequestId,
  );
  if (outcome === 'continue') await startMailRun(event, context.functionName);
  return { outcome };
});
