import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportJob } from '@curbside/domain';
import type { Db } from './db';
import { stripKeys } from './ids';
import { isConditionFailure, queryAll } from './query';
import { TTL_ATTRIBUTE } from './table';

/**
 * Import jobs (the student-information import):
 *
 * - The job: `IMPORT_JOB#{id}` / `JOB` → the `ImportJob` the page shows, what
 *   was asked (`request`), where the work stands (`checkpoint`) and the run
 *   that owns it (`runId`). Each checkpoint is a write conditioned on the run,
 *   so a run that was replaced (a resume) can no longer move the job.
 * - What a job saw in Clever, page by page: `IMPORT_JOB#{id}` /
 *   `SEEN#{step}#{page:05}` → the Clever ids of the page (and, for sections,
 *   their students). At the end the records the SIS no longer lists are the
 *   ones no page saw. A page read again (after an interruption) overwrites its item.
 *
 * Jobs are kept 90 days, what they saw 30 (TTL).
 */
const JOB_DAYS = 90;
const SEEN_DAYS = 30;
const jobKey = (id: string) => ({ pk: `IMPORT_JOB#${id}`, sk: 'JOB' });
const ttlIn = (days: number) => Math.ceil(Date.now() / 1000) + days * 86_400;

/** Where a job's work stands: the next step and page to read, and which school of its list. */
export interface ImportCheckpoint {
  /** Index into the job's school list (a district's sync imports several). */
  school: number;
  step: string;
  /** The Clever id to read after (`starting_after`); null: from the start. */
  after: string | null;
  /** Pages of this step done so far. */
  page: number;
  /** The last school whose students were counted (for the total). */
  counted?: number;
}

export interface StoredImportJob<Request = Record<string, unknown>> {
  job: ImportJob;
  request: Request;
  checkpoint: ImportCheckpoint;
  runId: string;
  /** Who started it (for the log). */
  actorId: number | null;
}

export interface SeenPage {
  ids: string[];
  /** Sections: Clever section id → its students' Clever ids. */
  members?: Record<string, string[]>;
}

const toStored = (item: Record<string, unknown>): StoredImportJob => {
  const { request, checkpoint, runId, actorId, ...job } = stripKeys<Record<string, unknown>>(item);
  delete job[TTL_ATTRIBUTE];
  delete job.entity;
  return {
    job: job as unknown as ImportJob,
    request: request as Record<string, unknown>,
    checkpoint: checkpoint as ImportCheckpoint,
    runId: runId as string,
    actorId: (actorId as number | null) ?? null,
  };
};

export const importJobs = {
  async create(db: Db, stored: StoredImportJob): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...jobKey(stored.job.id),
          entity: 'importJob',
          ...stored.job,
          request: stored.request,
          checkpoint: stored.checkpoint,
          runId: stored.runId,
          actorId: stored.actorId,
          [TTL_ATTRIBUTE]: ttlIn(JOB_DAYS),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async get(db: Db, id: string): Promise<StoredImportJob | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: jobKey(id), ConsistentRead: true }),
    );
    return Item ? toStored(Item) : undefined;
  },

  /**
   * Saves the job's state and checkpoint, if `runId` still owns it. False when
   * another run took it over (a resume): this run must stop.
   */
  async save(db: Db, stored: StoredImportJob): Promise<boolean> {
    const { id: _, ...fields } = stored.job;
    const values: Record<string, unknown> = { ...fields, checkpoint: stored.checkpoint };
    const names = Object.keys(values);
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: jobKey(stored.job.id),
          UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'runId = :runId',
          ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(names.map((name) => [`:${name}`, values[name]])),
            ':runId': stored.runId,
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
   * Hands a failed job, or a running one whose run stopped saving before
   * `staleBefore` (its runtime went away), to a new run (a resume): false
   * when it is running (or gone). The new run continues from the checkpoint.
   */
  async takeOver(db: Db, id: string, runId: string, now: string, staleBefore: string): Promise<boolean> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: jobKey(id),
          UpdateExpression:
            'SET runId = :runId, #status = :running, #error = :null, updatedAt = :now, finishedAt = :null',
          ConditionExpression:
            'attribute_exists(pk) AND (#status = :failed OR (#status = :running AND updatedAt < :stale))',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: {
            ':runId': runId,
            ':running': 'running',
            ':failed': 'failed',
            ':null': null,
            ':now': now,
            ':stale': staleBefore,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async putSeen(db: Db, jobId: string, step: string, page: number, seen: SeenPage): Promise<void> {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          pk: jobKey(jobId).pk,
          sk: `SEEN#${step}#${String(page).padStart(5, '0')}`,
          entity: 'importSeen',
          ...seen,
          [TTL_ATTRIBUTE]: ttlIn(SEEN_DAYS),
        },
      }),
    );
  },

  /** Every page a step of the job saw, in page order. */
  async seen(db: Db, jobId: string, step: string): Promise<SeenPage[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': jobKey(jobId).pk, ':prefix': `SEEN#${step}#` },
    });
    return items.map((item) => ({
      ids: (item.ids as string[] | undefined) ?? [],
      ...(item.members ? { members: item.members as Record<string, string[]> } : {}),
    }));
  },
};
