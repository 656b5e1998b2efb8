import { countMetric, log, loggedInvocation } from '../lib/log';
import { endOverdueSessions } from '../services/sessions';

/** Every minute: ends each pickup session whose end time has passed (a failed run wakes someone: `AutoEndFailed`). */
export const handler = loggedInvocation('schedule end-sessions', async () => {
  try {
    const ended = await endOverdueSessions();
    if (ended > 0) log('info', 'ended overdue sessions', { ended });
    return { ended };
  } catch (error) {
    countMetric('autoEndFailed');
    throw error;
  }
});
