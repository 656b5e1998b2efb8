import { backoffMs, schoolClockOf, sleep } from '@curbside/domain';
import { type MailMessage, mailRuns, parentInvites } from '@curbside/store';
import { config } from '../lib/config';
import { db } from '../lib/context';
import { countMetric, log } from '../lib/log';
import { isThrottling, sendMail } from '../lib/mail';
import type { MailRunStart } from '../lib/mail-runs';
import { inviteEmail, passwordResetEmail } from './invite-email';

/** Messages read per page of a run. */
const PAGE = 100;
/** Messages being sent at once at most (at 10 a second and SES's tens of milliseconds, one or two). */
const IN_FLIGHT = 8;
/** Tries of one message that SES throttles before it counts as failed. */
const THROTTLE_ATTEMPTS = 8;
/**
 * Tries of a message SES refuses (other than throttling) before it is given
 * up: the run counts it failed and its invite says "Not delivered".
 */
export const MAIL_ATTEMPTS = 3;
/** The longest wait after a throttled message. */
const BACKOFF_CAP_MS = 30_000;

/**
 * Starts at most `perSecond` sends a second, evenly spaced; `holdFor` (SES
 * throttled) holds every later start back as well, so the whole run slows down.
 */
export const pacer = (perSecond: number, now: () => number = Date.now) => {
  const gap = 1000 / perSecond;
  let next = 0;
  return {
    async turn(): Promise<void> {
      const at = Math.max(now(), next);
      next = at + gap;
      const wait = at - now();
      if (wait > 0) await sleep(wait);
    },
    holdFor(ms: number): void {
      next = Math.max(next, now() + ms);
    },
  };
};

export type MailRunOutcome = 'done' | 'continue' | 'gone';

/**
 * Sends a mail run's messages (emailed invites), paced at `MAIL_SEND_RATE` a
 * second, until every one is settled or this invocation's time is nearly up
 * (`continue`: the caller starts another invocation, which goes on with the
 * messages still queued). Each message is claimed before it is sent and
 * settled after, so none is sent twice: not by a retried or duplicated
 * invocation, and not after SES throttled it (a throttled message was not
 * sent; it waits, doubling, and is tried again). A message another
 * invocation claimed and never settled may have gone out: it counts as
 * failed. Links and addresses are never logged.
 */
export const sendMailRun = async (
  { schoolId, runId }: MailRunStart,
  remainingMs: () => number,
  reserveMs: number,
  claimant: string,
): Promise<MailRunOutcome> => {
  const run = await mailRuns.get(db, schoolId, runId);
  if (!run) return 'gone';
  if (run.finishedAt) return 'done';
  const pace = pacer(config.mailSendRate);
  const firstBackoff = config.mailThrottleBackoffMs;
  const inFlight = new Set<Promise<void>>();
  const errors: unknown[] = [];
  let stopped = false;

  const settle = async (message: MailMessage, outcome: 'sent' | 'failed') => {
    if (!(await mailRuns.settle(db, schoolId, runId, message.sk, claimant, outcome)))
      log('warn', 'mail run message settled by another invocation', { runId, message: message.sk });
  };

  /** A message given up on: counted failed on the run, and its invite (if one) says "Not delivered". */
  const giveUp = async (message: MailMessage) => {
    await settle(message, 'failed');
    countMetric('mailsFailed');
    if (message.kind === undefined || message.kind === 'invite')
      await parentInvites.markNotDelivered(db, message.inviteId);
  };

  const deliver = async (message: MailMessage) => {
    let refusals = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        if (message.kind === 'rendered') {
          await sendMail({
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
          });
          return settle(message, 'sent');
        }
        if (!message.url) throw new Error('The message has no link');
        await sendMail({
          to: message.to,
          ...(message.kind === 'passwordReset'
            ? passwordResetEmail({
                name: message.name,
                username: message.username,
                url: message.url,
                expiresAt: message.expiresAt,
                timeZone: message.timeZone ?? schoolClockOf(run).timeZone,
              })
            : inviteEmail({
                schoolName: run.schoolName,
                timeZone: schoolClockOf(run).timeZone,
                firstName: message.firstName,
                lastInitial: message.lastInitial,
                guardianName: message.guardianName,
                url: message.url,
                expiresAt: message.expiresAt,
              })),
        });
        return settle(message, 'sent');
      } catch (error) {
        if (isThrottling(error) && attempt < THROTTLE_ATTEMPTS) {
          const wait = backoffMs(attempt, firstBackoff, { capMs: BACKOFF_CAP_MS });
          pace.holdFor(wait);
          if (remainingMs() - wait < reserveMs / 2) {
            // No time to wait here: the message goes back to the queue for the next invocation.
            stopped = true;
            await mailRuns.unclaim(db, schoolId, runId, message.sk, claimant);
            return;
          }
          log('info', 'SES throttled an invite email; waiting', { runId, attempt, waitMs: wait });
          await sleep(wait);
          continue;
        }
        refusals += 1;
        log('warn', 'email not sent', {
          runId,
          message: message.sk,
          attempt: refusals,
          error: (error as Error).name,
        });
        if (refusals < MAIL_ATTEMPTS) {
          const wait = backoffMs(refusals, firstBackoff, { capMs: BACKOFF_CAP_MS });
          if (remainingMs() - wait >= reserveMs / 2) {
            await sleep(wait);
            continue;
          }
        }
        return giveUp(message);
      }
    }
  };

  let after: string | undefined;
  walk: do {
    const page = await mailRuns.unsettled(db, schoolId, runId, after, PAGE);
    for (const message of page.messages) {
      if (message.status === 'sending') {
        // Claimed by an invocation that ended before settling it (or by this one: in flight).
        if (message.claimedBy !== claimant) await mailRuns.abandon(db, schoolId, runId, message);
        continue;
      }
      while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      await pace.turn();
      if (stopped || errors.length > 0 || remainingMs() < reserveMs) {
        stopped = true;
        break walk;
      }
      if (!(await mailRuns.claim(db, schoolId, runId, message.sk, claimant))) continue;
      const task: Promise<void> = deliver(message)
        .catch((error: unknown) => {
          errors.push(error);
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
    after = page.last;
  } while (after);
  await Promise.all(inFlight);
  // A store failure: the invocation fails and Lambda runs it again (what it claimed counts as failed then).
  if (errors.length > 0) throw errors[0];
  if (stopped) return 'continue';
  await mailRuns.finish(db, schoolId, runId);
  return 'done';
};
