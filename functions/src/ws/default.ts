import { type ClientMessageName, type ClientMessageOf, parseClientMessage } from '@curbside/api';
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

/** A bus message's school: the driver link's, or null (logged) from any other connection. */
const driverOf = async (connectionId: string, name: ClientMessageName) => {
  const driver = await driverSchoolOf(connectionId);
  if (!driver)
    log('warn', 'bus message from a connection without a driver link', { connectionId, type: name });
  return driver;
};

type Answer<N extends ClientMessageName> = (
  connectionId: string,
  message: ClientMessageOf<N>,
) => Promise<unknown>;

/**
 * What each message does (as the route table has a handler per route):
 * `ping` is answered with `pong`; a staff connection's subscribe narrows its
 * car-line events to classrooms (`subscribe.ts`); a display page's refresh
 * is answered with the board. From a connection opened with a driver link:
 * a position of one of its school's buses is kept and relayed to the
 * school's maps, a stop takes the bus off them, a heartbeat sends what is
 * still waiting for its second; from any other connection these are
 * ignored (logged).
 */
const ANSWERS: { [N in ClientMessageName]: Answer<N> } = {
  ping: (connectionId) => live().send([connectionId], { type: 'pong' }),
  subscribe: answerSubscribe,
  unsubscribe: answerSubscribe,
  DISPLAY_REFRESH: answerDisplay,
  heartbeat: async (connectionId) => {
    const driver = await driverOf(connectionId, 'heartbeat');
    if (driver) await fanOut(driver.schoolId);
  },
  BUS_TRACKING_STOPPED: async (connectionId, message) => {
    const driver = await driverOf(connectionId, 'BUS_TRACKING_STOPPED');
    if (driver) await stopBus(driver.schoolId, message.data.busId);
  },
  BUS_LOCATION_UPDATE: async (connectionId, { data }) => {
    const driver = await driverOf(connectionId, 'BUS_LOCATION_UPDATE');
    if (!driver) return;
    const { speed, accuracy, heading, ...where } = data.location;
    const kept = {
      ...where,
      ...(speed != null ? { speed } : {}),
      ...(accuracy != null ? { accuracy } : {}),
      ...(heading != null ? { heading } : {}),
    };
    if (!(await relayPosition(driver.schoolId, data.busId, kept))) {
      log('warn', 'bus position for a bus not of the school', { connectionId, busId: data.busId });
    }
  },
};

/**
 * `$default`: a message is checked by its schema (`CLIENT_MESSAGES` in
 * `@curbside/api`) and answered by its entry in `ANSWERS`. A message that is
 * not JSON, names no known message or fails its schema is answered with an
 * `error` message saying what is wrong (logged); the connection stays open.
 */
export const handler = wsHandler(async (event) => {
  const connectionId = event.requestContext.connectionId;
  const parsed = parseClientMessage(event.body);
  if (!parsed.ok) {
    log('warn', 'websocket message refused', { connectionId, type: parsed.name, issue: parsed.error });
    await live().send([connectionId], {
      type: 'error',
      error: parsed.error,
      ...(parsed.name ? { action: parsed.name } : {}),
    });
    return { statusCode: 200 };
  }
  await (ANSWERS[parsed.name] as Answer<typeof parsed.name>)(connectionId, parsed.message as never);
  return { statusCode: 200 };
});
