/**
 * What a car-line event tells the parents of the children it is about (split
 * from parents.ts by part: the polls stay there): their children's status at
 * once, and a throttled word that the line moved (ADR 0027: their connections
 * from the school's, read once per change).
 */
import { type CarLineEvent, channels, type LiveEvent } from '@curbside/api';
import type { ParentStatus, QueueEntry } from '@curbside/domain';
import { meter, queue, type SchoolConnection } from '@curbside/store';
import { db } from '../lib/context';
import { live } from '../lib/live';
import { log } from '../lib/log';
import { schoolHearing } from './publish';

/** A child's status as a car-line event leaves it (before any release mark, which the parent reads on refresh). */
const statusAfter = (entry: QueueEntry, leaving: boolean): ParentStatus => {
  if (entry.status === 'completed') return 'picked_up';
  if (leaving) return 'not_in_queue';
  return entry.status === 'ready' ? 'ready_for_pickup' : 'in_queue';
};

/** The entries an event changed, and whether they left the line (so the cars behind moved up). */
const changesOf = (event: CarLineEvent): { entries: QueueEntry[]; leaving: boolean; lineMoved: boolean } => {
  switch (event.type) {
    case 'VEHICLE_QUEUED':
      return { entries: [event.data.entry], leaving: false, lineMoved: false };
    case 'VEHICLE_REMOVED':
      return { entries: [event.data.entry], leaving: true, lineMoved: true };
    case 'QUEUE_STATUS_UPDATED': {
      const entry = event.data.entry;
      return {
        entries: entry ? [entry] : [],
        leaving: false,
        lineMoved: entry?.status === 'completed',
      };
    }
    case 'VEHICLES_REMOVED_FROM_QUEUE':
      return { entries: event.data.entries, leaving: false, lineMoved: event.data.entries.length > 0 };
    default:
      return { entries: [], leaving: false, lineMoved: false };
  }
};

/**
 * A teacher's release as the child's parents hear of it: the child, the
 * session, when; never who released them (staff screens only).
 */
const releasedMessage = (studentId: number, sessionId: number, releasedAt: string) => ({
  studentId,
  message: {
    type: 'STUDENT_STATUS_UPDATE' as const,
    data: { studentId, sessionId, status: 'released' as const, releasedAt },
  },
});

/**
 * The children a release is about, each with what their parents hear: a
 * teacher's release of one child, or a release by way home of many (issue 52:
 * each child's own message, as one child's release sends it).
 */
const releasesOf = (event: CarLineEvent): Array<{ studentId: number; message: LiveEvent }> => {
  if (event.type === 'STUDENTS_RELEASED') {
    const { sessionId, releasedAt, students } = event.data;
    return students.map((student) => releasedMessage(student.id, sessionId, releasedAt));
  }
  if (event.type !== 'STUDENT_STATUS_UPDATE' || event.data.status !== 'released') return [];
  const { studentId, sessionId, releasedAt } = event.data;
  return [releasedMessage(studentId, sessionId, releasedAt)];
};

/**
 * Whose parents a car-line event can tell anything (`tellParents`): the
 * children whose status it carries or who were released, and whether it
 * moved the line (then the parents of every child still waiting may be told).
 */
export interface ParentsConcern {
  children: readonly number[];
  lineMoved: boolean;
}

export const parentsConcernOf = (event: CarLineEvent): ParentsConcern => {
  const { entries, lineMoved } = changesOf(event);
  return {
    children: [
      ...entries.flatMap((entry) => entry.students.map((student) => student.id)),
      ...releasesOf(event).map((release) => release.studentId),
    ],
    lineMoved,
  };
};

/** At most one position update per child per this long (status changes go at once). */
export const POSITION_UPDATE_INTERVAL_MS = 15_000;

/**
 * When each session last told its parents that the line moved. Kept by the
 * function instance: in AWS each warm instance keeps its own, so a parent may
 * get one update per instance per interval (a handful), never one per car.
 */
const lastLineUpdate = new Map<number, number>();

/** Whether a change that moves the line may tell it to the session's parents now (not within the interval). */
export const lineUpdateDue = (sessionId: number, now = Date.now()) =>
  now - (lastLineUpdate.get(sessionId) ?? 0) >= POSITION_UPDATE_INTERVAL_MS;

/** A parent's connection that hears of a child: whose page it is and which connection. */
interface Hearer {
  parentId: number;
  connectionId: string;
}

/**
 * Who hears of each child of the school, from the connections that hear of its
 * car line (`schoolHearing`): a parent's page (its `parent#{id}` channel) with
 * the children kept on its row (its links as `$connect` read them, less any
 * link removed since: `connections.forgetChildren`). No read of its own.
 */
const hearersByChild = (hearing: readonly SchoolConnection[]): Map<number, Hearer[]> => {
  const byChild = new Map<number, Hearer[]>();
  for (const { connectionId, channels: joined, studentIds } of hearing) {
    for (const channel of joined) {
      const parsed = channels.parse(channel);
      if (parsed?.kind !== 'parent') continue;
      for (const studentId of studentIds) {
        byChild.set(studentId, [
          ...(byChild.get(studentId) ?? []),
          { parentId: parsed.parentId, connectionId },
        ]);
      }
    }
  }
  return byChild;
};

/** Sends one message to the parents' connections that hear of a child (each on its parent's channel). */
const sendToHearers = async (hearers: readonly Hearer[], message: LiveEvent) => {
  const sent = { ...message, sentAt: Date.now() };
  const byParent = new Map<number, string[]>();
  for (const { parentId, connectionId } of hearers) {
    byParent.set(parentId, [...(byParent.get(parentId) ?? []), connectionId]);
  }
  await Promise.all(
    [...byParent].map(([parentId, ids]) => {
      meter.add(`live.published.${channels.parent(parentId)}`);
      return live().send(ids, sent, channels.parent(parentId));
    }),
  );
};

/**
 * The line moved (a car left it): every connected parent whose child's car
 * still waits gets a `QUEUE_UPDATE` for that child, at most once per interval
 * per session. One Query of the active queue; nothing when no parent of the
 * school is connected.
 */
const tellLineMoved = async (sessionId: number, hearers: ReadonlyMap<number, Hearer[]>) => {
  const now = Date.now();
  if (!lineUpdateDue(sessionId, now)) return;
  lastLineUpdate.set(sessionId, now);
  // Counted apart, so a count of a change's calls can tell this throttled read from the change's own.
  meter.add('parents.lineMoved');
  const active = await queue.listActive(db, sessionId);
  // Every waiting child's parents at once (one after another, a long line took as many posts' time).
  await Promise.all(
    active
      .filter((entry) => entry.status !== 'ready')
      .flatMap((entry) => entry.students)
      .map((student) =>
        sendToHearers(hearers.get(student.id) ?? [], {
          type: 'QUEUE_UPDATE',
          data: { studentId: student.id },
        }),
      ),
  );
};

/**
 * Tells the parents of the children a car-line event is about: a
 * `STUDENT_STATUS_UPDATE` for each child whose car joined, moved, left or
 * was picked up (the child's id and status only), or whom a teacher released,
 * alone or by way home (with when: `releasesOf`), at once; and when cars
 * left the line, a throttled `QUEUE_UPDATE` to the parents of the children
 * still waiting. The parents' connections are the school's (`hearing`, one
 * Query of the connection table shared with the staff's fan-out), and who
 * hears of each child is on their rows (matched here, no read: the same calls
 * for a car of one child as for a bus of thirty). Nothing about anyone else
 * reaches a parent's connection. `whole`: `hearing` holds every parent's
 * page of the school, not only those of the event's children (h54zf), so the
 * line moved can be told (else it is left to the next change that reads
 * them all). The change has committed: a failure here is logged, never the
 * caller's error.
 */
export const tellParents = async (
  schoolId: number,
  sessionId: number,
  event: CarLineEvent,
  hearing: Promise<SchoolConnection[]> = schoolHearing(schoolId),
  whole = true,
) => {
  const { entries, leaving, lineMoved } = changesOf(event);
  const released = releasesOf(event);
  if (entries.length === 0 && released.length === 0) return;
  try {
    const hearers = hearersByChild(await hearing);
    if (hearers.size === 0) return;
    if (released.length > 0) {
      await Promise.all(
        released.map(({ studentId, message }) => sendToHearers(hearers.get(studentId) ?? [], message)),
      );
      return;
    }
    const children = new Map<number, ParentStatus>();
    for (const entry of entries) {
      for (const student of entry.students) children.set(student.id, statusAfter(entry, leaving));
    }
    // Each child's parents at once (a bus of 30: 30 children's posts in flight together, not one after another).
    await Promise.all(
      [...children].map(([studentId, status]) =>
        sendToHearers(hearers.get(studentId) ?? [], {
          type: 'STUDENT_STATUS_UPDATE',
          data: { studentId, sessionId, status },
        }),
      ),
    );
    if (lineMoved && whole) await tellLineMoved(sessionId, hearers);
  } catch (error) {
    log('warn', 'parents not told', { type: event.type, error: (error as Error).message });
  }
};
