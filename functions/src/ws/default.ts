import type { ClientMessage } from '@curbside/api';
import { busIdSchema, busLocationSchema } from '@curbside/domain';
import { connections } from '@curbside/store';
import { connectionsDb } from '../lib/context';
import { live } from '../lib/live';
import { log } from '../lib/log';
import { remember } from '../lib/remember';
import { wsHandler } from '../lib/ws';
import { fanOut, relayPosition, stopBus } from '../services/buses';
import { answerDisplay } from './display';
import { answerSubscribe } from './subscribe';

/** A connection's bus link, kept per instance: a driver sends every second, its link never changes. */
const driverLinks = new Map<string, Promise<{ schoolId: number } | null>>();
const MAX_KNOWN = 5000;

const driverSchoolOf = (connectionId: string): Promise<{ schoolId: number } | null> => {
  let known = driverLinks.get(connectionId);
  if (!known) {
    known = remember(
      driverLinks,
      connectionId,
      connections
        .get(connectionsDb(), connectionId)
        .then((connection) =>
          connection?.busLink?.kind === 'driver' ? { schoolId: connection.busLink.schoolId } : null,
        ),
      MAX_KNOWN,
    );
  }
  return known;
};

/**
 * `$default`: answers `ping` with `pong`. From a connection opened with a
 * driver link: a position of one of its school's buses is kept and relayed to
 * the school's maps, a stop takes the bus off them, a heartbeat sends what
 * is still waiting for its second. A staff connection's `subscribe` narrows
 * its car-line events to classrooms (`subscribe.ts`). From any other connection these are
 * ignored, as is anything malformed (logged).
 */
export const handler = wsHandler(async (event) => {
  const connectionId = event.requestContext.connectionId;
  let message: Partial<Extract<ClientMessage, { type: string }>> & {
    data?: { busId?: unknown; location?: unknown };
    busId?: unknown;
  };
  try {
    message = JSON.parse(event.body ?? '');
  } catch {
    log('warn', 'unparseable websocket message', { connectionId });
    return { statusCode: 200 };
  }
  const type = message?.type;
  const action = (message as { action?: unknown } | null)?.action;
  if (action === 'subscribe' || action === 'unsubscribe') {
    await answerSubscribe(connectionId, message as Record<string, unknown>);
    return { statusCode: 200 };
  }
  if (type === 'ping') {
    await live().send([connectionId], { type: 'pong' });
    return { statusCode: 200 };
  }
  if (type === 'DISPLAY_REFRESH') {
    await answerDisplay(connectionId);
    return { statusCode: 200 };
  }
  if (type !== 'BUS_LOCATION_UPDATE' && type !== 'BUS_TRACKING_STOPPED' && type !== 'heartbeat') {
    return { statusCode: 200 };
  }
  const driver = await driverSchoolOf(connectionId);
  if (!driver) {
    log('warn', 'bus message from a connection without a driver link', { connectionId, type });
    return { statusCode: 200 };
  }
  const busId = busIdSchema.safeParse(type === 'heartbeat' ? message.busId : message.data?.busId);
  if (!busId.success) return { statusCode: 200 };
  if (type === 'heartbeat') {
    await fanOut(driver.schoolId);
    return { statusCode: 200 };
  }
  if (type === 'BUS_TRACKING_STOPPED') {
    await stopBus(driver.schoolId, busId.data);
    return { statusCode: 200 };
  }
  const location = busLocationSchema.safeParse(message.data?.location);
  if (!location.success) {
    log('warn', 'bus position refused', { connectionId, issue: location.error.issues[0]?.message });
    return { statusCode: 200 };
  }
  const { speed, accuracy, heading, ...where } = location.data;
  const kept = {
    ...where,
    ...(speed != null ? { speed } : {}),
    ...(accuracy != null ? { accuracy } : {}),
    ...(heading != null ? { heading } : {}),
  };
  if (!(await relayPosition(driver.schoolId, busId.data, kept))) {
    log('warn', 'bus position for a bus not of the school', { connectionId, busId: busId.data });
  }
  return { statusCode: 200 };
});
