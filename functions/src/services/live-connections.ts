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
  const heard = request.buses ? { schools: [], children: [] } : await heardOf(user ?? null);
  await connections.put(connectionsDb(), {
    connectionId,
    channels: channelsOnConnect({ kind: 'page', user: user ?? null, buses: request.buses }),
    userId: signedIn?.id ?? null,
    sessionId: signedIn && sessionToken ? sessionIdOf(sessionToken) : null,
    connectedAt,
    ...heard,
  });
  if (user && heard.children.length > 0) await forgetUnlinkedSince(user.id, heard.children, connectionId);
  return true;
};

type Child = { schoolId: number; studentId: number };

/**
 * The schools whose car line a page's connection hears of, listed under each
 * (ADR 0027), and a parent's children in them: a staff member's school; a
 * parent's children's schools and the children (one Query of their links; a
 * child linked while the page is open is heard of from its next connection,
 * and read by the dashboard's polls meanwhile). Nobody else's.
 */
const heardOf = async (user: User | null): Promise<{ schools: number[]; children: Child[] }> => {
  const none = { schools: [], children: [] };
  if (!user) return none;
  if (isStaffRole(user.role))
    return user.schoolId === null ? none : { schools: [user.schoolId], children: [] };
  if (user.role !== 'parent') return none;
  const children = await parentLinks.childrenOf(db, user.id);
  return { schools: [...new Set(children.map((link) => link.schoolId))], children };
};

/**
 * A link removed while `$connect` ran (after it read the links, before its
 * rows were written, so the removal's `forgetChildren` did not find them):
 * read the links again, strongly consistent, now that the rows are written,
 * and take off this connection's rows the children no longer linked.
 */
const forgetUnlinkedSince = async (parentId: number, read: readonly Child[], connectionId: string) => {
  const now = await parentLinks.childrenOf(db, parentId, { consistent: true });
  const gone = read.filter(
    (child) => !now.some((link) => link.schoolId === child.schoolId && link.studentId === child.studentId),
  );
  for (const schoolId of new Set(gone.map((child) => child.schoolId))) {
    const ids = gone.filter((child) => child.schoolId === schoolId).map((child) => child.studentId);
    await connections.forgetChildren(connectionsDb(), parentId, schoolId, ids, [connectionId]);
  }
};

/**
 * A parent's links to some children of a school were removed: their open
 * pages stop hearing of those children at once (the car-line fan-out matches
 * the children kept on each connection's school row). A failure is logged:
 * the links are removed whatever happens here.
 */
export const stopHearingOf = async (parentId: number, schoolId: number, studentIds: readonly number[]) => {
  if (studentIds.length === 0) return;
  await connections.forgetChildren(connectionsDb(), parentId, schoolId, studentIds).catch((error: Error) => {
    log('warn', "parent's connections not told of removed links", { error: error.message });
  });
};
