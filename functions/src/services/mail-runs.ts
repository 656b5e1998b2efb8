import { randomUUID } from 'node:crypto';
import {
  type EmailRunProgress,
  type EmailRunStarted,
  NotFoundError,
  ROLE_RANK,
  type StaffRole,
  type User,
} from '@curbside/domain';
import { mailRuns, type NewMailMessage } from '@curbside/store';
import { db } from '../lib/context';
import { startMailRun } from '../lib/mail-runs';
import { ownSchoolId } from './tenancy';

/**
 * A run that has not settled a message for this long has stopped for good:
 * Lambda keeps an asynchronous invocation waiting (behind another school's
 * run: the sender runs one at a time) for up to 6 hours, and retries a failed
 * one twice. Its unsent messages then count as failed.
 */
export const MAIL_RUN_STALE_MS = 6.5 * 60 * 60 * 1000;

/**
 * Queues a school's invite messages as one mail run and starts the mail
 * sender, which sends them after this request has answered.
 */
export const queueMailRun = async (
  user: User,
  run: {
    schoolId: number;
    schoolName: string;
    /** The school's time zone: an invite's last day is a day of the school's calendar. */
    timeZone: string;
    skipped: number;
    messages: readonly NewMailMessage[];
  },
): Promise<EmailRunStarted> => {
  const runId = randomUUID();
  await mailRuns.create(
    db,
    {
      schoolId: run.schoolId,
      runId,
      startedBy: user.id,
      schoolName: run.schoolName,
      timeZone: run.timeZone,
      createdAt: new Date().toISOString(),
      queued: run.messages.length,
      skipped: run.skipped,
    },
    run.messages,
  );
  if (run.messages.length > 0) await startMailRun({ schoolId: run.schoolId, runId });
  return { runId, queued: run.messages.length, skipped: run.skipped };
};

/**
 * How a mail run stands, for its school's admins (and the teacher who started
 * it); any other caller gets 404, as for a run that does not exist.
 */
export const mailRunProgress = async (
  user: User,
  runId: string,
  now = Date.now(),
): Promise<EmailRunProgress> => {
  const run = await mailRuns.get(db, ownSchoolId(user), runId);
  const teacherOnly = ROLE_RANK[user.role as StaffRole] < ROLE_RANK.school_admin;
  if (!run || (teacherOnly && run.startedBy !== user.id)) throw new NotFoundError('Mail run not found');
  const settled = run.sent + run.failed >= run.queued;
  const stale = !settled && now - Date.parse(run.updatedAt) > MAIL_RUN_STALE_MS;
  return {
    queued: run.queued,
    sent: run.sent,
    failed: stale ? run.queued - run.sent : run.failed,
    skipped: run.skipped,
    done: settled || stale,
  };
};
