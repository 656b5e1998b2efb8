import { connections } from '@curbside/store';
import { connectionsDb } from '../lib/context';
import { sendBoard } from '../services/display';

const DISPLAY_CHANNEL = /^school#(\d+)#display$/;

/**
 * A display page's `DISPLAY_REFRESH` (issue 32): the board, to a connection
 * opened with a display link only (its channel names the school); any other
 * connection asking is ignored.
 */
export const answerDisplay = async (connectionId: string): Promise<void> => {
  const connection = await connections.get(connectionsDb(), connectionId);
  const match = connection?.channels.map((channel) => DISPLAY_CHANNEL.exec(channel)).find(Boolean);
  if (!match) return;
  await sendBoard(connectionId, Number(match[1]));
};
