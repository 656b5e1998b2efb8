import * as z from 'zod';
import { parentPasswordSchema } from './auth';
import { dateIn } from './school-clock';

/**
 * Parent invites (issue 29): a random, single-use, revocable link per student
 * and known guardian, valid 30 days; and the other adults a family allows to
 * collect a child.
 */
export const INVITE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Random bytes in an invite token: 256 bits, sent as 43 base64url characters. */
export const INVITE_TOKEN_BYTES = 32;
export const inviteTokenSchema = z
  .string({ message: 'Invite token is required' })
  .max(43, 'Invite token is not valid')
  .regex(/^[A-Za-z0-9_-]{43}$/, 'Invite token is not valid');
/** Failed invite acceptances per address in a 10-minute window (like the pickup codes). */
export const INVITE_GUESS_LIMIT = { windowMs: 10 * 60 * 1000, failures: 10 } as const;
/** At most this many students in one invite request by id. */
export const INVITE_MAX_STUDENT_IDS = 5000;

export type InviteStatus = 'pending' | 'accepted' | 'expired' | 'revoked';

export interface ParentInvite {
  id: number;
  schoolId: number;
  studentId: number;
  guardianName: string | null;
  email: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  acceptedBy: number | null;
  revokedAt: string | null;
}

/** Where an invite stands at `now`. A used or revoked invite stays so after its expiry. */
export const inviteStatus = (
  invite: Pick<ParentInvite, 'expiresAt' | 'acceptedAt' | 'revokedAt'>,
  now = Date.now(),
): InviteStatus => {
  if (invite.acceptedAt) return 'accepted';
  if (invite.revokedAt) return 'revoked';
  if (Date.parse(invite.expiresAt) <= now) return 'expired';
  return 'pending';
};

/** What a parent is told about an invite that no longer works (410). */
export const INVITE_REFUSALS: Readonly<Record<Exclude<InviteStatus, 'pending'>, string>> = {
  accepted: 'This invite has already been used. Please ask the school for a new one.',
  revoked: 'This invite was withdrawn by the school. Please ask the school for a new one.',
  expired: 'This invite has expired. Please ask the school for a new one.',
};

const id = z.coerce.number({ message: 'Must be a number' }).int().positive();

export const createInvitesSchema = z.union(
  [
    z
      .object({ studentIds: z.array(id).min(1, 'Choose at least one student').max(INVITE_MAX_STUDENT_IDS) })
      .strict(),
    z.object({ classroomId: id }).strict(),
    // A grade as written (`3`, `03`, `k`): the service reads it as the rosters keep it (`normalizeGrade`).
    // Not the rosters' own schema: the route table is in every screen's first load, the rosters' rules are not.
    z.object({ grade: z.string().trim().min(1, 'Grade is required').max(10, 'Grade is too long') }).strict(),
    z.object({ allStudents: z.literal(true) }).strict(),
  ],
  { message: 'Send studentIds, classroomId, grade or allStudents' },
);
export type CreateInvitesInput = z.infer<typeof createInvitesSchema>;

const trimmed = (field: string, max: number) =>
  z
    .string({ message: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} is too long`);

export const acceptInviteSchema = z.object({
  token: inviteTokenSchema,
  username: trimmed('Username', 100).optional(),
  password: parentPasswordSchema.optional(),
  firstName: trimmed('First name', 50).optional(),
  lastName: trimmed('Last name', 50).optional(),
  phone: trimmed('Phone number', 40).optional(),
});
export type AcceptInviteInput = z.infer<typeof acceptInviteSchema>;

/** An invite as the staff see it. */
export interface InviteView {
  id: number;
  studentId: number;
  guardianName: string | null;
  email: string | null;
  expiresAt: string;
  createdAt: string;
  status: InviteStatus;
}
/** A new invite, with its link (the token is shown only now) and what a printed letter names. */
export type NewInviteView = Pick<InviteView, 'id' | 'studentId' | 'guardianName' | 'email' | 'expiresAt'> & {
  url: string;
  /** The child as the school's letter names them (full name: the letter goes to the family). */
  student: { firstName: string; lastName: string; grade: string; classroom: string | null };
};

/**
 * What `POST /api/parent-invites/email` answers: the invites are made and their
 * messages queued in a mail run, sent after the answer (`queued`); guardians
 * without an email address get no invite (`skipped`).
 */
export interface EmailRunStarted {
  runId: string;
  queued: number;
  skipped: number;
}

/** A mail run as the office follows it (`GET /api/parent-invites/email/{id}`). */
export interface EmailRunProgress {
  queued: number;
  sent: number;
  /** Refused by SES (or never sent: a run that stopped); their invites stay pending. */
  failed: number;
  skipped: number;
  /** Every queued message is sent or failed. */
  done: boolean;
}

/** Adults a family allows to pick a child up: at most this many per child. */
export const AUTHORIZED_PICKUPS_MAX = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const authorizedPickupSchema = z.object({
  studentId: id,
  name: trimmed('Name', 100),
  relationship: z.string().trim().max(50, 'Relationship is too long').optional().default(''),
  phone: z.string().trim().max(40, 'Phone number is too long').optional().default(''),
  onDate: z
    .string()
    .max(10, 'Date must be YYYY-MM-DD')
    .regex(DATE, 'Date must be YYYY-MM-DD')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'Date is not valid')
    .nullish(),
});
export type AuthorizedPickupInput = z.infer<typeof authorizedPickupSchema>;

export interface AuthorizedPickup {
  id: number;
  schoolId: number;
  studentId: number;
  name: string;
  relationship: string;
  phone: string;
  /** A one-day delegate's day (`YYYY-MM-DD`, the school's calendar), or null: every day. */
  onDate: string | null;
  createdBy: number;
  createdAt: string;
  /** The name of the parent who added them, kept with the entry (staff see it as `addedBy`; older entries have none). */
  createdByName?: string;
}

/**
 * An authorized adult as the school's staff see them (issue 49): who added
 * them (the parent's name; null when no longer known) and when (`createdAt`),
 * so the curb can tell a family's own entry from a late one.
 */
export interface StaffAuthorizedPickup extends Omit<AuthorizedPickup, 'createdByName'> {
  addedBy: string | null;
}

/**
 * A child's authorized adults on a staff screen: `GET /api/students/{id}/authorized-pickups`
 * answers it, and `AUTHORIZED_PICKUPS_CHANGED` carries it when a parent changes the list.
 */
export interface StudentAuthorizedPickups {
  pickups: StaffAuthorizedPickup[];
  /** The line the car-line cards show ("Also allowed: …"), or null when no one. */
  text: string | null;
  /** The school's time zone (issue 51): the days and times above are the school's. */
  timeZone: string;
  /** The school's date now (`YYYY-MM-DD`), for "today only". */
  today: string;
}

/** Whether an authorized pickup still counts on `today` (a one-day delegate is gone after its day). */
export const pickupStillAllowed = (pickup: Pick<AuthorizedPickup, 'onDate'>, today: string): boolean =>
  pickup.onDate === null || pickup.onDate >= today;

/** "Also allowed: Grandma Rosa; today: Ana Ruiz" — what the curb sees (null when no one). */
export const alsoAllowedText = (
  pickups: ReadonlyArray<Pick<AuthorizedPickup, 'name' | 'onDate'>>,
  today: string,
) => {
  const always = pickups.filter((p) => p.onDate === null).map((p) => p.name);
  const todayOnly = pickups.filter((p) => p.onDate === today).map((p) => p.name);
  const parts = [
    ...(always.length ? [`Also allowed: ${always.join(', ')}`] : []),
    ...(todayOnly.length ? [`${always.length ? 'today' : 'Today'}: ${todayOnly.join(', ')}`] : []),
  ];
  return parts.length ? parts.join('; ') : null;
};

/**
 * Who added an authorized adult and when, in the school's time zone:
 * "Added by Jordan Martinez today at 3:14 PM", "… on Mar 3 at 3:14 PM"
 * (with the year when it is not this year's).
 */
export const addedByText = (
  pickup: Pick<StaffAuthorizedPickup, 'addedBy' | 'createdAt'>,
  timeZone: string,
  now = Date.now(),
): string => {
  const at = Date.parse(pickup.createdAt);
  const time = new Date(at).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
  const [day, today] = [dateIn(timeZone, at), dateIn(timeZone, now)];
  const date =
    day === today
      ? 'today'
      : `on ${new Date(at).toLocaleDateString('en-US', {
          month: 'short',
          day: 'numeric',
          ...(day.slice(0, 4) === today.slice(0, 4) ? {} : { year: 'numeric' }),
          timeZone,
        })}`;
  return `Added by ${pickup.addedBy ?? 'a parent'} ${date} at ${time}`;
};
