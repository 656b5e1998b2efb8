import type { LiveEvent } from '@curbside/api';
import { BUS_MAP, type BusLocation } from '@curbside/domain';

/**
 * The buses a map shows (specification §3 "Tracked bus"): each bus's last
 * location, when this page received it, and the server's time of it. A bus
 * appears or moves with a location, leaves with a stop or after 5 minutes
 * without one.
 */
export interface TrackedBus {
  busId: string;
  location: BusLocation;
  /** When this page received the location (ms): active under a minute, delayed after. */
  lastUpdate: number;
  /** The server's time of the location (ms), when known: a stop after it wins. */
  updatedAt: number;
}

export type Fleet = ReadonlyMap<string, TrackedBus>;

export interface FleetState {
  buses: Fleet;
  /** When each bus last stopped (server ms): an older location that arrives late does not bring it back. */
  stopped: ReadonlyMap<string, number>;
}

export const emptyFleet = (): FleetState => ({ buses: new Map(), stopped: new Map() });

const withBus = (state: FleetState, bus: TrackedBus): FleetState => {
  const stoppedAt = state.stopped.get(bus.busId);
  if (stoppedAt !== undefined && bus.updatedAt <= stoppedAt) return state;
  const known = state.buses.get(bus.busId);
  if (known && known.location.timestamp > bus.location.timestamp) return state;
  return { ...state, buses: new Map(state.buses).set(bus.busId, bus) };
};

/** A live message applied to the fleet (other messages leave it as it is). */
export const applyBusEvent = (state: FleetState, event: LiveEvent, now = Date.now()): FleetState => {
  switch (event.type) {
    case 'BUS_LOCATIONS':
      return event.data.buses.reduce((next, bus) => withBus(next, { ...bus, lastUpdate: now }), state);
    case 'BUS_LOCATION_UPDATE':
      return withBus(state, {
        busId: event.data.busId,
        location: event.data.location,
        lastUpdate: now,
        updatedAt: event.sentAt ?? now,
      });
    case 'BUS_TRACKING_STOPPED': {
      const buses = new Map(state.buses);
      buses.delete(event.data.busId);
      const stopped = new Map(state.stopped).set(
        event.data.busId,
        event.data.stoppedAt ?? event.sentAt ?? now,
      );
      return { buses, stopped };
    }
    default:
      return state;
  }
};

/** Buses with no location for 5 minutes leave the map. */
export const withoutStale = (state: FleetState, now = Date.now()): FleetState => {
  const stale = [...state.buses.values()].filter((bus) => now - bus.lastUpdate >= BUS_MAP.staleMs);
  if (stale.length === 0) return state;
  const buses = new Map(state.buses);
  for (const bus of stale) buses.delete(bus.busId);
  return { ...state, buses };
};

/** Active: a location within the last minute; delayed after that. */
export const isActive = (bus: TrackedBus, now = Date.now()) => now - bus.lastUpdate < BUS_MAP.activeMs;

/** m/s → mph. */
export const mph = (metresPerSecond: number) => metresPerSecond * 2.23694;
