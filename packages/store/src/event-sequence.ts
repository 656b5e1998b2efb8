import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { VehicleType } from '@curbside/domain';
import { isConditionFailure } from './condition';
import type { Db } from './db';
import { itemAt, type KeyedRead } from './keyed-read';
import { meter } from './meter';

/**
 * The live-event sequence of a session: `SESSION#{sessionId}` / `EVENT_SEQ`,
 * raised with ADD once per event published for the session, so screens see
 * 1, 2, 3, … and know when they missed one.
 *
 * Kept in the live-connection table (ADR 0005; ADR 0027 "(h54zi)"), not the
 * data table: DynamoDB Local locks a table for each write, so a number taken
 * on the data table waited behind every transaction of the school (and held
 * up its reads); the live stream's numbers are the live table's. The item is
 * made with the session (`begun`, in its creation's transaction). A session
 * that ran before the move has its number on the data table: its first event
 * since finds no item here, reads the old one and starts from its number
 * (`startFromData`), so the number never goes back.
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

/**
 * How long the item outlives the session's last event (`ttl`, the live table's
 * expiry): a week, far beyond any session and any live connection (2 hours at
 * most, and a screen that connects again starts its count again).
 */
const KEPT_AFTER_LAST_EVENT_S = 7 * 24 * 60 * 60;
const ttlOf = (now = Date.now()) => Math.floor(now / 1000) + KEPT_AFTER_LAST_EVENT_S;

/** Where a session's number is kept (`live`), and the data table it was kept in before the move (`data`). */
export interface SequenceTables {
  live: Db;
  data: Db;
}

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

/** The sample's shift as the update's SETs (`shiftInto`), none without a sample. */
const shiftOf = (sample: SampleChange | undefined) =>
  sample === undefined
    ? undefined
    : 'pickedUp' in sample
      ? shiftInto(
          'p',
          PICKUPS_KEPT,
          [...sample.pickedUp].sort((a, b) => (a.exitTime < b.exitTime ? 1 : -1)).map(encode),
        )
      : shiftInto('u', UNDONE_KEPT, [tokenOf(sample.undone)]);

/** The registers' attributes of an item (`p0`…, `u0`…), as `shiftInto` would leave them after `shift`. */
const registersAfter = (item: Record<string, unknown> | undefined, sample: SampleChange | undefined) => {
  const shift = shiftOf(sample);
  const after: Record<string, unknown> = {};
  for (const [name, size] of [
    ['p', PICKUPS_KEPT],
    ['u', UNDONE_KEPT],
  ] as const) {
    const added = Object.keys(shift?.attributeValues ?? {}).filter((value) =>
      value.startsWith(`:${name}`),
    ).length;
    for (let i = 0; i < size; i++) {
      const value =
        i < added
          ? shift?.attributeValues[`:${name}${i}`]
          : (item?.[`${name}${i - added}`] ?? (added > 0 ? NONE : undefined));
      if (value !== undefined) after[`${name}${i}`] = value;
    }
  }
  return after;
};

/** Tries of `next` when its item is being made by another event's first write at the same moment. */
const MADE_ATTEMPTS = 3;

export const eventSequence = {
  /**
   * The session's next event number; `sample`: the pickups (or the Undo) the
   * event is about, kept in the same write. One UpdateItem on the live table;
   * for a session begun before the move, its first event's three (`startFromData`).
   */
  async next(tables: SequenceTables, sessionId: number, sample?: SampleChange): Promise<number> {
    const shift = shiftOf(sample);
    const withSample = shift !== undefined && shift.sets.length > 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const { Attributes, ConsumedCapacity } = await tables.live.doc.send(
          new UpdateCommand({
            TableName: tables.live.table,
            Key: key(sessionId),
            UpdateExpression: `SET ${withSample ? `${shift.sets.join(', ')}, ` : ''}#ttl = :ttl ADD #value :one`,
            // Only where the session's number is already kept here: never started again from 1.
            ConditionExpression: 'attribute_exists(#value)',
            ExpressionAttributeNames: { '#value': 'value', '#ttl': 'ttl' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':ttl': ttlOf(),
              ...(withSample ? { ...shift.attributeValues, ':none': NONE } : {}),
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        // Metered apart as well, so the benchmark can tell the queue's own writes from the sequence's.
        meter.add('ddb.sequenceWriteUnits', ConsumedCapacity?.CapacityUnits ?? 1);
        return Number(Attributes?.value);
      } catch (error) {
        if (!isConditionFailure(error) || attempt >= MADE_ATTEMPTS) throw error;
      }
      const started = await startFromData(tables, sessionId, sample);
      if (started !== undefined) return started;
    }
  },

  /**
   * The item of a new session, number 0, as an Update of its creation's
   * transaction (`pickupSessions.create`): its first event is 1, in one write.
   */
  begun(live: Db, sessionId: number) {
    return {
      Update: {
        TableName: live.table,
        Key: key(sessionId),
        UpdateExpression: 'SET #value = if_not_exists(#value, :zero), #ttl = :ttl',
        ExpressionAttributeNames: { '#value': 'value', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':zero': 0, ':ttl': ttlOf() },
      },
    };
  },

  /**
   * The session's latest pickups kept for the wait estimate, newest first,
   * less those Undo took back, as a keyed read (the parent's poll reads it with
   * its sign-in, eventually consistent: a pickup of the last moment may be
   * missing, as it was from the pickups' index before). `liveTable`: the
   * live-connection table's name, where the item is (the poll's BatchGetItem
   * reads it beside the data table's keys, one call).
   */
  keyedLatestPickups(sessionId: number, liveTable: string): KeyedRead<SampledPickup[]> {
    const at = { ...key(sessionId), table: liveTable };
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

/**
 * A session's first event since its number moved to the live table: the
 * number kept on the data table before (strongly consistent; none: 0) and
 * one more, with the registers of the pickups' sample, written as the live
 * item, only if no other event made it meanwhile (then undefined: the caller
 * takes its number there). So a screen that saw the old item's numbers sees
 * the next one, never a number again from 1.
 */
const startFromData = async (
  tables: SequenceTables,
  sessionId: number,
  sample: SampleChange | undefined,
): Promise<number | undefined> => {
  const { Item: before } = await tables.data.doc.send(
    new GetCommand({ TableName: tables.data.table, Key: key(sessionId), ConsistentRead: true }),
  );
  const value = Number(before?.value ?? 0) + 1;
  const registers = registersAfter(before, sample);
  const names = Object.keys(registers);
  try {
    await tables.live.doc.send(
      new UpdateCommand({
        TableName: tables.live.table,
        Key: key(sessionId),
        UpdateExpression: `SET ${[...names.map((name) => `${name} = :${name}`), '#value = :value', '#ttl = :ttl'].join(', ')}`,
        ConditionExpression: 'attribute_not_exists(#value)',
        ExpressionAttributeNames: { '#value': 'value', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name) => [`:${name}`, registers[name]])),
          ':value': value,
          ':ttl': ttlOf(),
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
  meter.add('ddb.sequenceWriteUnits', 1);
  return value;
};
