import { log } from '../lib/log';
import { endOverdueSessions } from '../services/sessions';

/** Every minute: ends each pickup session whose end time has passed. */
export const handler = async () => {
  const ended = await endOverdueSessions();
  if (ended > 0) log('info', 'ended overdue sessions', { ended });
  return { ended };
};
