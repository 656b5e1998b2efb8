import type { Batch, QueueEntry, StudentSummary, VehicleType } from './queue';
import type { ReleasedWay } from './way-calls';

/**
 * The hallway display (issue 32): the students whose car has been called
 * (ready, or in a loading batch) and those a teacher released while their car
 * waits (issue 50: "released or in a loading batch"), grouped by batch and
 * lane, newest on top. It carries first names, last initials, vehicle and
 * batch numbers only: never a phone number, a parent's name or anything else
 * of a family.
 */
export interface DisplayStudent {
  id: number;
  firstName: string;
  lastInitial: string;
}

export interface DisplayVehicle {
  vehicleNumber: string;
  students: DisplayStudent[];
}

export interface DisplayGroup {
  /**
   * The batch's number; null for vehicles called on their own (ready, not in
   * a batch) and for waiting cars whose children a teacher released (those
   * children only).
   */
  batchNumber: number | null;
  /**
   * The lane: the vehicle type of the line the car waits in; or, for children
   * released by way home (issue 52), `walker` (the walkers) or `program`
   * (one program's children, named by `title`), shown for a few minutes.
   */
  lane: VehicleType | 'walker' | 'program';
  /** A program's name (lane `program`). */
  title?: string;
  calledAt: string;
  /** Walkers and programs: when the group leaves the board (a few minutes after the last release). */
  shownUntil?: string;
  vehicles: DisplayVehicle[];
}

/** How long walkers and a program's children stay on the board after their release. */
export const WAY_RELEASE_SHOWN_MS = 5 * 60 * 1000;

/** A release by way home as the board reads it (its recent releases). */
export interface RecentWayRelease {
  releasedAt: string;
  way: ReleasedWay;
  student: StudentSummary;
}

export interface DisplayBoard {
  sessionId: number | null;
  groups: DisplayGroup[];
}

const displayed = (
  entry: Pick<QueueEntry, 'vehicleNumber' | 'students'>,
  students = entry.students,
): DisplayVehicle => ({
  vehicleNumber: entry.vehicleNumber,
  students: students.map((student) => ({
    id: student.id,
    firstName: student.firstName,
    lastInitial: student.lastName.trim().charAt(0).toUpperCase(),
  })),
});

/**
 * The board of a session from its active entries, batches and the time each
 * released student was released (student id → time): pure, so what it shows
 * is tested apart. A car in a loading batch or called forward shows all its
 * children; a car still waiting shows the children a teacher released. The
 * walkers and each program's children released in the last few minutes
 * (`recentReleases`) make a group each (issue 52).
 */
export const displayBoardOf = (
  sessionId: number | null,
  entries: readonly QueueEntry[],
  batches: readonly Batch[],
  releasedAt: ReadonlyMap<number, string> = new Map(),
  recentReleases: readonly RecentWayRelease[] = [],
): DisplayBoard => {
  const loading = new Map(batches.filter((batch) => batch.status === 'loading').map((b) => [b.id, b]));
  const groups = new Map<string, DisplayGroup>();
  for (const entry of entries) {
    if (entry.status === 'completed' || entry.status === 'overflow') continue;
    const batch = entry.batchId !== null ? loading.get(entry.batchId) : undefined;
    const called = batch !== undefined || entry.status === 'ready';
    const released = called ? entry.students : entry.students.filter((student) => releasedAt.has(student.id));
    if (released.length === 0 && !called) continue;
    const key = batch ? `batch#${batch.id}` : `ready#${entry.vehicleType}`;
    // Called forward: when its car arrived; released while it waits: when the last child was released.
    const at = called
      ? entry.queueTime
      : ([entry.queueTime, ...released.map((student) => releasedAt.get(student.id) ?? '')].sort().at(-1) ??
        entry.queueTime);
    let group = groups.get(key);
    if (!group) {
      group = {
        batchNumber: batch?.batchNumber ?? null,
        lane: entry.vehicleType,
        calledAt: batch?.startTime ?? at,
        vehicles: [],
      };
      groups.set(key, group);
    }
    if (!batch && at > group.calledAt) group.calledAt = at;
    group.vehicles.push(displayed(entry, released));
  }
  for (const release of recentReleases) {
    // A bus's riders go with their bus (its group, while it loads).
    if (release.way.mode === 'bus') continue;
    const key = release.way.mode === 'walker' ? 'walkers' : `program#${release.way.programId}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        batchNumber: null,
        lane: release.way.mode,
        ...(release.way.mode === 'program' ? { title: release.way.name } : {}),
        calledAt: release.releasedAt,
        vehicles: [{ vehicleNumber: '', students: [] }],
      };
      groups.set(key, group);
    }
    if (release.releasedAt > group.calledAt) group.calledAt = release.releasedAt;
    const shown = group.vehicles[0] as DisplayVehicle;
    if (!shown.students.some((student) => student.id === release.student.id))
      shown.students.push(...displayed({ vehicleNumber: '', students: [release.student] }).students);
  }
  for (const group of groups.values()) {
    if (group.lane === 'walker' || group.lane === 'program')
      group.shownUntil = new Date(Date.parse(group.calledAt) + WAY_RELEASE_SHOWN_MS).toISOString();
  }
  const list = [...groups.values()].sort(
    (a, b) => b.calledAt.localeCompare(a.calledAt) || (b.batchNumber ?? 0) - (a.batchNumber ?? 0),
  );
  return { sessionId, groups: list };
};

/** The school's display link: `{origin}/display?t={token}`. */
export interface DisplayLink {
  url: string;
}
