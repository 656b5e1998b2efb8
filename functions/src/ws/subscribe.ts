import { type ClientMessageOf, channels, type ServerMessage } from '@curbside/api';
import { classrooms, connections } from '@curbside/store';
import { connectionsDb, db } from '../lib/context';
import { live } from '../lib/live';
import { log } from '../lib/log';

/** A connection's narrowing channels: the classrooms' and the narrowed list's. */
const isNarrowing = (schoolId: number, channel: string) => {
  const parsed = channels.parse(channel);
  return (parsed?.kind === 'narrowed' || parsed?.kind === 'classroom') && parsed.schoolId === schoolId;
};

/** The classrooms a connection with these channels follows, or null: the whole line. */
const followedIn = (schoolId: number, channelsNow: readonly string[]): number[] | null => {
  if (channelsNow.includes(channels.line(schoolId))) return null;
  return channelsNow.flatMap((channel) => {
    const parsed = channels.parse(channel);
    return parsed?.kind === 'classroom' && parsed.schoolId === schoolId ? [parsed.classroomId] : [];
  });
};

/** The school whose staff channel a connection joined, if any. */
const staffSchoolOf = (channelsNow: readonly string[]): number | undefined => {
  for (const name of channelsNow) {
    const channel = channels.parse(name);
    if (channel?.kind === 'staff') return channel.schoolId;
  }
  return undefined;
};

const answer = (connectionId: string, message: ServerMessage) => live().send([connectionId], message);

/**
 * `{ "action": "subscribe", "classroomIds": [..] }` (issue 31, ADR 0018): a
 * staff connection narrows its car-line events to these classrooms of its
 * own school (another school's ids and unknown ones are dropped), or switches
 * to them at once when it had subscribed before; answered `subscribed` with
 * the classrooms it now follows. `{ "action": "unsubscribe" }` brings back
 * every car-line event of the school. A message from a connection that is
 * not a school's staff is answered with an `error` message (a malformed one
 * never reaches here: `$default` answers it); the connection stays open.
 * With an `order` (the client's count of its subscribe messages), a message
 * older than one already applied changes nothing and is answered with what
 * the connection follows: separate invocations handle a connection's
 * messages in no set order, and the last one the screen sent must win.
 */
export const answerSubscribe = async (
  connectionId: string,
  message: ClientMessageOf<'subscribe'> | ClientMessageOf<'unsubscribe'>,
) => {
  const connection = await connections.get(connectionsDb(), connectionId);
  const schoolId = staffSchoolOf(connection?.channels ?? []);
  if (schoolId === undefined) {
    const error = 'Only a school’s staff can subscribe to classrooms';
    log('info', 'websocket subscribe refused', { connectionId, error });
    return answer(connectionId, { type: 'error', action: message.action, error });
  }
  const followed =
    message.action === 'unsubscribe' ? null : await classrooms.existing(db, schoolId, message.classroomIds);
  const now = await connections.rechannel(
    connectionsDb(),
    connectionId,
    (before) => [
      ...before.filter((channel) => channel !== channels.line(schoolId) && !isNarrowing(schoolId, channel)),
      ...(followed === null
        ? [channels.line(schoolId)]
        : [channels.narrowed(schoolId), ...followed.map((id) => channels.classroom(schoolId, id))]),
    ],
    message.order,
  );
  if (!now) return;
  // What the connection follows now: this message's classrooms, or a newer one's (stale).
  await answer(connectionId, { type: 'subscribed', classroomIds: followedIn(schoolId, now.channels) });
};
