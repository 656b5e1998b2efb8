import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { VehicleType } from '@curbside/domain';
import type { Db } from './db';
import { itemAt, type KeyedRead } from './keyed-read';
import { meter } from './meter';

/**
 * The live-event sequence of a session: `SESSION#{sessionId}` / `EVENT_SEQ`,
 * raised with ADD once per event published for the session, so screens see
 * 1, 2, 3, … and know when they missed one.
 *
 * The same item keeps the session's latest pickups for the parents' wait
 * estimate (issue 54, ADR 0027 "The parent's poll in 2 calls"): the pickups'
 * own number-taking UpdateItem shifts them into two registers of fixed
 * attributes, `p0` the newest … `p{PICKUPS_KEPT − 1}` the oldest pickups, and
 * `u0` … the latest pickups Undo took back, so the item stays under 1 KB (one
 * write unit, as before) and a poll reads it by key. An UpdateItem, never a
 * transaction, writes it: every change of a busy session writing it at once
 * is applied one after the other, none cancelled.
 */
const key = (sessionId: number) => ({ pk: `SESSION#${sessionId}`, sk: 'EVENT_SEQ' });

/** How many of a session's latest pickups the item keeps (the estimate uses 30; room for two taken back). */
export const PICKUPS_KEPT = 32;
/** How many of the pickups Undo took back the item keeps (an Undo is possible for 60 s). */
export const UNDONE_KEPT = 8;

/** A pickup as the sample keeps it: its vehicle type, when it was completed, and which visit it was. */
export interface SampledPickup {
  vehicleType: VehicleType;
  exitTime: string;
  /** The visit's id (its `nonce` and exit time tell it apart in the sample). */
  id: string;
}

/** What a change adds to the sample: the visits it completed, or the pickup Undo took back. */
export type SampleChange = { pickedUp: readonly SampledPickup[] } | { undone: SampledPickup };

/** A pickup in a few bytes: `c`/`b`, its exit time in ms (base 36) and the visit id's last 3 characters. */
const tokenOf = ({ exitTime, id }: Pick<SampledPickup, 'exitTime' | 'id'>) =>
  `${Date.parse(exitTime).toString(36)}.${id.slice(-3)}`;
const encode = (pickup: SampledPickup) => `${pickup.vehicleType === 'bus' ? 'b' : 'c'}${tokenOf(pickup)}`;

/**
 * The update that shifts `values` (newest first) into the register `name`0…`name`{size − 1}:
 * every SET reads the item as it was before the update, so `p3 = p1` moves the old `p1`.
 */
const shiftInto = (name: string, size: number, values: readonly string[]) => {
  const added = values.slice(0, size);
  const sets: string[] = [];
  const attributeValues: Record<string, string> = {};
  added.forEach((value, i) => {
    sets.push(`${name}${i} = :${name}${i}`);
    attributeValues[`:${name}${i}`] = value;
  });
  for (let i = added.length; i < size; i++)
    sets.push(`${name}${i} = if_not_exists(${name}${i - added.length}, :none)`);
  return { sets, attributeValues };
};

const NONE = '-';

export const eventSequence = {
  /** The session's next event number; `sample`: the pickups (or the Undo) the event is about, kept in the same write. */
  async next(db: Db, sessionId: number, sample?: SampleChange): Promise<number> {
    const shift =
      sample === undefined
        ? undefined
        : 'pickedUp' in sample
          ? shiftInto(
              'p',
              PICKUPS_KEPT,
              [...sample.pickedUp].sort((a, b) => (a.exitTime < b.exitTime ? 1 : -1)).map(encode),
            )
          : shiftInto('u', UNDONE_KEPT, [tokenOf(sample.undone)]);
    const withSample = shift !== undefined && shift.sets.length > 0;
    const { Attributes, ConsumedCapacity } = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key(sessionId),
        UpdateExpression: `${withSample ? `SET ${shift.sets.join(', ')} ` : ''}ADD #value :one`,
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: {
          ':one': 1,
          ...(withSample ? { ...shift.attributeValues, ':none': NONE } : {}),
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    // Metered apart as well, so the benchmark can tell the queue's own writes from the sequence's.
    meter.add('ddb.sequenceWriteUnits', ConsumedCapacity?.CapacityUnits ?? 1);
    return Number(Attributes?.value);
  },

  /**
   * The session's latest pickups kept for the wait estimate, newest first,
   * less those Undo took back, as a keyed read (the parent's poll reads it with
   * its sign-in, eventually consistent: a pickup of the last moment may be
   * missing, as it was from the pickups' index before).
   */
  keyedLatestPickups(sessionId: number): KeyedRead<SampledPickup[]> {
    const at = key(sessionId);
    return {
      keys: [at],
      from: (found) => {
        const item = itemAt(found, at);
        if (!item) return [];
        const undone = new Set<string>();
        for (let i = 0; i < UNDONE_KEPT; i++) {
          const token = item[`u${i}`];
          if (typeof token === 'string' && token !== NONE) undone.add(token);
        }
        const pickups: SampledPickup[] = [];
        for (let i = 0; i < PICKUPS_KEPT; i++) {
          const value = item[`p${i}`];
          if (typeof value !== 'string' || value === NONE || undone.has(value.slice(1))) continue;
          const [time, nonce] = value.slice(1).split('.');
          const ms = Number.parseInt(time ?? '', 36);
          if (!Number.isFinite(ms) || !nonce) continue;
          pickups.push({
            vehicleType: value.startsWith('b') ? 'bus' : 'car',
            exitTime: new Date(ms).toISOString(),
            id: nonce,
          });
        }
        return pickups.sort((a, b) => (a.exitTime < b.exitTime ? 1 : -1));
      },
    };
  },
};
