import { channelsOnConnect, type LiveCaller } from '@curbside/api';
import { isStaffRole, type User } from '@curbside/domain';
import { busLinks, connections, displayLinks, parentLinks, sessionIdOf } from '@curbside/store';
import { userOfToken } from '../lib/auth';
import { connectionsDb, db } from '../lib/context';
import { log } from '../lib/log';

/** What `$connect` read of the request: a link's token (`?t=`), the session cookie's, the bus map's `?buses=1`. */
export interface ConnectRequest {
  connectionId: string;
  linkToken: string | undefined;
  sessionToken: string | undefined;
  buses: boolean;
}

/**
 * Opens a live connection: who is calling (a bus or display link, else the
 * session cookie's user), the channels that caller joins
 * (`channelsOnConnect`), kept with the connection. Answers false when a link
 * is not (or no longer) valid: the connection is refused.
 */
export const openConnection = async (request: ConnectRequest): Promise<boolean> => {
  const { connectionId, linkToken, sessionToken } = request;
  const connectedAt = new Date().toISOString();
  if (linkToken !== undefined) {
    const busLink = await busLinks.holderOf(db, linkToken);
    const displaySchool = busLink ? undefined : await displayLinks.schoolOf(db, linkToken);
    if (!busLink && displaySchool === undefined) {
      log('info', 'websocket refused: not a bus or display link');
      return false;
    }
    const caller: LiveCaller = busLink
      ? { kind: 'busLink', schoolId: busLink.schoolId, link: busLink.kind }
      : { kind: 'display', schoolId: displaySchool as number };
    await connections.put(connectionsDb(), {
      connectionId,
      channels: channelsOnConnect(caller),
      userId: null,
      sessionId: null,
      connectedAt,
      ...(busLink ? { busLink } : {}),
      ...(busLink ? {} : { schools: [displaySchool as number] }),
    });
    return true;
  }
  const signedIn = await userOfToken(sessionToken);
  // Signed in with a one-time password not yet replaced: nothing but pongs until they choose their own.
  const user = signedIn?.mustChangePassword ? null : signedIn;
  await connections.put(connectionsDb(), {
    connectionId,
    channels: channelsOnConnect({ kind: 'page', user: user ?? null, buses: request.buses }),
    userId: signedIn?.id ?? null,
    sessionId: signedIn && sessionToken ? sessionIdOf(sessionToken) : null,
    connectedAt,
    schools: request.buses ? [] : await schoolsHeardOf(user ?? null),
  });
  return true;
};

/**
 * The schools whose car line a page's connection hears of, listed under each
 * (ADR 0027): a staff member's school; a parent's children's schools (one
 * Query of their links; a child linked in a new school while the page is open
 * is heard of from its next connection, and read by the dashboard's polls
 * meanwhile). Nobody else's.
 */
const schoolsHeardOf = async (user: User | null): Promise<number[]> => {
  if (!user) return [];
  if (isStaffRole(user.role)) return user.schoolId === null ? [] : [user.schoolId];
  if (user.role !== 'parent') return [];
  return [...new Set((await parentLinks.childrenOf(db, user.id)).map((link) => link.schoolId))];
};
