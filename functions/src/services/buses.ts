import { channels, type LiveEvent } from '@curbside/api';
import {
  type Alert,
  BUS_FANOUT_MS,
  type Bus,
  type BusAlertInput,
  type BusLinks,
  type BusLocation,
  type BusPosition,
  ConflictError,
  DRIVER_LINK,
  ForbiddenError,
  NO_BUS_CHOSEN,
  sleep,
  type User,
} from '@curbside/domain';
import {
  alerts,
  type BusLinkHolder,
  type BusLinkTokens,
  busFleet,
  busLinks,
  busPositions,
  connections,
  pickupSessions,
  schools,
} from '@curbside/store';
import { config } from '../lib/config';
import { connectionsDb, db } from '../lib/context';
import { live } from '../lib/live';
import { countMetric, log } from '../lib/log';
import { BusCadence } from './bus-cadence';
import { publishToSession, publishToStaff } from './live-events';
import { publishToChannel } from './publish';
import { recording } from './record';
import { ownSchoolId } from './tenancy';

/**
 * Buses: the school's private links, the fleet, the relay of positions from
 * the driver pages to the maps, and the drivers' alerts.
 */

/** Who asks: a signed-in staff member, or a page opened from one of the school's bus links. */
export interface BusCaller {
  user: User | null;
  busLink: BusLinkHolder | null;
}

const schoolOf = ({ user, busLink }: BusCaller): number => {
  if (busLink) return busLink.schoolId;
  if (!user) throw new ForbiddenError("You don't have permission to do this.");
  return ownSchoolId(user);
};

const urlsOf = (origin: string, links: BusLinkTokens): BusLinks => {
  return {
    driverUrl: `${origin}/bus-driver?t=${links.driverToken}`,
    mapUrl: `${origin}/bus-tracking?t=${links.mapToken}`,
  };
};

/** The school's driver and map links (made on first use). */
export const linksOf = async (user: User, origin: string): Promise<BusLinks> =>
  urlsOf(origin, await busLinks.ofSchool(db, ownSchoolId(user)));

/**
 * New links for the school: the old ones stop at once, and every live
 * connection opened with one (drivers, map viewers) is closed; their pages
 * then explain how to get the new link.
 */
export const rotateLinks = async (user: User, origin: string): Promise<BusLinks> => {
  const schoolId = ownSchoolId(user);
  const { after } = await busLinks.rotate(db, schoolId);
  const open = await connections.inChannel(connectionsDb(), channels.busLinks(schoolId));
  if (open.length > 0) await live().disconnect(open);
  log('info', 'bus links rotated', { schoolId, closed: open.length });
  return urlsOf(origin, after);
};

export const fleetOf = async (caller: BusCaller): Promise<Bus[]> => busFleet.ofSchool(db, schoolOf(caller));

/**
 * The school's phone (issue 50): the driver page keeps it, to offer as a
 * number to call whenever an alert cannot be sent (offline, refused, the
 * link replaced). Only that: the driver page is public.
 */
export const contactOf = async (caller: BusCaller): Promise<{ schoolPhone: string | null }> => ({
  schoolPhone: (await schools.get(db, schoolOf(caller)))?.phone ?? null,
});

export const positionsOf = async (caller: BusCaller): Promise<BusPosition[]> =>
  busPositions.ofSchool(db, schoolOf(caller));

/** A school's fleet, kept a minute per instance: every position is checked against it. */
const FLEET_TTL_MS = 60_000;
const fleets = new Map<number, { at: number; ids: Promise<ReadonlySet<string>> }>();

const isSchoolBus = async (schoolId: number, busId: string): Promise<boolean> => {
  const now = Date.now();
  let known = fleets.get(schoolId);
  if (!known || now - known.at > FLEET_TTL_MS) {
    known = {
      at: now,
      ids: busFleet.ofSchool(db, schoolId).then((fleet) => new Set(fleet.map((bus) => bus.busId))),
    };
    known.ids.catch(() => fleets.delete(schoolId));
    fleets.set(schoolId, known);
  }
  return (await known.ids).has(busId);
};

const toBuses = (schoolId: number, event: LiveEvent) => publishToChannel(channels.buses(schoolId), event);

/** The second each school's fan-out was last tried from this instance, and whether it found the second covered. */
const tried = new Map<number, { slot: number; covered: boolean }>();

/**
 * Sends the school's map viewers every bus that moved since the last
 * fan-out (and in the second before it, which a fan-out reading while a
 * position was being written could have missed), when this is the first
 * chance of the current second: one conditional write decides, so each
 * viewer gets at most one message per second for the whole fleet, whatever
 * its size. Answers `sent`; `covered` when another caller's fan-out will
 * carry a position kept before this call (a later second's was claimed, or
 * someone watches this second's late positions); `late` when nothing says so.
 */
export const fanOut = async (schoolId: number): Promise<'sent' | 'covered' | 'late'> => {
  // This instance already tried this second: another write would only fail (and still be billed).
  const now = Date.now();
  const slot = Math.floor(now / BUS_FANOUT_MS);
  const before = tried.get(schoolId);
  if (before?.slot === slot) return before.covered ? 'covered' : 'late';
  tried.set(schoolId, { slot, covered: false });
  const claim = await busPositions.claimFanOut(db, schoolId, BUS_FANOUT_MS, now);
  if (!claim.claimed) {
    // Once covered, the second stays so (a watch is never taken back, a later claim never undone).
    if (claim.covered && tried.get(schoolId)?.slot === slot) tried.set(schoolId, { slot, covered: true });
    return claim.covered ? 'covered' : 'late';
  }
  // A position written while the previous fan-out read could have been missed by it: a second of overlap.
  const since = claim.previous - BUS_FANOUT_MS;
  const moved = (await busPositions.ofSchool(db, schoolId)).filter((bus) => bus.updatedAt > since);
  if (moved.length > 0)
    await toBuses(schoolId, { type: 'BUS_LOCATIONS', data: { buses: moved, second: slot } });
  return 'sent';
};

/** Per school, this instance's watch of a second's late positions (one however many positions wait). */
const trailing = new Map<number, { slot: number; attempt: Promise<unknown> }>();

/**
 * A position kept after this second's fan-out read the fleet goes out with
 * the next second's: if no other position arrives to trigger it (a single
 * bus, or a bus that just stopped moving), the watcher of this second tries
 * it, so the last position of a bus reaches the maps within about a second
 * too. One caller of all instances watches a second (`claimWatch`: in the
 * laptop's worker pools, as in Lambda's containers, each instance sees only
 * a share of the positions, and every late one holding its invocation open
 * queued the positions behind them: issue 33); within this instance,
 * positions of the same second share its try. One that came in the second
 * a try is being made for waits for its own (that try's fan-out may have
 * read the positions before this one was kept, and would leave it behind).
 */
const fanOutNextSecond = (schoolId: number): Promise<unknown> => {
  const slot = Math.floor(Date.now() / BUS_FANOUT_MS) + 1;
  const waiting = trailing.get(schoolId);
  if (waiting?.slot === slot) return waiting.attempt;
  const attempt = busPositions
    .claimWatch(db, schoolId, slot - 1)
    .then(async (watching) => {
      if (!watching) return;
      await sleep(slot * BUS_FANOUT_MS - Date.now() + 20);
      await fanOut(schoolId);
    })
    .catch((error: unknown) => log('warn', 'bus fan-out failed', { schoolId, error: String(error) }))
    .finally(() => {
      if (trailing.get(schoolId)?.attempt === attempt) trailing.delete(schoolId);
    });
  trailing.set(schoolId, { slot, attempt });
  return attempt;
};

/** The buses' cadence as this instance sees it: whether another bus's next position will carry a waiting one. */
const cadence = new BusCadence();

/**
 * A driver's position for one of the school's buses: kept (5 minutes), then
 * fanned out with the fleet's (this second's fan-out, or the next one's).
 * When it came after this second's fan-out, the next one is left to another
 * bus reporting steadily (its next position claims it and carries this one:
 * issue 31, no invocation held open for the trailing wait; should that bus
 * fall silent too, without its driver's Stop, the position goes out with
 * the next one any bus sends); with no such bus, this invocation waits for
 * the next second and tries it. Answers false for a
 * bus not of the school. With `BUS_RELAY=naive` (the benchmark's comparison)
 * every position goes to every viewer at once instead.
 */
export const relayPosition = async (schoolId: number, busId: string, location: BusLocation) => {
  if (!(await isSchoolBus(schoolId, busId))) return false;
  // An older position than the one kept (messages overtaking each other) changes nothing.
  if (!(await busPositions.put(db, schoolId, busId, location))) return true;
  const now = Date.now();
  cadence.report(schoolId, busId, now);
  if (config.busRelay === 'naive') {
    await toBuses(schoolId, { type: 'BUS_LOCATION_UPDATE', data: { busId, location } });
  } else if ((await fanOut(schoolId)) === 'late' && !cadence.anotherDue(schoolId, busId, now)) {
    await fanOutNextSecond(schoolId);
  }
  return true;
};

/** A driver stopped: the bus leaves every map at once. */
export const stopBus = async (schoolId: number, busId: string) => {
  if (!(await isSchoolBus(schoolId, busId))) return false;
  const stoppedAt = Date.now();
  // Another bus's position may wait for this one's next to carry it: it must not wait for nothing.
  const waiting = cadence.forget(schoolId, busId, stoppedAt);
  await busPositions.remove(db, schoolId, busId);
  await toBuses(schoolId, { type: 'BUS_TRACKING_STOPPED', data: { busId, stoppedAt } });
  if (waiting && config.busRelay !== 'naive' && (await fanOut(schoolId)) === 'late')
    await fanOutNextSecond(schoolId);
  return true;
};

/**
 * A driver's Help or Emergency: an alert of the school's running session
 * (it joins the alert panels and their sequence), or of the school when no
 * session runs (still stored and sent to the staff, never dropped). A second
 * press while the same alert is active answers that alert.
 */
export const raiseBusAlert = async (
  holder: BusLinkHolder,
  input: BusAlertInput,
): Promise<{ dismissed: boolean; alert: Alert }> => {
  const { schoolId } = holder;
  const session = await pickupSessions.active(db, schoolId);
  const sessionId = session?.id ?? null;
  const location = input.metadata.busName || input.metadata.busId || NO_BUS_CHOSEN;
  const record = await recording(DRIVER_LINK, schoolId);
  for (let attempt = 0; attempt < 3; attempt++) {
    const raised = await alerts.raise(
      db,
      {
        sessionId,
        schoolId,
        type: input.type,
        location,
        message: input.message || input.title,
        priority: input.priority,
        title: input.title,
        source: input.source,
        metadata: {
          busId: input.metadata.busId,
          busName: input.metadata.busName,
          location: input.metadata.location ?? null,
        },
      },
      record,
    );
    if (raised) {
      countMetric('alertsRaised');
      const event = { type: 'ALERT_CREATED', data: raised } as const;
      await (sessionId === null
        ? publishToStaff(schoolId, event)
        : publishToSession(schoolId, sessionId, event));
      return { dismissed: false, alert: raised };
    }
    const active = await alerts.activeAt(db, { schoolId, sessionId, type: input.type, location });
    if (active) return { dismissed: false, alert: active };
  }
  throw new ConflictError('The alert could not be sent. Please try again.');
};
