import { matchesQueueSearch, orderQueue, plural, type QueueEntry, type VehicleType } from '@curbside/domain';
import {
  Badge,
  Button,
  Card,
  CloseButton,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  memo,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { useAuthorizedPickupsAhead } from '../authorized-pickups/authorized-pickups.queries';
import { useLivePatches } from '../live/live';
import { useVehicleDialog } from './lazy-vehicle-dialog';
import { OutboxMarks, PendingChanges } from './pending';
import { queuePatches } from './queue.cache';
import { queueQueries } from './queue.queries';
import classes from './queue-list.module.css';
import { useVehicleQueuedToasts } from './queued-toasts';
import { usePendingRemovals } from './undo';
import { VehicleCard } from './vehicle-card';

export const SEARCH_PLACEHOLDER = 'Search by vehicle #, parent name, make, model, color, or student name...';

type Ordered = QueueEntry & { position: number | null };

/**
 * Keeps the session's queue current from the live events (patched, never
 * read again per event) and announces every vehicle queued in it. Mount it
 * once per screen.
 */
export const useQueueLive = (sessionId: number) => {
  useLivePatches(queuePatches);
  useVehicleQueuedToasts(sessionId);
};

/** The cards the queue draws in its first commit; the rest follow, as many a transition (h57x). */
export const CARDS_AT_ONCE = 3;

/**
 * How many of `count` parts to draw (issue 57, h57x): the first `step` at once, then `step` more in
 * each following transition until all are drawn, each its own commit (a mount cannot be sliced:
 * five queue cards were one long commit at a phone's CPU, and a commit's effects run in one task).
 * Once drawn whole, every part is drawn at once, as before: a car queued later, or the line shown
 * again after a search, does not wait. The queue's cards are counted over both sections, cars first
 * (h57kb): each section counting its own drew three cars and three buses in the first commit. The
 * front queue's lists are drawn with it too, one a commit (`front-queue-lists.tsx`).
 */
export function useDrawnInSteps(count: number, step: number) {
  const [limit, setLimit] = useState(step);
  const whole = useRef(false);
  useEffect(() => {
    if (whole.current) return;
    if (count > limit) startTransition(() => setLimit(limit + step));
    else if (count > 0) whole.current = true;
  }, [count, limit, step]);
  return whole.current ? count : Math.min(count, limit);
}

interface SectionProps {
  title: string;
  type: VehicleType;
  entries: Ordered[];
  /** How many of its cards the section draws (the queue's cards come a few at a time). */
  drawn: number;
  onOpen: (entry: QueueEntry) => void;
}

/**
 * One section of the queue, memoised (issue 57, h57r): the list's answers are drawn from a
 * deferred value, so the list first draws again with the entries it had (these sections and
 * their cards skipped), then with the new ones in a transition React renders in slices.
 */
const QueueSection = memo(function QueueSection({ title, type, entries, drawn, onOpen }: SectionProps) {
  const [search, setSearch] = useState('');
  const shown = entries.filter((entry) => matchesQueueSearch(entry, search));
  const noun = type === 'bus' ? 'bus' : 'car';
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Group justify="space-between" gap="xs">
        <Title order={3}>{title}</Title>
        <Badge size="lg" variant="filled" color={type === 'bus' ? 'yellow.4' : 'blue.9'}>
          {plural(entries.length, noun, type === 'bus' ? 'buses' : 'cars')}
        </Badge>
      </Group>
      <TextInput
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label={`Search ${title}`}
        size="lg"
        rightSectionWidth={56}
        rightSection={
          <CloseButton
            size="xl"
            aria-label={`Clear search in ${title}`}
            disabled={!search}
            onClick={() => setSearch('')}
          />
        }
      />
      {shown.length === 0 ? (
        <Text c={MUTED_TEXT} fz="lg" py="md" ta="center">
          {entries.length === 0
            ? `No ${type === 'bus' ? 'buses' : 'cars'} in queue`
            : 'No vehicles match your search'}
        </Text>
      ) : (
        <div className={classes.cards}>
          {shown.slice(0, drawn).map((entry) => (
            // The outbox's marks under the card, outside it: Dismiss is not a tap on the card.
            <div key={entry.id} className={classes.entry}>
              <VehicleCard entry={entry} total={entries.length} onOpen={onOpen} />
              <OutboxMarks entry={entry} />
            </div>
          ))}
        </div>
      )}
    </Stack>
  );
});

/**
 * The session's queue: cars in the parking lot and buses in the loading zone,
 * each searchable, with vehicle cards (tap for details, long press for the
 * menu, swipe to remove). Shared by the front queue, back queue and admin screens.
 */
export function QueueList({ sessionId, title = 'Current Queue' }: { sessionId: number; title?: string }) {
  const query = useQuery(queueQueries.active(sessionId));
  // Issue 57: the cards are drawn from the answer in a transition, which React renders in slices
  // (a tablet's or a phone's main thread is never blocked long by a long queue's first draw).
  const data = useDeferredValue(query.data);
  const leaving = usePendingRemovals();
  useQueueLive(sessionId);
  const [openId, setOpenId] = useState<string | null>(null);

  const { cars, buses } = useMemo(() => {
    // Vehicles removed or picked up here leave the list at once (their change waits for its Undo time).
    const ordered = orderQueue(
      (data ?? []).filter((entry) => entry.status !== 'completed' && !leaving.has(entry.id)),
    );
    return {
      cars: ordered.filter((entry) => entry.vehicleType === 'car'),
      buses: ordered.filter((entry) => entry.vehicleType === 'bus'),
    };
  }, [data, leaving]);

  const all = useMemo(() => [...cars, ...buses], [cars, buses]);
  const drawn = useDrawnInSteps(all.length, CARDS_AT_ONCE);
  // The cards are drawn a few at a time: their children's trusted adults are asked for together,
  // from the answer as it comes (`query.data`), in the effects of the commit before the cards'
  // first (issue 57): asked in that of the cards, with each card's own question of its children, it
  // made that commit's effects one long task at a phone's CPU; asked before, the cards find their
  // children's lists read or being read.
  useAuthorizedPickupsAhead(
    useMemo(
      () =>
        (query.data ?? [])
          .filter((entry) => entry.status !== 'completed')
          .flatMap((entry) => entry.students.map((student) => student.id)),
      [query.data],
    ),
  );
  const open = all.find((entry) => entry.id === openId) ?? null;
  // Loaded with the first tap, then mounted for good (so it can fade out when closed).
  const { Dialog, load } = useVehicleDialog();
  const onOpen = useCallback(
    (entry: QueueEntry) => {
      load();
      setOpenId(entry.id);
    },
    [load],
  );

  return (
    <Card className={classes.queue}>
      <Stack gap="lg">
        <Group justify="space-between">
          <Title order={2}>{title}</Title>
          {(query.isPending || data === undefined) && <Loader size="sm" aria-label="Loading queue" />}
        </Group>
        <PendingChanges entries={all} />
        {query.isError && (
          <Group>
            <Text c={DANGER_TEXT} fw={700}>
              The queue could not be loaded.
            </Text>
            <Button variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </Group>
        )}
        <QueueSection title="Cars in Parking Lot" type="car" entries={cars} drawn={drawn} onOpen={onOpen} />
        <QueueSection
          title="Bus Loading Zone"
          type="bus"
          entries={buses}
          drawn={Math.max(0, drawn - cars.length)}
          onOpen={onOpen}
        />
      </Stack>
      {Dialog && (
        <Dialog
          entry={open}
          total={open?.vehicleType === 'bus' ? buses.length : cars.length}
          onClose={() => setOpenId(null)}
        />
      )}
    </Card>
  );
}
