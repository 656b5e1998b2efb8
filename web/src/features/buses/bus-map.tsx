import { BUS_MAP } from '@curbside/domain';
import { Badge, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Map as MapLibreMap, Marker, Popup } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { loadMapLibre, MAP_STYLE_URL, OPEN_STYLE } from '../../lib/map-style';
import { MUTED_TEXT } from '../../lib/theme';
import './bus-map.css';
import { type Fleet, isActive, mph, type TrackedBus } from './fleet';

/** Blue when active, grey when delayed (over a minute since its last location). */
const ACTIVE = '#1864ab';
const DELAYED = '#5c636a';
/** The status dots of the list: green active, yellow delayed. */
const DOT = { active: '#2b8a3e', delayed: '#e8a400' } as const;

const time = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', second: '2-digit' });
const coordinate = (value: number) => value.toFixed(6);
const plural = (n: number) => `${n} ${n === 1 ? 'bus' : 'buses'}`;

/** A 24 px bus icon (a marker is a real button, named for the bus). */
const busIcon = (color: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="3" y="3" width="18" height="15" rx="3" fill="${color}"/><rect x="5.5" y="5.5" width="13" height="6" rx="1" fill="#fff"/><circle cx="7.5" cy="15" r="1.4" fill="#fff"/><circle cx="16.5" cy="15" r="1.4" fill="#fff"/><rect x="5" y="18" width="3" height="3" rx="1" fill="${color}"/><rect x="16" y="18" width="3" height="3" rx="1" fill="${color}"/></svg>`;

/** The popup's content, built as DOM (no HTML from data). */
const popupContent = (bus: TrackedBus, onCenter: () => void) => {
  const root = document.createElement('div');
  root.className = 'curbside-bus-popup';
  const line = (text: string, strong = false) => {
    const element = document.createElement(strong ? 'strong' : 'div');
    element.textContent = text;
    root.append(element);
  };
  line(`Bus ${bus.busId}`, true);
  line(`Latitude: ${coordinate(bus.location.latitude)}`);
  line(`Longitude: ${coordinate(bus.location.longitude)}`);
  if (bus.location.speed != null) line(`Speed: ${mph(bus.location.speed).toFixed(1)} mph`);
  if (bus.location.accuracy != null) line(`Accuracy: ${bus.location.accuracy.toFixed(1)} m`);
  line(`Last update: ${time(bus.lastUpdate)}`);
  const center = document.createElement('button');
  center.type = 'button';
  center.textContent = 'Center on Bus';
  center.className = 'curbside-bus-popup-center';
  center.addEventListener('click', onCenter);
  root.append(center);
  return root;
};

interface Placed {
  marker: Marker;
  element: HTMLButtonElement;
  popup: Popup;
}

export interface BusMapProps {
  buses: Fleet;
  /** The live connection is open. */
  live: boolean;
  /** Heading level of the panel's title. */
  titleOrder?: 2 | 3;
}

/**
 * The shared bus map (specification §2 "Bus map panel", §4 "Bus presence on
 * the map"): maplibre-gl, loaded when the map first shows, with a marker and
 * popup per bus, 'Fit all buses', the no-buses overlay, the Active Buses list
 * and its legend. Without map tiles (no network) the background, markers and
 * popups still show.
 */
export function BusMap({ buses, live, titleOrder = 2 }: BusMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const library = useRef<typeof import('maplibre-gl') | null>(null);
  const placed = useRef(new Map<string, Placed>());
  const atDefault = useRef(true);
  // The map keeps every bus in view until the user pans, zooms or picks one bus; 'Fit all buses' resumes it.
  const following = useRef(true);
  const [, tick] = useState(0);
  const list = [...buses.values()].sort((a, b) =>
    a.busId.localeCompare(b.busId, undefined, { numeric: true }),
  );

  // Active turns to delayed with time alone: look again every 15 s.
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 15_000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    let made: MapLibreMap | null = null;
    let cancelled = false;
    void (async () => {
      const maplibre = await loadMapLibre();
      if (cancelled || !container.current) return;
      library.current = maplibre;
      made = new maplibre.Map({
        container: container.current,
        style: MAP_STYLE_URL ?? OPEN_STYLE,
        center: [BUS_MAP.center.longitude, BUS_MAP.center.latitude],
        zoom: BUS_MAP.zoom,
        attributionControl: { compact: false },
      });
      // Tiles that cannot load (offline) leave the background: not worth a console error each.
      made.on('error', () => {});
      made.on('dragstart', () => {
        following.current = false;
      });
      made.on('zoomstart', (event) => {
        if (event.originalEvent) following.current = false;
      });
      made.addControl(new maplibre.NavigationControl({ showCompass: false }), 'bottom-right');
      setMap(made);
    })();
    return () => {
      cancelled = true;
      for (const { marker } of placed.current.values()) marker.remove();
      placed.current.clear();
      made?.remove();
    };
  }, []);

  const focus = (bus: TrackedBus) => {
    // A little below the centre: its popup opens above it, whole, in the 320 px map.
    map?.easeTo({
      center: [bus.location.longitude, bus.location.latitude],
      zoom: BUS_MAP.focusZoom,
      offset: [0, Math.round(BUS_MAP.heightPx / 5)],
      duration: 0,
    });
    atDefault.current = false;
    following.current = false;
  };

  // Markers follow the buses: placed, moved, recoloured, removed.
  useEffect(() => {
    const maplibre = library.current;
    if (!map || !maplibre) return;
    const now = Date.now();
    for (const [busId, { marker }] of placed.current) {
      if (!buses.has(busId)) {
        marker.remove();
        placed.current.delete(busId);
      }
    }
    for (const bus of buses.values()) {
      const color = isActive(bus, now) ? ACTIVE : DELAYED;
      let entry = placed.current.get(bus.busId);
      if (!entry) {
        const element = document.createElement('button');
        element.type = 'button';
        element.className = 'curbside-bus-marker';
        element.setAttribute('aria-label', `Bus ${bus.busId}`);
        const popup = new maplibre.Popup({ offset: 16, closeButton: true, maxWidth: '240px' });
        const marker = new maplibre.Marker({ element }).setLngLat([
          bus.location.longitude,
          bus.location.latitude,
        ]);
        marker.setPopup(popup).addTo(map);
        entry = { marker, element, popup };
        placed.current.set(bus.busId, entry);
      }
      entry.element.innerHTML = busIcon(color);
      entry.element.dataset.status = color === ACTIVE ? 'active' : 'delayed';
      entry.marker.setLngLat([bus.location.longitude, bus.location.latitude]);
      const current = bus;
      entry.popup.setDOMContent(popupContent(current, () => focus(current)));
    }
    // The first bus recentres a map still at its default centre.
    const [first] = buses.values();
    if (first && atDefault.current) {
      map.jumpTo({ center: [first.location.longitude, first.location.latitude] });
      atDefault.current = false;
    }
    // A bus that drives out of view brings the view along, until the user takes the map over.
    if (following.current) {
      const view = map.getBounds();
      const outside = list.some((bus) => !view.contains([bus.location.longitude, bus.location.latitude]));
      if (outside) showAll(maplibre);
    }
  });

  /** Every bus in view: one bus centred (at the zoom the map has), more fitted with a margin. */
  const showAll = (maplibre: typeof import('maplibre-gl')) => {
    if (!map || list.length === 0) return;
    if (list.length === 1) {
      const [bus] = list as [TrackedBus];
      map.jumpTo({ center: [bus.location.longitude, bus.location.latitude] });
      return;
    }
    const bounds = new maplibre.LngLatBounds();
    for (const bus of list) bounds.extend([bus.location.longitude, bus.location.latitude]);
    const { clientWidth, clientHeight } = map.getContainer();
    map.fitBounds(bounds, {
      padding: Math.round(Math.min(clientWidth, clientHeight) * BUS_MAP.fitPadding),
      animate: false,
    });
  };

  const fitAll = () => {
    const maplibre = library.current;
    if (!map || !maplibre || list.length === 0) return;
    if (list.length === 1) {
      focus(list[0] as TrackedBus);
      following.current = true;
      return;
    }
    showAll(maplibre);
    atDefault.current = false;
    following.current = true;
  };

  const now = Date.now();
  return (
    <Card component="section" aria-labelledby="bus-map-title" p={{ base: 'sm', sm: 'lg' }} withBorder>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={titleOrder} id="bus-map-title" fz={{ base: 'h3', sm: 'h2' }}>
            Interactive Bus Map
          </Title>
          <Group gap="xs">
            <Badge size="lg" color={live ? 'green.9' : 'gray.7'} variant="filled">
              {live ? 'Live' : 'Offline'}
            </Badge>
            <Badge size="lg" variant="default">
              {plural(list.length)}
            </Badge>
          </Group>
        </Group>
        <Box
          pos="relative"
          h={BUS_MAP.heightPx}
          style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}
        >
          <div ref={container} style={{ position: 'absolute', inset: 0 }} data-testid="bus-map" />
          <Button
            size="sm"
            pos="absolute"
            top={10}
            right={10}
            style={{ zIndex: 2 }}
            disabled={list.length === 0 || !map}
            onClick={fitAll}
          >
            Fit all buses
          </Button>
          {list.length === 0 && (
            <Stack
              pos="absolute"
              inset={0}
              align="center"
              justify="center"
              gap={4}
              px="md"
              ta="center"
              style={{
                zIndex: 1,
                background: 'color-mix(in srgb, var(--mantine-color-body) 80%, transparent)',
              }}
            >
              <Text fw={800} fz="lg">
                No buses currently tracking
              </Text>
              <Text c={MUTED_TEXT}>Buses will appear here when drivers start tracking</Text>
            </Stack>
          )}
        </Box>
        <Title order={titleOrder === 2 ? 3 : 4} fz="h4">
          Active Buses
        </Title>
        {list.length === 0 ? (
          <Text c={MUTED_TEXT}>No buses yet.</Text>
        ) : (
          <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Active Buses">
            {list.map((bus) => {
              const active = isActive(bus, now);
              return (
                <Group component="li" key={bus.busId} justify="space-between" wrap="nowrap" gap="sm">
                  {/* On a phone the speed and time wrap; Center is never cut. */}
                  <Group gap="sm" wrap="wrap" style={{ minWidth: 0, rowGap: 0 }}>
                    <Box
                      w={12}
                      h={12}
                      style={{
                        borderRadius: '50%',
                        flex: 'none',
                        background: active ? DOT.active : DOT.delayed,
                      }}
                      aria-label={active ? 'Active' : 'Delayed'}
                      role="img"
                    />
                    <Text fw={800}>{bus.busId}</Text>
                    <Text c={MUTED_TEXT}>
                      {bus.location.speed != null ? `${mph(bus.location.speed).toFixed(1)} mph` : '—'}
                    </Text>
                    <Text c={MUTED_TEXT}>{time(bus.lastUpdate)}</Text>
                  </Group>
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => focus(bus)}
                    aria-label={`Center on ${bus.busId}`}
                    style={{ flexShrink: 0 }}
                  >
                    Center
                  </Button>
                </Group>
              );
            })}
          </Stack>
        )}
        {/* Each state in both its colours: the marker's on the map, the dot's in the list. */}
        <Group gap="lg" aria-label="Legend">
          {(
            [
              ['Active (live updates)', ACTIVE, DOT.active, 'blue on the map, green in the list'],
              ['Delayed (>1 min)', DELAYED, DOT.delayed, 'grey on the map, yellow in the list'],
            ] as const
          ).map(([label, marker, dot, colours]) => (
            <Group gap={6} key={label} wrap="nowrap">
              <Box w={14} h={14} style={{ borderRadius: 3, background: marker, flex: 'none' }} />
              <Box w={12} h={12} style={{ borderRadius: '50%', background: dot, flex: 'none' }} />
              <Text fz="sm">
                {label}
                <Text span fz="sm" c={MUTED_TEXT}>
                  {` · ${colours}`}
                </Text>
              </Text>
            </Group>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}
