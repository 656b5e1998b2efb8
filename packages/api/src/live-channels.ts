import { isStaffRole, type Role } from '@curbside/domain';
import { channels } from './events';

/** Who opens a live connection, as `$connect` finds out. */
export type LiveCaller =
  /** A page opened with one of the school's bus links (`/ws?t=`). */
  | { kind: 'busLink'; schoolId: number; link: 'driver' | 'map' }
  /** A page opened with the school's hallway display link (`/ws?t=`). */
  | { kind: 'display'; schoolId: number }
  /**
   * Anyone else: signed in (a one-time password not yet replaced counts as
   * not signed in) or not; `buses`: a staff page's own connection for the bus map (`?buses=1`).
   */
  | {
      kind: 'page';
      user: { id: number; role: Role; schoolId: number | null } | null;
      buses: boolean;
    };

/**
 * The channels a connection joins when it opens (ADR 0018): everyone the
 * public channel and nothing else unless below. A display link: its school's
 * display channel. A bus link: its school's bus-links channel, and the bus
 * positions (map) or the drivers' channel (driver). Signed-in staff: their
 * school's staff channel and every car-line event of the school (the line)
 * until the connection subscribes to classrooms; their bus-map connection
 * the school's bus positions only. A parent: their own channel.
 */
export const channelsOnConnect = (caller: LiveCaller): string[] => {
  const joined = [channels.public()];
  if (caller.kind === 'display') return [...joined, channels.display(caller.schoolId)];
  if (caller.kind === 'busLink') {
    return [
      ...joined,
      channels.busLinks(caller.schoolId),
      caller.link === 'map' ? channels.buses(caller.schoolId) : channels.drivers(caller.schoolId),
    ];
  }
  const { user } = caller;
  const staffSchool = user && isStaffRole(user.role) ? user.schoolId : null;
  if (caller.buses) return staffSchool !== null ? [...joined, channels.buses(staffSchool)] : joined;
  if (staffSchool !== null) joined.push(channels.staff(staffSchool), channels.line(staffSchool));
  if (user?.role === 'parent') joined.push(channels.parent(user.id));
  return joined;
};
