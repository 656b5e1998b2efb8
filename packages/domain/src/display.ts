import type { Batch, QueueEntry, VehicleType } from './queue';

/**
 * The hallway display (issue 32): the students whose car has been called
 * (ready, or in a loading batch), grouped by batch and lane, newest on top.
 * It carries first names, last initials, vehicle and batch numbers only:
 * never a phone number, a parent's name or anything else of a family.
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
  /** The batch's number; null for vehicles called on their own (ready, not in a batch). */
  batchNumber: number | null;
  /** The lane: the vehicle type of the line the car waits in. */
  lane: VehicleType;
  calledAt: string;
  vehicles: DisplayVehicle[];
}

export interface DisplayBoard {
  sessionId: number | null;
  groups: DisplayGroup[];
}

const displayed = (entry: QueueEntry): DisplayVehicle => ({
  vehicleNumber: entry.vehicleNumber,
  students: entry.students.map((student) => ({
    id: student.id,
    firstName: student.firstName,
    lastInitial: student.lastName.trim().charAt(0).toUpperCase(),
  })),
});

/** The board of a session from its active entries and batches: pure, so what it shows is tested apart. */
export const displayBoardOf = (
  sessionId: number | null,
  entries: readonly QueueEntry[],
  batches: readonly Batch[],
): DisplayBoard => {
  const loading = new Map(batches.filter((batch) => batch.status === 'loading').map((b) => [b.id, b]));
  const groups = new Map<string, DisplayGroup>();
  for (const entry of entries) {
    if (entry.status === 'completed' || entry.status === 'overflow') continue;
    const batch = entry.batchId !== null ? loading.get(entry.batchId) : undefined;
    if (!batch && entry.status !== 'ready') continue;
    const key = batch ? `batch#${batch.id}` : `ready#${entry.vehicleType}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        batchNumber: batch?.batchNumber ?? null,
        lane: entry.vehicleType,
        calledAt: batch?.startTime ?? entry.queueTime,
        vehicles: [],
      };
      groups.set(key, group);
    }
    if (!batch && entry.queueTime > group.calledAt) group.calledAt = entry.queueTime;
    group.vehicles.push(displayed(entry));
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
