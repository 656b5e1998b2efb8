import { type DisplayGroup, vehicleLabel } from '@curbside/domain';
import { Badge, Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { DISPLAY_TEXTS } from './display-texts';
import { type MeasuredRow, pagesOf } from './pages';

type Texts = (typeof DISPLAY_TEXTS)[keyof typeof DISPLAY_TEXTS];

/** The type sizes tried, largest first, before the board is shown in pages (issue 50). */
const SCALES = [1, 0.85, 0.72, 0.6] as const;
/** How long each page shows. */
export const PAGE_MS = 8_000;

/** A size in px at the board's scale (`--display-scale`). */
const px = (size: number) => `calc(${size}px * var(--display-scale))`;

/** A group's title: its batch, "Called", or (issue 52) the walkers released or a program's name. */
const groupName = (group: DisplayGroup, texts: Texts) => {
  if (group.lane === 'walker') return texts.walkersReleased;
  if (group.lane === 'program') return group.title ?? texts.program;
  return group.batchNumber === null ? texts.noBatch : `${texts.batch} #${group.batchNumber}`;
};

/** A row's label: `Car 112`, `Bus B3`; none for walkers and a program's children (the group names them). */
const rowLabel = (lane: DisplayGroup['lane'], vehicleNumber: string, texts: Texts) =>
  lane === 'car' || lane === 'bus'
    ? `${lane === 'bus' ? texts.busName : texts.carName} ${vehicleLabel(lane, vehicleNumber)}`
    : '';

interface Fit {
  /** Index into SCALES. */
  scale: number;
  /** The rows (their indices, in order) of each page; null while the board is fitted or fits one page. */
  pages: number[][] | null;
}

/** The window's size, so the board is fitted again when the screen changes. */
const useWindowSize = () => {
  const [size, setSize] = useState(() => `${window.innerWidth}x${window.innerHeight}`);
  useEffect(() => {
    const resized = () => setSize(`${window.innerWidth}x${window.innerHeight}`);
    window.addEventListener('resize', resized);
    return () => window.removeEventListener('resize', resized);
  }, []);
  return size;
};

/** Each row's group and height (to the next row of its group), each group's heading and padding, and the space between groups. */
const measure = (box: HTMLElement) => {
  const papers = [...box.querySelectorAll<HTMLElement>('[data-display-group]')];
  const rows: MeasuredRow[] = [];
  const chrome: number[] = [];
  let groupGap = 0;
  papers.forEach((paper, group) => {
    const own = [...paper.querySelectorAll<HTMLElement>('[data-display-row]')].map((row) =>
      row.getBoundingClientRect(),
    );
    own.forEach((rect, i) => {
      const next = own[i + 1];
      rows.push({ group, height: next ? next.top - rect.top : rect.height });
    });
    const outer = paper.getBoundingClientRect();
    const first = own[0];
    const last = own.at(-1);
    chrome.push(first && last ? outer.height - (last.bottom - first.top) : outer.height);
    const after = papers[group + 1];
    if (after) groupGap = Math.max(groupGap, after.getBoundingClientRect().top - outer.bottom);
  });
  return { rows, chrome, groupGap };
};

/**
 * The called students, as large as they fit the screen: at full size when
 * they fit, else in smaller type (down to 60%), else in pages of what fits,
 * each shown for 8 s in turn ("Page 1 of 3"). Fitted again whenever the board
 * or the screen changes.
 */
export function Board({ groups, texts }: { groups: DisplayGroup[]; texts: Texts }) {
  const box = useRef<HTMLDivElement>(null);
  const size = useWindowSize();
  const [fit, setFit] = useState<Fit>({ scale: 0, pages: null });
  /** Pages turned since the board began needing pages: the page shown is this, modulo their number. */
  const [turns, setTurns] = useState(0);
  const content = JSON.stringify(groups);
  // A new board or screen: start again at full size, on one page (the pages keep turning meanwhile).
  // biome-ignore lint/correctness/useExhaustiveDependencies: refitted when the board or the screen changes
  useLayoutEffect(() => {
    setFit({ scale: 0, pages: null });
  }, [content, size]);
  // After each try: smaller type while it overflows, then pages.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || fit.pages) return;
    if (element.scrollHeight <= element.clientHeight + 1) return;
    if (fit.scale < SCALES.length - 1) {
      setFit({ scale: fit.scale + 1, pages: null });
      return;
    }
    const { rows, chrome, groupGap } = measure(element);
    setFit({ scale: fit.scale, pages: pagesOf(rows, chrome, groupGap, element.clientHeight) });
  });
  const count = fit.pages?.length ?? 1;
  const paged = count > 1;
  // One turn every 8 s while in pages, whatever changes on the board meanwhile (a busy line changes it every few seconds).
  useEffect(() => {
    if (!paged) return;
    setTurns(0);
    const turn = setInterval(() => setTurns((done) => done + 1), PAGE_MS);
    return () => clearInterval(turn);
  }, [paged]);
  const page = turns % count;

  // The rows shown now (all, or this page's), kept in their groups.
  const shown = fit.pages ? new Set(fit.pages[page]) : null;
  let index = 0;
  const visible = groups.flatMap((group) => {
    const vehicles = group.vehicles.filter(() => shown === null || shown.has(index++));
    return vehicles.length > 0 ? [{ group, vehicles }] : [];
  });
  const scale = SCALES[fit.scale] ?? 1;
  return (
    <Stack gap={4} style={{ flex: 1, minHeight: 0 }}>
      {count > 1 && (
        <Text fz={28} fw={700} ta="right" role="status">
          {texts.page(page + 1, count)}
        </Text>
      )}
      <Box
        ref={box}
        style={{ flex: 1, minHeight: 0, overflow: 'hidden', '--display-scale': scale } as CSSProperties}
      >
        <Stack gap="lg" aria-live="polite">
          {visible.map(({ group, vehicles }) => (
            <Paper
              key={`${group.lane}-${group.title ?? ''}-${group.batchNumber ?? 'ready'}`}
              component="section"
              withBorder
              p={px(24)}
              data-display-group
              aria-label={`${groupName(group, texts)} · ${texts[group.lane]}`}
            >
              <Group gap="md" mb="sm">
                <Title order={2} fz={px(44)}>
                  {groupName(group, texts)}
                </Title>
                <Badge size="xl" variant="light">
                  {texts[group.lane]}
                </Badge>
              </Group>
              <Stack gap="xs">
                {vehicles.map((vehicle) => (
                  <Group key={vehicle.vehicleNumber} gap="xl" wrap="nowrap" align="baseline" data-display-row>
                    {rowLabel(group.lane, vehicle.vehicleNumber, texts) && (
                      <Text fz={px(40)} fw={700} miw={px(260)} style={{ flexShrink: 0 }}>
                        {rowLabel(group.lane, vehicle.vehicleNumber, texts)}
                      </Text>
                    )}
                    <Text fz={px(64)} fw={800} lh={1.1}>
                      {vehicle.students
                        .map((student) => `${student.firstName} ${student.lastInitial}.`)
                        .join(', ')}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Paper>
          ))}
        </Stack>
      </Box>
    </Stack>
  );
}
