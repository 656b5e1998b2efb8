import { type ArrivalSettings, BUS_MAP, GEOFENCE_RADIUS_M, type Geofence } from '@curbside/domain';
import { Box, Checkbox, Group, NumberInput, Radio, Stack, Text, Title } from '@mantine/core';
import type { GeoJSONSource, Map as MapLibreMap, Marker } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { loadMapLibre, MAP_STYLE_URL, OPEN_STYLE } from '../../lib/map-style';
import { MUTED_TEXT } from '../../lib/theme';

/** A new fence: the bus map's centre, 300 m. */
const NEW_FENCE: Geofence = {
  lat: BUS_MAP.center.latitude,
  lon: BUS_MAP.center.longitude,
  radiusM: 300,
};
/** Metres per degree of latitude (the server's haversine sphere). */
const M_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** The fence's circle as a GeoJSON polygon (64 points), for the map's fill. */
const circle = (fence: Geofence) => {
  const dLat = fence.radiusM / M_PER_DEGREE;
  const dLon = dLat / Math.max(Math.cos((fence.lat * Math.PI) / 180), 0.01);
  const ring = Array.from({ length: 65 }, (_, i) => {
    const angle = (i / 64) * 2 * Math.PI;
    return [fence.lon + dLon * Math.cos(angle), fence.lat + dLat * Math.sin(angle)];
  });
  return {
    type: 'Feature' as const,
    properties: {},
    geometry: { type: 'Polygon' as const, coordinates: [ring] },
  };
};

/** A zoom that shows the whole circle in the 280 px map. */
const zoomFor = (radiusM: number) => Math.max(11, Math.min(17, 16 - Math.log2(radiusM / 150)));

/**
 * The map picker: the school's point (a tap on the map, or the marker dragged)
 * and the radius drawn as a circle. The numbers beside it are the setting:
 * where the map's tiles cannot load, the point is typed and the circle still
 * drawn over the plain background.
 */
function FenceMap({
  fence,
  onPick,
}: {
  fence: Geofence;
  onPick: (point: { lat: number; lon: number }) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const marker = useRef<Marker | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const first = useRef(fence);
  const shownRadius = useRef(fence.radiusM);

  useEffect(() => {
    let made: MapLibreMap | null = null;
    let cancelled = false;
    void (async () => {
      const maplibre = await loadMapLibre();
      if (cancelled || !container.current) return;
      const start = first.current;
      made = new maplibre.Map({
        container: container.current,
        style: MAP_STYLE_URL ?? OPEN_STYLE,
        center: [start.lon, start.lat],
        zoom: zoomFor(start.radiusM),
        attributionControl: { compact: true },
      });
      // Tiles that cannot load (offline) leave the background: not worth a console error each.
      made.on('error', () => {});
      made.addControl(new maplibre.NavigationControl({ showCompass: false }), 'bottom-right');
      const loaded = made;
      made.on('load', () => {
        loaded.addSource('fence', { type: 'geojson', data: circle(start) });
        loaded.addLayer({
          id: 'fence-fill',
          type: 'fill',
          source: 'fence',
          paint: { 'fill-color': '#1864ab', 'fill-opacity': 0.15 },
        });
        loaded.addLayer({
          id: 'fence-line',
          type: 'line',
          source: 'fence',
          paint: { 'line-color': '#1864ab', 'line-width': 2 },
        });
        setMap(loaded);
      });
      made.on('click', (event) =>
        pick.current({ lat: round6(event.lngLat.lat), lon: round6(event.lngLat.lng) }),
      );
      marker.current = new maplibre.Marker({ draggable: true, color: '#1864ab' })
        .setLngLat([start.lon, start.lat])
        .addTo(made);
      marker.current.on('dragend', () => {
        const at = marker.current?.getLngLat();
        if (at) pick.current({ lat: round6(at.lat), lon: round6(at.lng) });
      });
    })();
    return () => {
      cancelled = true;
      marker.current?.remove();
      made?.remove();
    };
  }, []);

  useEffect(() => {
    if (!map || !Number.isFinite(fence.lat) || !Number.isFinite(fence.lon)) return;
    marker.current?.setLngLat([fence.lon, fence.lat]);
    if (Number.isFinite(fence.radiusM))
      (map.getSource('fence') as GeoJSONSource | undefined)?.setData(circle(fence));
    // A new radius shows its whole circle; a point off the map brings the map to it.
    if (Number.isFinite(fence.radiusM) && fence.radiusM !== shownRadius.current) {
      shownRadius.current = fence.radiusM;
      map.jumpTo({ center: [fence.lon, fence.lat], zoom: zoomFor(fence.radiusM) });
    } else if (!map.getBounds().contains([fence.lon, fence.lat])) {
      map.jumpTo({ center: [fence.lon, fence.lat] });
    }
  }, [map, fence]);

  return (
    <Box
      ref={container}
      h={280}
      role="application"
      aria-label="Map of the school's arrival area: tap to place the school's point"
      style={{ borderRadius: 8, overflow: 'hidden', border: '1px solid var(--mantine-color-default-border)' }}
    />
  );
}

/**
 * School Settings' "Families' arrival" (issue 53): off, confirm (staff queue
 * the car with one tap) or auto ("I'm here" queues it), and the geofence an
 * "I'm here" must come from (point and radius, with the map picker).
 */
export function ArrivalSettingsFields({
  value,
  onChange,
  error,
}: {
  value: ArrivalSettings;
  onChange: (value: ArrivalSettings) => void;
  error: string | undefined;
}) {
  const fence = value.geofence;
  const setFence = (next: Partial<Geofence>) =>
    onChange({ ...value, geofence: { ...(fence ?? NEW_FENCE), ...next } });
  const number = (input: string | number) => (typeof input === 'number' ? input : Number.NaN);
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg" mt="sm">
        Families' arrival
      </Title>
      <Radio.Group
        label="Families announce “I'm on my way” and “I'm here”"
        value={value.mode}
        onChange={(mode) => onChange({ ...value, mode: mode as ArrivalSettings['mode'] })}
        error={error}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="off" label="Off" />
          <Radio value="confirm" label="Staff queue the car with one tap (Arriving list)" />
          <Radio value="auto" label="“I'm here” queues the family's car at once" />
        </Stack>
      </Radio.Group>
      <Checkbox
        label="Only from near the school (“I'm here” needs the phone's position inside the area)"
        checked={fence !== null}
        onChange={(event) => onChange({ ...value, geofence: event.currentTarget.checked ? NEW_FENCE : null })}
      />
      {fence && (
        <Stack gap="xs">
          <Group grow align="flex-start">
            <NumberInput
              label="Latitude"
              decimalScale={6}
              min={-90}
              max={90}
              value={fence.lat}
              onChange={(input) => setFence({ lat: number(input) })}
            />
            <NumberInput
              label="Longitude"
              decimalScale={6}
              min={-180}
              max={180}
              value={fence.lon}
              onChange={(input) => setFence({ lon: number(input) })}
            />
          </Group>
          <NumberInput
            label="Radius"
            description={`metres, ${GEOFENCE_RADIUS_M.min} to ${GEOFENCE_RADIUS_M.max}`}
            allowDecimal={false}
            min={GEOFENCE_RADIUS_M.min}
            max={GEOFENCE_RADIUS_M.max}
            step={50}
            value={fence.radiusM}
            onChange={(input) => setFence({ radiusM: number(input) })}
          />
          <FenceMap fence={fence} onPick={(point) => setFence(point)} />
          <Text c={MUTED_TEXT} fz="sm">
            Tap the map or drag the marker to place the school's point. A phone's position is checked against
            this area and never kept.
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
