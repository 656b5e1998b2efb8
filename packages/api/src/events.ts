import type {
  Alert,
  AlertAcknowledgement,
  Arrival,
  Batch,
  BusLocation,
  BusPosition,
  DismissalChangeView,
  DisplayBoard,
  ParentStatus,
  PickupSession,
  PlanEntry,
  ProgramCheckIn,
  QueuedVehicle,
  QueueEntry,
  ReleasedWay,
  SchoolSettings,
  StudentAuthorizedPickups,
} from '@curbside/domain';

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
  /**
   * Undo put a removed or picked-up visit back (same id, same arrival): the
   * entry as it is again, and its batch's new count when it went back into it.
   * Screens take the id off their list of ended visits.
   */
  VEHICLE_RESTORED: { entry: QueueEntry; batch: Batch | null };
  /** A batch completed: the batch, and its entries, now completed pickups. */
  VEHICLES_REMOVED_FROM_QUEUE: { batch: Batch; entries: QueueEntry[] };
  /** An alert became active (the specification: the data is an alert). */
  ALERT_CREATED: Alert;
  /**
   * An alert was dismissed (the specification: the data has id and removed).
   * The school's driver pages are told of a driver's alert's dismissal too,
   * with `dismissedBy` (ours, issue 50): who closed it and when, which the
   * page shows ("Closed by …"); the staff's copy is the specification's.
   */
  ALERT_DISMISSED: { id: number; removed: true; dismissedBy?: { name: string; at: string } };
  /**
   * Someone said "I'm on it" (ours): to staff, the alert with its
   * acknowledgements; to the school's driver pages (a bus driver's alert
   * only), the driver's view of it (`DriverAlertView`).
   */
  ALERT_ACKNOWLEDGED: Alert | DriverAlertView;
  /**
   * A teacher released a student for pickup (to staff, and to the student's
   * parents); or, on a parent's own channel only, their child's status after
   * the child's car joined, moved, left or was picked up. It names the child
   * and nothing else: the parent's dashboard reads its status again.
   */
  STUDENT_STATUS_UPDATE:
    | {
        studentId: number;
        sessionId: number;
        status: 'released';
        releasedAt: string;
        /** Who released the student (staff screens only; parents are not told). */
        releasedBy?: string;
      }
    | { studentId: number; sessionId: number; status: ParentStatus };
  /**
   * Students released by way home in one press (issue 52): the walkers, a
   * bus's riders or a program's children of some classrooms. To the whole
   * line and to the screens subscribed to their classrooms (each student's
   * parents get `STUDENT_STATUS_UPDATE` released, as for a teacher's release).
   */
  STUDENTS_RELEASED: {
    sessionId: number;
    way: ReleasedWay;
    releasedAt: string;
    /** Who released them (their username, as a release's `releasedBy`). */
    releasedBy: string;
    students: Array<{ id: number; classroomId: number | null }>;
  };
}

/**
 * What a driver page is told of a bus alert: that the school has seen it, and
 * by whom (display names and times). Nothing else of the school: no user ids,
 * no session.
 */
export interface DriverAlertView {
  id: number;
  type: Alert['type'];
  status: Alert['status'];
  busId: string;
  acknowledgements: Pick<AlertAcknowledgement, 'name' | 'at'>[];
}

/** The driver's view of a bus alert (`DriverAlertView`). */
export const driverAlertView = (alert: Alert): DriverAlertView => ({
  id: alert.id,
  type: alert.type,
  status: alert.status,
  busId: String((alert.metadata as { busId?: unknown } | undefined)?.busId ?? ''),
  acknowledgements: (alert.acknowledgements ?? []).map(({ name, at }) => ({ name, at })),
});

/** A staff copy of ALERT_ACKNOWLEDGED carries the whole alert; a driver's copy does not. */
export const isStaffAlert = (data: Alert | DriverAlertView): data is Alert => 'schoolId' in data;

/**
 * The parent dashboard's and the bus map's events. The bus events go to the
 * school's bus channel: its map-link viewers and the staff map; none carries
 * a student.
 */
export interface PortalEventData {
  /** One bus's position (specification §7; the driver page sends this shape, the map understands it). */
  BUS_LOCATION_UPDATE: { busId: string; location: BusLocation };
  /**
   * The fleet's latest positions, coalesced: every bus that moved since the
   * last one, at most one message per viewer per second for the whole fleet.
   * `second` (ours, epoch seconds): the second the fan-out was claimed for,
   * one per school per second; absent on a read of the positions.
   */
  BUS_LOCATIONS: { buses: BusPosition[]; second?: number };
  /**
   * A driver stopped sharing their position. `stoppedAt` (server ms, ours):
   * a coalesced message that overtook this one with an older position of the
   * bus (`updatedAt` before it) must not bring the bus back.
   */
  BUS_TRACKING_STOPPED: { busId: string; stoppedAt?: number };
  /**
   * On a parent's channel: the line moved, so their child's place and wait
   * changed (at most one per child per 15 s). The dashboard reads the status again.
   */
  QUEUE_UPDATE: { studentId: number };
}

/** To a school's staff: the school itself changed. */
export interface SchoolEventData {
  /**
   * The school's sandbox mode, or its district's, was switched: screens read
   * the school again (whether it is read-only depends on who looks: a super
   * admin never is).
   */
  SCHOOL_MODE_CHANGED: { schoolId: number; sandbox: boolean; districtSandbox: boolean };
  /**
   * The school's settings changed (#32): the car-line screens show the batch
   * sizes in force without a reload; the next batch takes them.
   */
  SCHOOL_SETTINGS_CHANGED: { schoolId: number; settings: SchoolSettings };
  /**
   * A parent added or removed an adult allowed to collect a child (issue 50):
   * the child's list as staff screens show it now (names, relationships,
   * who added each and when), so an open screen shows it without a reload.
   */
  AUTHORIZED_PICKUPS_CHANGED: StudentAuthorizedPickups & { schoolId: number; studentId: number };
  /**
   * A pickup session started (issue 50): every staff screen of the school,
   * whatever it follows, switches to it without a reload.
   */
  SESSION_STARTED: { schoolId: number; session: PickupSession };
  /**
   * The running session ended (by staff, or by the schedule at its end
   * time): the screens showing it leave it (the session as it ended).
   */
  SESSION_ENDED: { schoolId: number; session: PickupSession };
  /**
   * A program's staff checked a child in, or took it back (`checkedInAt`
   * null; issue 52): the program screens and the office follow it.
   */
  PROGRAM_CHECK_IN: ProgramCheckIn;
}

/**
 * Ways home (issue 51): to the school's whole-line staff screens and the
 * connections of the child's classroom (a teacher only for their classrooms),
 * outside any session's sequence; a change's updates also to the child's parents.
 */
export interface WayHomeEventData {
  /**
   * Children's way home for today changed (a change for today approved, or
   * one cancelled; a weekly plan edited): today's plan entries as they are
   * now, and the change (null for a weekly plan's edit).
   */
  DISMISSAL_PLAN_CHANGED: { date: string; students: PlanEntry[]; change: DismissalChangeView | null };
  /**
   * A dated change was asked for, decided or cancelled (any day): the
   * office's "Today's changes" and the family's list of requests follow it.
   */
  DISMISSAL_CHANGE_UPDATED: { change: DismissalChangeView };
}

/**
 * Families' arrivals (issue 53): to the school's whole-line staff screens and
 * the connections of the children's classrooms (their teachers), outside any
 * session's sequence; never to a parent, a display or another school.
 */
export interface ArrivalEventData {
  /** A parent announced (or announced again): the arrival as it is now. */
  ARRIVAL_ANNOUNCED: { arrival: Arrival };
}

/** To a school's hallway displays (issue 32): only what the display shows. */
export interface DisplayEventData {
  /** The called students as they are now (first names, last initials, vehicle and batch numbers). */
  DISPLAY_BOARD: DisplayBoard;
}

export type LiveEventData = CarLineEventData &
  PortalEventData &
  SchoolEventData &
  WayHomeEventData &
  ArrivalEventData &
  DisplayEventData;
export type LiveEventType = keyof LiveEventData;
export type CarLineEventType = keyof CarLineEventData;

export const CAR_LINE_EVENT_TYPES = [
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLE_RESTORED',
  'VEHICLES_REMOVED_FROM_QUEUE',
  'ALERT_CREATED',
  'ALERT_DISMISSED',
  'ALERT_ACKNOWLEDGED',
  'STUDENT_STATUS_UPDATE',
  'STUDENTS_RELEASED',
] as const satisfies readonly CarLineEventType[];

export const LIVE_EVENT_TYPES = [
  ...CAR_LINE_EVENT_TYPES,
  'BUS_LOCATION_UPDATE',
  'BUS_LOCATIONS',
  'BUS_TRACKING_STOPPED',
  'QUEUE_UPDATE',
  'SCHOOL_MODE_CHANGED',
  'SCHOOL_SETTINGS_CHANGED',
  'AUTHORIZED_PICKUPS_CHANGED',
  'SESSION_STARTED',
  'SESSION_ENDED',
  'PROGRAM_CHECK_IN',
  'DISMISSAL_PLAN_CHANGED',
  'DISMISSAL_CHANGE_UPDATED',
  'ARRIVAL_ANNOUNCED',
  'DISPLAY_BOARD',
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

/**
 * A staff connection's subscription (issue 31, ADR 0018): the classrooms whose
 * car-line events it now receives (only those of its own school that exist),
 * or `null`: every car-line event of the school again.
 */
export interface SubscribedMessage {
  type: 'subscribed';
  classroomIds: number[] | null;
}

/** A message the server could not act on (a malformed subscribe): the connection stays open. */
export interface ErrorMessage {
  type: 'error';
  error: string;
  /** The action that was refused. */
  action?: string;
}

/** Anything the server sends on a connection: a live event, the answer to a ping or to a subscribe. */
export type ServerMessage = LiveEvent | { type: 'pong' } | SubscribedMessage | ErrorMessage;

/** A school's channels by the last part of their name. */
const SCHOOL_CHANNELS: Record<string, SchoolChannelKind | undefined> = {
  staff: 'staff',
  buses: 'buses',
  'bus-links': 'busLinks',
  drivers: 'drivers',
  display: 'display',
  line: 'line',
  classrooms: 'narrowed',
};
type SchoolChannelKind = 'staff' | 'buses' | 'busLinks' | 'drivers' | 'display' | 'line' | 'narrowed';

/** A channel as `channels.parse` reads its name. */
export type Channel =
  | { kind: 'public' }
  | { kind: 'parent'; parentId: number }
  | { kind: SchoolChannelKind; schoolId: number }
  | { kind: 'classroom'; schoolId: number; classroomId: number };

/** Channels: a school's staff, a parent's own updates, and the public bus channel. */
export const channels = {
  staff: (schoolId: number) => `school#${schoolId}#staff`,
  parent: (parentId: number) => `parent#${parentId}`,
  /** Every connection joins it; nothing is sent to it but what any page may know. */
  public: () => 'public',
  /** A school's bus positions: its map-link viewers and the staff map connections. */
  buses: (schoolId: number) => `school#${schoolId}#buses`,
  /**
   * The connections opened with one of the school's bus links (drivers and
   * map viewers): rotating the links closes them. Nothing is sent to it.
   */
  busLinks: (schoolId: number) => `school#${schoolId}#bus-links`,
  /**
   * The connections opened with the school's driver link: told only that
   * the school has seen a bus alert (`ALERT_ACKNOWLEDGED` with a `DriverAlertView`).
   */
  drivers: (schoolId: number) => `school#${schoolId}#drivers`,
  /**
   * The connections opened with the school's display link (issue 32): told
   * only `DISPLAY_BOARD`; rotating the link closes them.
   */
  display: (schoolId: number) => `school#${schoolId}#display`,
  /**
   * The school's car-line events, numbered in the session's sequence: the
   * staff connections that follow the whole line (every staff connection
   * until it subscribes to classrooms; front and back queue, dashboards).
   */
  line: (schoolId: number) => `school#${schoolId}#line`,
  /**
   * The staff connections narrowed to classrooms (issue 31): told, without a
   * sequence number, the car-line events that concern no classroom in
   * particular (alerts of a session).
   */
  narrowed: (schoolId: number) => `school#${schoolId}#classrooms`,
  /** One classroom's car-line events (unnumbered), for the connections subscribed to it. */
  classroom: (schoolId: number, classroomId: number) => `school#${schoolId}#classroom#${classroomId}`,
  /** What a channel's name says (`channels.parse(channels.classroom(1, 2))` is that classroom); nothing parses one elsewhere. */
  parse: (channel: string): Channel | undefined => {
    if (channel === 'public') return { kind: 'public' };
    const parent = /^parent#(\d+)$/.exec(channel);
    if (parent) return { kind: 'parent', parentId: Number(parent[1]) };
    const classroom = /^school#(\d+)#classroom#(\d+)$/.exec(channel);
    if (classroom)
      return { kind: 'classroom', schoolId: Number(classroom[1]), classroomId: Number(classroom[2]) };
    const school = /^school#(\d+)#([a-z-]+)$/.exec(channel);
    const kind = SCHOOL_CHANNELS[school?.[2] ?? ''];
    return school && kind ? { kind, schoolId: Number(school[1]) } : undefined;
  },
} as const;
