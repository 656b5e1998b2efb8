import { randomInt } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  DismissalEvent,
  DismissalEventBody,
  DismissalEventKind,
  EventEntry,
  Recording,
  ReportSummary,
} from '@curbside/domain';
import { getAll, rewriteAll, rewritePartition } from './batch-write';
import type { Db } from './db';
import { stripKeys } from './ids';
import { itemSize, meter } from './meter';
import { decodeCursor, encodeCursor, queryAll, queryPage } from './query';

/**
 * The dismissal's record: append-only events, one partition per session,
 * `EVENTS#{sessionId}` / `{at}#{seq:02}{nonce}` (oldest first by sort key).
 * Every writer of a pickup session adds `eventPuts(…)` to the TransactItems
 * of its own change, so a change and its record commit together or not at
 * all; each Put is conditioned on the key being new, so nothing ever
 * overwrites an event. No function here updates or deletes one: events leave
 * only by TTL (`ttl` = time + the school's retention days).
 */
const partition = (sessionId: number) => `EVENTS#${sessionId}`;
const DAY_SECONDS = 24 * 60 * 60;
const NONCE = 'abcdefghijklmnopqrstuvwxyz0123456789';
const nonce = () => Array.from({ length: 4 }, () => NONCE[randomInt(NONCE.length)]).join('');

/** DynamoDB's transaction limit. */
export const TRANSACTION_ITEM_LIMIT = 100;
/** An event item's target size: one write unit (1 KB) with room for the keys. */
const TARGET_BYTES = 900;

/** Where a change happened: its school and session. */
export interface EventScope {
  schoolId: number;
  sessionId: number;
}

const itemOf = (
  scope: EventScope,
  at: string,
  seq: number,
  body: DismissalEventBody,
  recording: Recording,
) => {
  const sk = `${at}#${String(seq).padStart(2, '0')}${nonce()}`;
  const event: DismissalEvent = {
    id: sk,
    schoolId: scope.schoolId,
    sessionId: scope.sessionId,
    at,
    actor: recording.actor,
    ...body,
  };
  return {
    pk: partition(scope.sessionId),
    sk,
    entity: 'dismissalEvent',
    ...event,
    ttl: Math.ceil(Date.parse(at) / 1000) + recording.retentionDays * DAY_SECONDS,
  };
};

/**
 * The Put items of a change's events, for its transaction: one per body, each
 * only if its key is new (never an overwrite).
 */
export const eventPuts = (
  db: Db,
  scope: EventScope,
  at: string,
  bodies: readonly DismissalEventBody[],
  recording: Recording,
) => {
  const puts = bodies.map((body, seq) => ({
    Put: {
      TableName: db.table,
      Item: itemOf(scope, at, seq, body, recording),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
  // The benchmark tells the record's write units apart: 2 per KB of each event (it rides in a transaction).
  meter.add(
    'ddb.recordWriteUnits',
    puts.reduce((sum, put) => sum + 2 * writeUnits(put.Put.Item), 0),
  );
  return puts;
};

const writeUnits = (item: Record<string, unknown>) => Math.max(1, Math.ceil(itemSize(item) / 1024));

/**
 * What a change that would be one PutItem pays more for riding in a
 * transaction with its record (its item's table write counts twice), counted
 * with the record's units for the benchmark.
 */
export const meterTransactionSurcharge = (item: Record<string, unknown>) =>
  meter.add('ddb.recordWriteUnits', writeUnits(item));

/**
 * An alert's event (raised, dismissed, …) for its change's transaction: only
 * an alert of a session is part of a dismissal's record (none without one).
 */
export const alertEventPuts = (
  db: Db,
  alert: { id: number; schoolId: number; sessionId: number | null; type: string; location: string },
  kind: DismissalEventKind,
  at: string,
  recording: Recording,
) =>
  alert.sessionId === null
    ? []
    : eventPuts(
        db,
        { schoolId: alert.schoolId, sessionId: alert.sessionId },
        at,
        [{ kind, entries: [], alert: { id: alert.id, type: alert.type, location: alert.location } }],
        recording,
      );

/**
 * One kind of event about many visits (a batch's completion, a batch filled at
 * creation), packed into as few items as keep each near one write unit, and
 * never more than `slots` items (what the transaction has room for).
 */
export const packEntries = (
  body: Omit<DismissalEventBody, 'entries'>,
  entries: readonly EventEntry[],
  slots: number,
): DismissalEventBody[] => {
  if (entries.length === 0) return [{ ...body, entries: [] }];
  const base = itemSize({ ...body, entries: [] }) + 250;
  const groups: EventEntry[][] = [[]];
  let size = base;
  for (const entry of entries) {
    const bytes = itemSize({ entry }) + 1;
    const group = groups[groups.length - 1] as EventEntry[];
    if (group.length > 0 && size + bytes > TARGET_BYTES) {
      groups.push([entry]);
      size = base + bytes;
    } else {
      group.push(entry);
      size += bytes;
    }
  }
  if (groups.length > slots) {
    // No room for that many items: spread the visits evenly over the slots left.
    const per = Math.ceil(entries.length / Math.max(1, slots));
    const even: EventEntry[][] = [];
    for (let i = 0; i < entries.length; i += per) even.push(entries.slice(i, i + per));
    return even.map((group) => ({ ...body, entries: group }));
  }
  return groups.map((group) => ({ ...body, entries: group }));
};

const fromItem = (item: Record<string, unknown>) => stripKeys<DismissalEvent>(item);
/** TTL deletes late: an event past its retention is left out by every read. */
const kept = (now: number) => (item: Record<string, unknown>) =>
  typeof item.ttl !== 'number' || item.ttl * 1000 > now;

export const dismissalEvents = {
  /**
   * Rewrites a session's events (a student's erasure, issue 55: the one
   * change to the record, which then keeps that a release happened, not to whom).
   */
  async rewriteSession(
    db: Db,
    sessionId: number,
    rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<number> {
    return rewritePartition(db, partition(sessionId), rewrite);
  },

  /** A session's events, oldest first, a page at a time (`cursor` from the previous page). */
  async page(
    db: Db,
    sessionId: number,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: DismissalEvent[]; next: string | null }> {
    const start = decodeCursor(
      options.cursor,
      { pk: partition(sessionId) },
      ['pk', 'sk'],
      // An event's sort key: its time, then its order within the change.
      (key) => /^\d{4}-\d\d-\d\dT/.test(String(key.sk)),
    );
    const { items, last } = await queryPage(
      db,
      {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(sessionId) },
      },
      {
        limit: options.limit,
        ...(start ? { start } : {}),
        keyOf: (item) => ({ pk: item.pk, sk: item.sk }),
      },
    );
    return { items: items.filter(kept(Date.now())).map(fromItem), next: encodeCursor(last) };
  },

  /** Every event of a session, oldest first (all pages). */
  async ofSession(db: Db, sessionId: number): Promise<DismissalEvent[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition(sessionId) },
    });
    return items.filter(kept(Date.now())).map(fromItem);
  },
};

/**
 * An ended session's summary, computed once from its events and kept beside
 * the session (`SESSION#{id}` / `RECORD_SUMMARY`, same TTL as its events), so
 * session lists and district reports do not read every event again. The
 * waits (seconds, sorted) let a report over many sessions take true medians.
 */
export interface StoredSummary {
  sessionId: number;
  summary: ReportSummary;
  waits: number[];
}
const summaryKey = (sessionId: number) => ({ pk: `SESSION#${sessionId}`, sk: 'RECORD_SUMMARY' });

export const recordSummaries = {
  /**
   * The kept summaries of some sessions (BatchGetItem); sessions without one
   * are absent, and so are summaries past their retention (TTL deletes late).
   */
  async ofSessions(db: Db, sessionIds: readonly number[]): Promise<Map<number, StoredSummary>> {
    const items = (await getAll(db, sessionIds.map(summaryKey))).filter(kept(Date.now()));
    return new Map(items.map((item) => [item.sessionId as number, stripKeys<StoredSummary>(item)]));
  },

  /** Rewrites the kept summaries of some sessions (a student's erasure, issue 55). */
  async rewrite(
    db: Db,
    sessionIds: readonly number[],
    rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<number> {
    return rewriteAll(db, await getAll(db, sessionIds.map(summaryKey)), rewrite);
  },

  /**
   * Keeps an ended session's summary (derived data: a rewrite is harmless),
   * until its session's events leave: retention days from the session's end
   * (`endedAt`), not from the day it was first computed.
   */
  async keep(db: Db, stored: StoredSummary, retentionDays: number, endedAt?: string): Promise<void> {
    const end = endedAt ? Date.parse(endedAt) : Number.NaN;
    const from = Number.isNaN(end) ? Date.now() : Math.min(Date.now(), end);
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...summaryKey(stored.sessionId),
          entity: 'recordSummary',
          ...stored,
          ttl: Math.ceil(from / 1000) + retentionDays * DAY_SECONDS,
        },
      }),
    );
  },
};
