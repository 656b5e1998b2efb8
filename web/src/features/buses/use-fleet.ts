import { routes } from '@curbside/api';
import { BUS_MAP } from '@curbside/domain';
import { useEffect, useState } from 'react';
import { api, apiWithLink } from '../../lib/api';
import { HttpError } from '../../lib/http';
import { useBusSocket } from './bus-socket';
import { applyBusEvent, emptyFleet, type FleetState, withoutStale } from './fleet';

const refused = (error: unknown) =>
  error instanceof HttpError && (error.status === 401 || error.status === 403);

/**
 * The school's buses for a map: read (`GET /api/buses/positions`) when the
 * page opens and each time its live connection opens or drops, and kept by
 * the live connection in between. With a map link (`token`) the page reads
 * and listens with it; without one, a signed-in staff page uses its sign-in
 * (`?buses=1`). A link that is not (or no longer: rotated) valid opens no
 * connection and `linkValid` turns false.
 */
export const useFleet = (token: string | null, { staff = false } = {}) => {
  const [state, setState] = useState<FleetState>(emptyFleet);
  const usable = token !== null || staff;
  const [linkValid, setLinkValid] = useState<boolean | null>(usable ? null : false);
  const query = linkValid ? (token ? `?t=${token}` : '?buses=1') : null;
  const socket = useBusSocket(query, (event) => setState((current) => applyBusEvent(current, event)));
  const { status } = socket;

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again whenever the connection opens or drops
  useEffect(() => {
    if (!usable || linkValid === false) return;
    let cancelled = false;
    const read = token ? apiWithLink(token, routes.busPositions) : api(routes.busPositions);
    read.then(
      (positions) => {
        if (cancelled) return;
        setLinkValid(true);
        setState((current) => applyBusEvent(current, { type: 'BUS_LOCATIONS', data: { buses: positions } }));
      },
      (error: unknown) => {
        if (!cancelled && refused(error)) setLinkValid(false);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, staff, status]);

  // Buses silent for 5 minutes leave the map (checked every 30 s).
  useEffect(() => {
    const timer = setInterval(() => setState((current) => withoutStale(current)), BUS_MAP.cleanupEveryMs);
    return () => clearInterval(timer);
  }, []);

  return { buses: state.buses, linkValid, socket };
};
