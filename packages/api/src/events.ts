/**
 * The live-event catalogue: every message type the server sends over the
 * WebSocket connection, and the channels connections can join.
 */
export const LIVE_EVENT_TYPES = [
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
  'ALERT_CREATED',
  'ALERT_DISMISSED',
  'BUS_LOCATION_UPDATE',
  'BUS_TRACKING_STOPPED',
  'QUEUE_UPDATE',
  'STUDENT_STATUS_UPDATE',
] as const;

export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export interface LiveEvent<T = unknown> {
  type: LiveEventType;
  data?: T;
  /**
   * When the server published the event, right after the change committed:
   * epoch milliseconds. Set by the publisher on every event it sends; lets a
   * client (and the benchmark) measure delivery latency.
   */
  sentAt?: number;
}

/** Anything the server sends on a connection: a live event or the answer to a ping. */
export type ServerMessage = LiveEvent | { type: 'pong' };

/** Channels: a school's staff, a parent's own updates, and the public bus channel. */
export const channels = {
  staff: (schoolId: number) => `school#${schoolId}#staff`,
  parent: (parentId: number) => `parent#${parentId}`,
  public: () => 'public',
} as const;
