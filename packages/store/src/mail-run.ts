import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { backoffMs, sleep } from '@curbside/domain';
import { putAll } from './batch-write';
import type { Db } from './db';
import { stripKeys } from './ids';
import { cancellationReasons, isConditionFailure } from './query';
import { TTL_ATTRIBUTE } from './table';

/**
 * Mail runs (emailed parent invites, issue 29; a parent's password-reset
 * link, issue 50, under `ACCOUNT_MAIL_SCHOOL`): the messages one request
 * queued, sent after its answer by the mail sender, and their counters.
 *
 * - The run: `SCHOOL#{schoolId}#MAILRUN#{runId}` / `RUN` → who started it,
 *   the school's name for the messages, `queued`, `skipped`, `sent`,
 *   `failed`, when a message was last settled (`updatedAt`), `finishedAt`.
 * - Each message, in the run's partition: `MESSAGE#{n:05}` → the address,
 *   what the message says of the child, the invite's link (its token, which
 *   the invite itself keeps only hashed) and `status`: `queued` → `sending`
 *   (claimed by one sender invocation, `claimedBy`) → `sent` or `failed`.
 *   Only a queued message can be claimed, so none is sent twice; settling it
 *   removes the link and counts it on the run in one transaction.
 *
 * Runs are kept 30 days; messages 7 (an unsent link goes with them).
 */
const RUN_DAYS = 30;
const MESSAGE_DAYS = 7;
const partition = (schoolId: number, runId: string) => `SCHOOL#${schoolId}#MAILRUN#${runId}`;
const runKey = (schoolId: number, runId: string) => ({ pk: partition(schoolId, runId), sk: 'RUN' });
const MESSAGE_PREFIX = 'MESSAGE#';
const messageSk = (n: number) => `${MESSAGE_PREFIX}${String(n).padStart(5, '0')}`;
/** Tries of a settling transaction that DynamoDB cancelled for a conflict on the run's counters. */
const SETTLE_ATTEMPTS = 8;
const ttlIn = (days: number) => Math.ceil(Date.now() / 1000) + days * 86_400;

export interface MailRun {
  schoolId: number;
  runId: string;
  /** The user who started it (a teacher reads only their own runs). */
  startedBy: number;
  schoolName: string;
  /** The school's time zone (issue 51), for the days a message names; absent on runs made before. */
  timeZone?: string;
  createdAt: string;
  queued: number;
  skipped: number;
  sent: number;
  failed: number;
  /** Last time a message of the run was settled. */
  updatedAt: string;
  finishedAt: string | null;
}

export type MailMessageStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** An invite: what the message says, rendered by the sender (`inviteEmail`). */
export interface InviteMailMessage {
  kind?: 'invite';
  inviteId: number;
  to: string;
  guardianName: string | null;
  firstName: string;
  lastInitial: string;
  /** The invite link with its token: removed once the message is settled. */
  url: string;
  expiresAt: string;
}

/** A parent's link to choose a new password (issue 50): rendered by the sender (`passwordResetEmail`). */
export interface PasswordResetMailMessage {
  kind: 'passwordReset';
  to: string;
  /** The account's name and username, so a family sharing an address knows whose it is. */
  name: string | null;
  username: string;
  /** The reset link with its token: removed once the message is settled. */
  url: string;
  expiresAt: string;
  /** The zone the link's last minute is told in (the parent's school's, issue 51). */
  timeZone: string;
}

/**
 * A message the request rendered itself (issue 51: the office's decision on a
 * family's change of a child's way home), sent as it is.
 */
export interface NewRenderedMessage {
  kind: 'rendered';
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** One message of a run, as queued. */
export type NewMailMessage = InviteMailMessage | PasswordResetMailMessage | NewRenderedMessage;

/** A message as stored: its link (if it had one) gone once settled. */
type Stored<M> = Omit<M, 'url'> & {
  /** The message's key in its run. */
  sk: string;
  /** The link, or null once settled (and for a message rendered whole). */
  url: string | null;
  status: MailMessageStatus;
  claimedBy: string | null;
};
export type MailMessage =
  | Stored<InviteMailMessage>
  | Stored<PasswordResetMailMessage>
  | Stored<NewRenderedMessage>;

/**
 * The "school" of runs that carry a parent's own account mail (password
 * resets): no school has id 0, so no school's staff ever follow such a run.
 */
export const ACCOUNT_MAIL_SCHOOL = 0;

const toRun = (item: Record<string, unknown>): MailRun => {
  const run = stripKeys<MailRun>(item);
  delete (run as unknown as Record<string, unknown>)[TTL_ATTRIBUTE];
  return run;
};

export const mailRuns = {
  /** Writes a run's messages, then the run (a run is never seen without all its messages). */
  async create(
    db: Db,
    run: Omit<MailRun, 'sent' | 'failed' | 'updatedAt' | 'finishedAt'>,
    messages: readonly NewMailMessage[],
  ): Promise<MailRun> {
    const pk = partition(run.schoolId, run.runId);
    const messageTtl = ttlIn(MESSAGE_DAYS);
    await putAll(
      db,
      messages.map((message, n) => ({
        pk,
        sk: messageSk(n),
        entity: 'mailMessage',
        ...message,
        status: 'queued',
        claimedBy: null,
        [TTL_ATTRIBUTE]: messageTtl,
      })),
      8,
    );
    const stored: MailRun = {
      ...run,
      sent: 0,
      failed: 0,
      updatedAt: run.createdAt,
      // A run with nothing to send is done as it starts.
      finishedAt: messages.length === 0 ? run.createdAt : null,
    };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...runKey(run.schoolId, run.runId),
          entity: 'mailRun',
          ...stored,
          [TTL_ATTRIBUTE]: ttlIn(RUN_DAYS),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return stored;
  },

  async get(db: Db, schoolId: number, runId: string): Promise<MailRun | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: runKey(schoolId, runId), ConsistentRead: true }),
    );
    return Item ? toRun(Item) : undefined;
  },

  /**
   * One page of a run's messages still to send (`queued`) or being sent
   * (`sending`), in order, after `after` (a message's `sk`; from the first
   * without one). `last` is where the next page starts (undefined at the end).
   */
  async unsettled(
    db: Db,
    schoolId: number,
    runId: string,
    after: string | undefined,
    limit: number,
  ): Promise<{ messages: MailMessage[]; last: string | undefined }> {
    const pk = partition(schoolId, runId);
    const page = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: '#status IN (:queued, :sending)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pk': pk,
          ':prefix': MESSAGE_PREFIX,
          ':queued': 'queued',
          ':sending': 'sending',
        },
        ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return {
      messages: (page.Items ?? []).map((item) => {
        const { pk: _, entity: __, [TTL_ATTRIBUTE]: ___, ...message } = item;
        return { url: null, claimedBy: null, ...message } as MailMessage;
      }),
      last: page.LastEvaluatedKey?.sk as string | undefined,
    };
  },

  /** Claims a queued message for one sender invocation; false when it is not queued (any more). */
  async claim(db: Db, schoolId: number, runId: string, sk: string, claimant: string): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: { pk: partition(schoolId, runId), sk },
          UpdateExpression: 'SET #status = :sending, claimedBy = :claimant',
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':sending': 'sending', ':queued': 'queued', ':claimant': claimant },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** Gives a claimed message back (it was not sent: SES throttled it and time ran out). */
  async unclaim(db: Db, schoolId: number, runId: string, sk: string, claimant: string): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: { pk: partition(schoolId, runId), sk },
          UpdateExpression: 'SET #status = :queued, claimedBy = :null',
          ConditionExpression: '#status = :sending AND claimedBy = :claimant',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':sending': 'sending',
            ':queued': 'queued',
            ':claimant': claimant,
            ':null': null,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /**
   * Settles a message `claimant` holds in `sending`: `sent` or `failed`, its
   * link removed and counted on the run, in one transaction. False when the
   * message was not that claimant's to settle (then nothing is counted).
   */
  async settle(
    db: Db,
    schoolId: number,
    runId: string,
    sk: string,
    claimant: string,
    outcome: 'sent' | 'failed',
    now = new Date().toISOString(),
  ): Promise<boolean> {
    const pk = partition(schoolId, runId);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: db.table,
                  Key: { pk, sk },
                  UpdateExpression: 'SET #status = :outcome REMOVE #url',
                  ConditionExpression: '#status = :sending AND claimedBy = :claimant',
                  ExpressionAttributeNames: { '#status': 'status', '#url': 'url' },
                  ExpressionAttributeValues: {
                    ':outcome': outcome,
                    ':sending': 'sending',
                    ':claimant': claimant,
                  },
                },
              },
              {
                Update: {
                  TableName: db.table,
                  Key: runKey(schoolId, runId),
                  UpdateExpression: 'ADD #count :one SET updatedAt = :now',
                  ExpressionAttributeNames: { '#count': outcome },
                  ExpressionAttributeValues: { ':one': 1, ':now': now },
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        // Messages settled at once all count on the run: DynamoDB cancels one of two
        // transactions on the same item (`TransactionConflict`), which is tried again.
        const conflict = cancellationReasons(error).includes('TransactionConflict');
        if (conflict && attempt < SETTLE_ATTEMPTS) {
          await sleep(backoffMs(attempt, 20, { jitter: 'full' }));
          continue;
        }
        if (!conflict && isConditionFailure(error)) return false;
        throw error;
      }
    }
  },

  /**
   * A message left in `sending` by another invocation (one that ended before
   * settling it: it may or may not have gone out) counts as failed and is
   * never sent again.
   */
  async abandon(db: Db, schoolId: number, runId: string, message: MailMessage): Promise<boolean> {
    if (message.status !== 'sending' || message.claimedBy === null) return false;
    return mailRuns.settle(db, schoolId, runId, message.sk, message.claimedBy, 'failed');
  },

  /** Marks the run done (every message settled). */
  async finish(db: Db, schoolId: number, runId: string, now = new Date().toISOString()): Promise<void> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: runKey(schoolId, runId),
          UpdateExpression: 'SET finishedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_type(finishedAt, :null)',
          ExpressionAttributeValues: { ':now': now, ':null': 'NULL' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },
};
