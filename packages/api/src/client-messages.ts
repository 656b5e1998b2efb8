import { busIdSchema, busLocationSchema } from '@curbside/domain';
import * as z from 'zod';

/** The most classrooms one subscribe may name. */
export const MAX_SUBSCRIBED_CLASSROOMS = 50;

const CLASSROOM_IDS = 'classroomIds must be a list of classroom ids';

/** A client's count of its subscribe messages on a connection (the last one sent must win). */
const order = z
  .number({ message: 'order must be a whole number of at least 0' })
  .int('order must be a whole number of at least 0')
  .min(0, 'order must be a whole number of at least 0')
  .optional();

/**
 * What a client sends on its connection (specification §7), one schema per
 * message, as the route table has one per route: `ping` every 30 s; a staff
 * screen's subscribe to classrooms (issue 31); a display page's refresh; the
 * driver page (opened with the driver link) a heartbeat every 15 s, each
 * position and the stop. A message is named by its `action` (subscribe,
 * unsubscribe) or its `type` (the others): `clientMessageName`.
 */
export const CLIENT_MESSAGES = {
  ping: z.object({ type: z.literal('ping') }),
  /**
   * A staff connection narrows its car-line events to these classrooms
   * (again: switches at once); answered with `SubscribedMessage`, or an
   * `ErrorMessage` when malformed. `order` counts the client's subscribe
   * messages on the connection: one older than a message already applied
   * changes nothing and is answered with what the connection follows (the
   * server may handle a connection's messages out of order).
   */
  subscribe: z.object({
    action: z.literal('subscribe'),
    classroomIds: z
      .array(z.number({ message: CLASSROOM_IDS }).int(CLASSROOM_IDS).positive(CLASSROOM_IDS), {
        message: CLASSROOM_IDS,
      })
      .max(
        MAX_SUBSCRIBED_CLASSROOMS,
        `At most ${MAX_SUBSCRIBED_CLASSROOMS} classrooms can be followed at once`,
      ),
    order,
  }),
  /** Back to every car-line event of the school; answered `{ type: 'subscribed', classroomIds: null }`. */
  unsubscribe: z.object({ action: z.literal('unsubscribe'), order }),
  /** A display page asks for the board as it is now (on opening, after a reconnect). */
  DISPLAY_REFRESH: z.object({ type: z.literal('DISPLAY_REFRESH') }),
  heartbeat: z.object({ type: z.literal('heartbeat'), busId: busIdSchema }),
  BUS_LOCATION_UPDATE: z.object({
    type: z.literal('BUS_LOCATION_UPDATE'),
    data: z.object({ busId: busIdSchema, location: busLocationSchema }),
  }),
  BUS_TRACKING_STOPPED: z.object({
    type: z.literal('BUS_TRACKING_STOPPED'),
    data: z.object({ busId: busIdSchema }),
  }),
} as const;

export type ClientMessageName = keyof typeof CLIENT_MESSAGES;
export type ClientMessageOf<N extends ClientMessageName> = z.infer<(typeof CLIENT_MESSAGES)[N]>;
/** Anything a client may send (what `CLIENT_MESSAGES` accepts). */
export type ClientMessage = { [N in ClientMessageName]: ClientMessageOf<N> }[ClientMessageName];

const isName = (value: unknown): value is ClientMessageName =>
  typeof value === 'string' && Object.hasOwn(CLIENT_MESSAGES, value);

/** A message's name: its `action` if it has one, else its `type`; undefined when it names no known message. */
export const clientMessageName = (message: unknown): ClientMessageName | undefined => {
  if (typeof message !== 'object' || message === null) return undefined;
  const { action, type } = message as { action?: unknown; type?: unknown };
  const name = action ?? type;
  return isName(name) ? name : undefined;
};

export type ParsedClientMessage =
  | { [N in ClientMessageName]: { ok: true; name: N; message: ClientMessageOf<N> } }[ClientMessageName]
  | { ok: false; name: ClientMessageName | undefined; error: string };

/**
 * A message as the server reads it: its text parsed as JSON, named, and
 * checked by its schema; else what is wrong with it (never a throw).
 */
export const parseClientMessage = (text: string | undefined): ParsedClientMessage => {
  let raw: unknown;
  try {
    raw = JSON.parse(text ?? '');
  } catch {
    return { ok: false, name: undefined, error: 'A message must be JSON' };
  }
  const name = clientMessageName(raw);
  if (!name) return { ok: false, name, error: 'Unknown message' };
  const parsed = CLIENT_MESSAGES[name].safeParse(raw);
  if (!parsed.success)
    return { ok: false, name, error: parsed.error.issues[0]?.message ?? 'Invalid message' };
  return { ok: true, name, message: parsed.data } as ParsedClientMessage;
};
