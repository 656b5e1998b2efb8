import { channels, type LiveEvent } from '@curbside/api';
import {
  type DisplayBoard,
  type DisplayLink,
  displayBoardOf,
  type User,
  WAY_RELEASE_SHOWN_MS,
} from '@curbside/domain';
import {
  batches,
  connections,
  displayLinks,
  meter,
  pickupSessions,
  queue,
  releases,
  type SchoolConnection,
} from '@curbside/store';
import { connectionsDb, db } from '../lib/context';
import { live } from '../lib/live';
import { log } from '../lib/log';
import { inChannelOf, schoolHearing } from './publish';
import { ownSchoolId } from './tenancy';

/**
 * The hallway display (issue 32): the school's private display link, the
 * board of called students, and telling the school's displays when it
 * changes. A display's connection joins only its school's display channel,
 * and nothing but `DISPLAY_BOARD` (first names, last initials, vehicle and
 * batch numbers) is sent to it.
 */
const urlOf = (origin: string, token: string): DisplayLink => ({
  url: `${origin}/display?t=${token}`,
});

export const displayLinkOf = async (user: User, origin: string): Promise<DisplayLink> =>
  urlOf(origin, (await displayLinks.ofSchool(db, ownSchoolId(user))).token);

/** A new display link: the old one stops at once, and the displays opened with it are closed. */
export const rotateDisplayLink = async (user: User, origin: string): Promise<DisplayLink> => {
  const schoolId = ownSchoolId(user);
  const after = await displayLinks.rotate(db, schoolId);
  const open = await connections.inChannel(connectionsDb(), channels.display(schoolId));
  if (open.length > 0) await live().disconnect(open);
  log('info', 'display link rotated', { schoolId, closed: open.length });
  return urlOf(origin, after.token);
};

/**
 * The school's board now: its running session's called students, and those a
 * teacher released while their car waits (their release marks, read by key;
 * none when no car waits), none when no session runs.
 */
export const boardOf = async (schoolId: number): Promise<DisplayBoard> => {
  const session = await pickupSessions.active(db, schoolId);
  if (!session) return { sessionId: null, groups: [] };
  const [entries, list, recent] = await Promise.all([
    queue.listActive(db, session.id),
    batches.listBySession(db, session.id),
    // Walkers and programs' children released in the last few minutes (issue 52).
    releases.recentByWay(db, session.id, new Date(Date.now() - WAY_RELEASE_SHOWN_MS).toISOString()),
  ]);
  const waiting = entries.filter((entry) => entry.status === 'waiting' && entry.batchId === null);
  const riders = waiting.flatMap((entry) => entry.students);
  const marks = riders.length === 0 ? new Map() : await releases.ofStudents(db, session.id, riders);
  const releasedAt = new Map([...marks].map(([studentId, mark]) => [studentId, mark.releasedAt]));
  return displayBoardOf(session.id, entries, list, releasedAt, recent);
};

/** Sends the board to one display (on its asking: at opening and after each reconnect). */
export const sendBoard = async (connectionId: string, schoolId: number): Promise<void> => {
  await live().send([connectionId], { type: 'DISPLAY_BOARD', data: await boardOf(schoolId) });
};

/**
 * After a change of the school's line: its displays, if any are open, get
 * the board as it now is (the school's connections, read once for the
 * change's whole fan-out, say whether one is).
 * Never fails the change it follows.
 */
export const tellDisplays = async (
  schoolId: number,
  hearing: Promise<SchoolConnection[]> = schoolHearing(schoolId),
): Promise<void> => {
  try {
    const open = inChannelOf(await hearing, channels.display(schoolId));
    if (open.length === 0) return;
    const board: LiveEvent = { type: 'DISPLAY_BOARD', data: await boardOf(schoolId) };
    meter.add(`live.published.${channels.display(schoolId)}`);
    await live().send(open, { ...board, sentAt: Date.now() }, channels.display(schoolId));
  } catch (error) {
    log('warn', 'display not told', { schoolId, error: String(error) });
  }
};
