/** The maps' style (the bus map, the school's geofence picker): a deployment's own, or OpenStreetMap's tiles. */
export const MAP_STYLE_URL = import.meta.env.VITE_MAP_STYLE_URL as string | undefined;

/** An open tile style: OpenStreetMap's raster tiles over a plain background (which is all there is offline). */
export const OPEN_STYLE = {
  version: 8 as const,
  sources: {
    osm: {
      type: 'raster' as const,
      tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
      tileSize: 256,
      maxzoom: 19,
      attribution: '© OpenStreetMap contributors',
    },
  },
  layers: [
    { id: 'background', type: 'background' as const, paint: { 'background-color': '#e8eef2' } },
    { id: 'osm', type: 'raster' as const, source: 'osm' },
  ],
};

/** maplibre and its stylesheet, loaded when a map first opens (never on a screen without one). */
export const loadMapLibre = async () => {
  const [maplibre] = await Promise.all([import('maplibre-gl'), import('maplibre-gl/dist/maplibre-gl.css')]);
  return maplibre;
};
