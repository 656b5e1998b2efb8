import {
  type QueueEntry,
  type Recording,
  type ReleaseMark,
  type SessionType,
  unreleasedError,
  unreleasedStudentsOf,
} from '@curbside/domain';
import { PICKUPS_IN_COMPLETION, pickupSessions, releases } from '@curbside/store';
import { db } from '../lib/context';
import { remember } from '../lib/remember';
import { recordPickups } from './teacher';

/** Each session's type as this instance has read it: a session's type never changes. */
const typeOfSession = new Map<number, SessionType>();
const TYPES_KEPT = 2_000;

const sessionType = async (sessionId: number): Promise<SessionType | undefined> => {
  const known = typeOfSession.get(sessionId);
  if (known) return known;
  const session = await pickupSessions.get(db, sessionId);
  return session && remember(typeOfSession, sessionId, session.type, TYPES_KEPT);
};

/** Release marks already read for some children (`read`: their ids; `marks`: those released). */
export interface KnownReleases {
  read: ReadonlySet<number>;
  marks: ReadonlyMap<number, ReleaseMark>;
}

/**
 * Before a car or a batch of an afternoon pickup is completed (issue 50): the
 * session's release marks of its children, read by key. While one of them was
 * not released by a teacher, the completion is refused (409 `{ message,
 * unreleased }`) unless the staff confirmed it ("Complete anyway"); the marks
 * then go into the completion's record, so each child is recorded as released
 * (when, by whom) or as completed without a teacher's release. A morning
 * drop-off releases nobody: undefined (nothing asked, nothing recorded per child).
 */
export const releasesBeforeCompletion = async (
  sessionId: number,
  entries: readonly Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>[],
  confirmed: boolean,
  known?: KnownReleases,
): Promise<Map<number, ReleaseMark> | undefined> => {
  // Children whose marks were not read already (`known`, beside a batch's entries).
  const riders = entries.flatMap((entry) => entry.students).filter((child) => !known?.read.has(child.id));
  // The session's type (usually known) and the marks, side by side.
  const [type, read] = await Promise.all([
    sessionType(sessionId),
    riders.length === 0 ? new Map<number, ReleaseMark>() : releases.ofStudents(db, sessionId, riders),
  ]);
  const marks = known ? new Map([...known.marks, ...read]) : read;
  if (type === 'morning_dropoff') return undefined;
  const unreleased = unreleasedStudentsOf(entries, marks);
  if (unreleased.length > 0 && !confirmed) throw unreleasedError(unreleased);
  return marks;
};

/**
 * A car's completion written with its children's picked-up marks
 * (`releases.pickUpItems`): in the completion's own transaction when they fit
 * (`PICKUPS_IN_COMPLETION`; issue 54: no call of their own), else after it.
 * `complete` writes the completion at `exitTime` with the marks it is given.
 */
export const completeWithPickups = async (
  entry: QueueEntry,
  record: Recording,
  marks: ReadonlyMap<number, ReleaseMark> | undefined,
  complete: (exitTime: string, pickups: ReturnType<typeof releases.pickUpItems>) => Promise<QueueEntry>,
): Promise<QueueEntry> => {
  const exitTime = new Date().toISOString();
  const pickups = releases.pickUpItems(entry, [entry], record, exitTime, marks);
  const fits = pickups.length <= PICKUPS_IN_COMPLETION;
  const completed = await complete(exitTime, fits ? pickups : []);
  if (!fits) await recordPickups(entry, [completed], exitTime, record, marks);
  return completed;
};
