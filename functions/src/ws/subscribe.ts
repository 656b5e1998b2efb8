import { channels, MAX_SUBSCRIBED_CLASSROOMS, type ServerMessage } from '@curbside/api';
import { classrooms, connections } from '@curbside/store';
import { connectionsDb, db } from '../lib/context';
import { live } from '../lib/live';
import { log } from '../lib/log';

const STAFF_CHANNEL = /^school#(\d+)#staff$/;

/** What a school's classroom channels start with (`channels.classroom`). */
const classroomPrefix = (schoolId: number) => `school#${schoolId}#classroom#`;

/** A connection's narrowing channels: the classrooms' and the narrowed list's. */
const isNarrowing = (schoolId: number, channel: string) =>
  channel === channels.narrowed(schoolId) || channel.startsWith(classroomPrefix(schoolId));

/** The classrooms a connection with these channels follows, or null: the whole line. */
const followedIn = (schoolId: number, channelsNow: readonly string[]): number[] | null => {
  if (channelsNow.includes(channels.line(schoolId))) return null;
  const prefix = classroomPrefix(schoolId);
  return channelsNow
    .filter((channel) => channel.startsWith(prefix))
    .map((channel) => Number(channel.slice(prefix.length)));
};

const answer = (connectionId: string, message: ServerMessage) => live().send([connectionId], message);

const refuse = (connectionId: string, action: string, error: string) => {
  log('info', 'websocket subscribe refused', { connectionId, error });
  return answer(connectionId, { type: 'error', action, error });
};

/** The classroom ids of a subscribe message, or what is wrong with them. */
const classroomIdsOf = (value: unknown): number[] | string => {
  if (!Array.isArray(value)) return 'classroomIds must be a list of classroom ids';
  if (value.length > MAX_SUBSCRIBED_CLASSROOMS)
    return `At most ${MAX_SUBSCRIBED_CLASSROOMS} classrooms can be followed at once`;
  if (!value.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0))
    return 'classroomIds must be a list of classroom ids';
  return value as number[];
};

/** A message's `order` (the client's count of its subscribe messages), or what is wrong with it. */
const orderOf = (value: unknown): number | undefined | string =>
  value === undefined
    ? undefined
    : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? value
      : 'order must be a whole number of at least 0';

/**
 * `{ "action": "subscribe", "classroomIds": [..] }` (issue 31, ADR 0018): a
 * staff connection narrows its car-line events to these classrooms of its
 * own school (another school's ids and unknown ones are dropped), or switches
 * to them at once when it had subscribed before; answered `subscribed` with
 * the classrooms it now follows. `{ "action": "unsubscribe" }` brings back
 * every car-line event of the school. Anything malformed, or from a
 * connection that is not a school's staff, is answered with an `error`
 * message; the connection stays open. With an `order` (the client's count
 * of its subscribe messages), a message older than one already applied
 * changes nothing and is answered with what the connection follows:
 * separate invocations handle a connection's messages in no set order, and
 * the last one the screen sent must win.
 */
export const answerSubscribe = async (connectionId: string, message: Record<string, unknown>) => {
  const action = String(message.action);
  const wanted = action === 'unsubscribe' ? null : classroomIdsOf(message.classroomIds);
  if (typeof wanted === 'string') return refuse(connectionId, action, wanted);
  const order = orderOf(message.order);
  if (typeof order === 'string') return refuse(connectionId, action, order);
  const connection = await connections.get(connectionsDb(), connectionId);
  const match = connection?.channels.map((channel) => STAFF_CHANNEL.exec(channel)).find(Boolean);
  if (!match) return refuse(connectionId, action, 'Only a school’s staff can subscribe to classrooms');
  const schoolId = Number(match[1]);
  const followed = wanted === null ? null : await classrooms.existing(db, schoolId, wanted);
  const now = await connections.rechannel(
    connectionsDb(),
    connectionId,
    (before) => [
      ...before.filter((channel) => channel !== channels.line(schoolId) && !isNarrowing(schoolId, channel)),
      ...(followed === null
        ? [channels.line(schoolId)]
        : [channels.narrowed(schoolId), ...followed.map((id) => channels.classroom(schoolId, id))]),
    ],
    order,
  );
  if (!now) return;
  // What the connection follows now: this message's classrooms, or a newer one's (stale).
  await answer(connectionId, { type: 'subscribed', classroomIds: followedIn(schoolId, now.channels) });
};
