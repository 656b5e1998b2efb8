import { BusMap } from './bus-map';
import { useFleet } from './use-fleet';

/** The school admin's live-queue map: the school's buses, over the staff member's own sign-in. */
export function StaffBusMap() {
  const { buses, socket } = useFleet(null, { staff: true });
  return <BusMap buses={buses} live={socket.status === 'open'} />;
}
