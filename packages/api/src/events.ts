import type { Alert, Batch, ParentStatus, QueuedVehicle, QueueEntry } from '@curbside/domain';

/**
 * The live-event catalogue: every message type the server sends over the
 * WebSocket connection, what its `data` carries, and the channels
 * connections join. The server publishes these types and the web client
 * reads them; neither casts.
 *
 * Car-line events carry the records as they are after the change (queue
 * entries with their students, batches with their counts), each with a
 * `version` that every change raises: a screen patches its lists with them
 * and keeps the higher version of a record when two copies meet.
 */
export interface CarLineEventData {
  /** A vehicle joined the queue: the new entry, and the vehicle the toast describes. */
  VEHICLE_QUEUED: { entry: QueueEntry; vehicle: QueuedVehicle };
  /**
   * A visit left the queue without a pickup (removed, left, a dismissed
   * overflow entry): the entry as it left, and its batch's new count when it
   * was in one.
   */
  VEHICLE_REMOVED: { entry: QueueEntry; batch: Batch | null };
  /**
   * An entry or a batch changed: the entry's new state (status, batch; a
   * completed entry is a pickup that left the queue) and the batch whose
   * count or state changed (a new batch, a vehicle in or out).
   */
  QUEUE_STATUS_UPDATED: { entry: QueueEntry | null; batch: Batch | null };
  /** A batch completed: the batch, and its entries, now completed pickups. */
  VEHICLES_REMOVED_FROM_QUEUE: { batch: Batch; entries: QueueEntry[] };
  /** An alert became active (the specification: the data is an alert). */
  ALERT_CREATED: Alert;
  /** An alert was dismissed (the specification: the data has id and removed). */
  ALERT_DISMISSED: { id: number; removed: true };
  /**
   * A teacher released a student for pickup (to staff, and to the student's
   * parents); or, on a parent's own channel only, their child's status after
   * the child's car joined, moved, left or was picked up. It names the child
   * and nothing else: the parent's dashboard reads its status again.
   */
  STUDENT_STATUS_UPDATE:
    | { studentId: number; sessionId: number; status: 'released'; releasedAt: string }
    | { studentId: number; sessionId: number; status: ParentStatus };
}

/**
 * Named by the specification for the parent dashboard and the bus map (the
 * bus events are not sent yet). Their shapes are the specification's (§7 Live connection), kept
 * here so the parent and bus work starts from them.
 */
export interface PlannedEventData {
  /** A bus position (the driver page sends it; the map receives it). */
  BUS_LOCATION_UPDATE: {
    busId: string;
    location: {
      latitude: number;
      longitude: number;
      speed?: number;
      accuracy?: number;
      heading?: number;
      timestamp: number;
    };
  };
  /** A driver stopped sharing their position. */
  BUS_TRACKING_STOPPED: { busId: string };
  /**
   * On a parent's channel: the line moved, so their child's place and wait
   * changed (at most one per child per 15 s). The dashboard reads the status again.
   */
  QUEUE_UPDATE: { studentId: number };
}

export type LiveEventData = CarLineEventData & PlannedEventData;
export type LiveEventType = keyof LiveEventData;
export type CarLineEventType = keyof CarLineEventData;

export const CAR_LINE_EVENT_TYPES = [
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
  'ALERT_CREATED',
  'ALERT_DISMISSED',
  'STUDENT_STATUS_UPDATE',
] as const satisfies readonly CarLineEventType[];

export const LIVE_EVENT_TYPES = [
  ...CAR_LINE_EVENT_TYPES,
  'BUS_LOCATION_UPDATE',
  'BUS_TRACKING_STOPPED',
  'QUEUE_UPDATE',
] as const satisfies readonly LiveEventType[];

/** One message of type `T`. */
export interface LiveMessageOf<T extends LiveEventType> {
  type: T;
  data: LiveEventData[T];
  /**
   * The pickup session the change belongs to, and its place in that session's
   * sequence (1, 2, 3, …, one number per event sent to the school's staff).
   * A screen that sees a number skipped missed an event and reads its lists
   * again. Absent on events outside a session and on a parent's copy.
   */
  sessionId?: number;
  seq?: number;
  /**
   * When the server published the event, right after the change committed:
   * epoch milliseconds. Set by the publisher on every event it sends; lets a
   * client (and the benchmark) measure delivery latency.
   */
  sentAt?: number;
}

/** Any live event: a union discriminated by `type`, so `data` narrows with it. */
export type LiveEvent = { [T in LiveEventType]: LiveMessageOf<T> }[LiveEventType];
export type CarLineEvent = { [T in CarLineEventType]: LiveMessageOf<T> }[CarLineEventType];

/** Anything the server sends on a connection: a live event or the answer to a ping. */
export type ServerMessage = LiveEvent | { type: 'pong' };

/** Channels: a school's staff, a parent's own updates, and the public bus channel. */
export const channels = {
  staff: (schoolId: number) => `school#${schoolId}#staff`,
  parent: (parentId: number) => `parent#${parentId}`,
  /** Every connection joins it; the bus map's positions will be sent here. */
  public: () => 'public',
} as const;
