import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  DEFAULT_TIME_ZONE,
  type ForgotPasswordInput,
  GoneError,
  PASSWORD_RESET_INVALID,
  PASSWORD_RESET_SENT,
  PASSWORD_RESET_THROTTLE,
  PASSWORD_RESET_TOKEN_BYTES,
  PASSWORD_RESET_TTL_MS,
  type ResetPasswordInput,
} from '@curbside/domain';
import {
  ACCOUNT_MAIL_SCHOOL,
  mailRuns,
  type PasswordResetMailMessage,
  parentLinks,
  passwordResets,
  throttle,
  users,
} from '@curbside/store';
import { db } from '../lib/context';
import { startMailRun } from '../lib/mail-runs';
import { hashPassword } from '../lib/passwords';
import { endSignIns } from './auth';
import { schoolClock } from './school-clock';

/**
 * "Forgot password?" on the parent portal (issue 50): a one-time link,
 * emailed through the mail outbox the invites use (a mail run the mail
 * sender sends after the answer), valid for an hour. The token (256 bits) is
 * only in the message; the store keeps its SHA-256 hash.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The zone a parent's account mail tells its times in: their (first) child's
 * school's, else the product's default (issue 51: never the server's).
 */
const accountTimeZone = async (userId: number): Promise<string> => {
  const [child] = await parentLinks.childrenOf(db, userId);
  if (!child) return DEFAULT_TIME_ZONE;
  return (await schoolClock(child.schoolId).catch(() => undefined))?.timeZone ?? DEFAULT_TIME_ZONE;
};

/**
 * Emails a reset link to each parent account that has this address and can
 * sign in (a family may share one address: one link each, naming the
 * account). Answers the same whether or not any account has it, and when
 * the address or the email asked too often (then nothing is sent).
 */
export const requestPasswordReset = async (
  input: ForgotPasswordInput,
  address: string,
  origin: string,
): Promise<{ message: string }> => {
  const answer = { message: PASSWORD_RESET_SENT };
  const email = input.email.trim().toLowerCase();
  const attempt = await throttle.reserve(
    db,
    [
      { scope: `reset#ip#${address}`, limit: PASSWORD_RESET_THROTTLE.perAddress },
      // The address is counted by its hash: no email address in a counter's key.
      { scope: `reset#email#${sha256(email)}`, limit: PASSWORD_RESET_THROTTLE.perEmail },
    ],
    PASSWORD_RESET_THROTTLE.windowMs,
  );
  if (!attempt.allowed) return answer;
  const accounts = (await users.parentsByEmail(db, email)).filter((user) => user.active && user.hasPassword);
  if (accounts.length === 0) return answer;
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const expiresAt = new Date(now + PASSWORD_RESET_TTL_MS).toISOString();
  const messages = await Promise.all(
    accounts.map(async (user): Promise<PasswordResetMailMessage> => {
      const token = randomBytes(PASSWORD_RESET_TOKEN_BYTES).toString('base64url');
      await passwordResets.create(db, sha256(token), { userId: user.id, createdAt, expiresAt });
      return {
        kind: 'passwordReset',
        to: (user.email as string).trim(),
        name: user.name,
        username: user.username,
        url: `${origin}/parent/reset-password?t=${token}`,
        expiresAt,
        timeZone: await accountTimeZone(user.id),
      };
    }),
  );
  const runId = randomUUID();
  await mailRuns.create(
    db,
    {
      schoolId: ACCOUNT_MAIL_SCHOOL,
      runId,
      startedBy: 0,
      schoolName: '',
      createdAt,
      queued: messages.length,
      skipped: 0,
    },
    messages,
  );
  await startMailRun({ schoolId: ACCOUNT_MAIL_SCHOOL, runId });
  return answer;
};

/**
 * A reset link's new password: the link is spent and the password set in
 * one transaction (a link works once, for an hour, 410 otherwise); every
 * sign-in of the account ends, so a device someone else had signed in on is
 * signed out.
 */
export const resetPassword = async ({
  token,
  password,
}: ResetPasswordInput): Promise<{ message: string }> => {
  const tokenHash = sha256(token);
  const reset = await passwordResets.get(db, tokenHash);
  if (!reset || reset.usedAt !== null || Date.parse(reset.expiresAt) <= Date.now())
    throw new GoneError(PASSWORD_RESET_INVALID);
  if (!(await passwordResets.redeem(db, tokenHash, reset.userId, await hashPassword(password))))
    throw new GoneError(PASSWORD_RESET_INVALID);
  await endSignIns(reset.userId);
  return { message: 'Your password was changed. Sign in with your new password.' };
};
