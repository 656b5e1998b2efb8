import { channels } from '@curbside/api';
import { connections } from '@curbside/store';
import { connectionsDb } from '../lib/context';
import { sendBoard } from '../services/display';

/**
 * A display page's `DISPLAY_REFRESH` (issue 32): the board, to a connection
 * opened with a display link only (its channel names the school); any other
 * connection asking is ignored.
 */
export const answerDisplay = async (connectionId: string): Promise<void> => {
  const connection = await connections.get(connectionsDb(), connectionId);
  const display = connection?.channels.map(channels.parse).find((channel) => channel?.kind === 'display');
  if (display?.kind !== 'display') return;
  await sendBoard(connectionId, display.schoolId);
};
