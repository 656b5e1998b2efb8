import type { PickupSession, User } from '@curbside/domain';
import { Box, Center, Container, Grid, Loader, Stack } from '@mantine/core';
import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { usePainted } from '../../lib/after-paint';
import { linksInTasks } from '../../lib/links-in-tasks';
import { useMe } from '../auth/auth.queries';
import { useLiveSettled } from '../live/live';
import { VehicleQueuedToasts } from '../queue/queued-toasts';
import { useActiveSession } from '../sessions/sessions.queries';
import { AddVehicleCard } from './add-vehicle';
import { ScanPlacards } from './scan-placards';

/**
 * The lists' code, the recent pickups' and the no-session screen's (`front-queue-lists.tsx`), asked
 * for once the keypad has been painted or the running session is known to be none (issue 57, h57q):
 * in the static imports, the car line's kit and its stylesheet, the arrivals' and the trusted
 * adults' domain code were four of the files before the keypad's paint, each a round trip on a
 * phone's HTTP/1.1 and counted in Lighthouse's replay of it. The lists wait for the live
 * connection's opening anyway (h57l), which the code's download overlaps. Its files are asked for
 * a few a task (`linksInTasks`): 18 links.
 */
const loadLists = () => linksInTasks(() => import('./front-queue-lists'));
const Lists = lazy(() => loadLists().then((module) => ({ default: module.Lists })));
const RecentPickups = lazy(() => loadLists().then((module) => ({ default: module.MemoRecentPickups })));
const NoSession = lazy(() => loadLists().then((module) => ({ default: module.NoSession })));

/**
 * The front queue screen. The work comes first: the add-vehicle keypad (one
 * third, kept in view while the queue scrolls on landscape tablets), then the
 * alert panel for the front of the line (the banner of active alerts and the
 * Help / Emergency pair; one line with a count on phones), the live queue (two
 * thirds) and recent pickups below. On a 1024×768 or 768×1024 tablet the whole
 * keypad and Add to Queue are on the first screen under the banner of five
 * alerts (two lines and "+3 more"), and on a 390×844 phone under two.
 * The keypad is painted first (issue 57, h57l): the lists (alerts, arrivals, the queue, recent
 * pickups) are drawn and read once it has been painted and the live connection is open (at most
 * 3 s: `useLiveSettled`), a loader in their place meanwhile: read after the socket opened, each is
 * read once, not again when it opens.
 */
/** The loader the screen shows while it reads (the lists' place before the keypad's paint). */
function ListsLoading() {
  return (
    <Center py="xl">
      <Loader size="xl" aria-label="Loading" />
    </Center>
  );
}

/**
 * The keypad's column: the add card and Scan. Memoised (issue 57, h57g): the page draws again when
 * the keypad has been painted, when the live connection opens (a synchronous render: the socket's
 * state is an external store) and when the lists are revealed; none of these changes the keypad,
 * which was drawn again each time, its every button and the Car / Bus control, at a phone's CPU a
 * long task each.
 */
const KeypadColumn = memo(function KeypadColumn({
  sessionId,
  schoolId,
}: {
  sessionId: number;
  schoolId: number | null;
}) {
  return (
    <Box pos={{ md: 'sticky' }} top={8}>
      <Stack gap="xs">
        <AddVehicleCard sessionId={sessionId} />
        {schoolId !== null && <ScanPlacards sessionId={sessionId} schoolId={schoolId} />}
      </Stack>
    </Box>
  );
});

export function FrontQueuePage() {
  const { user } = useMe();
  const { session: running, isLoading } = useActiveSession();
  const live = useLiveSettled();
  if (!user) return null;
  return <Screen user={user} running={running} isLoading={isLoading} live={live} />;
}

/**
 * What the page draws, from what it read (issue 57, h57t): its transitions (the screen, then the
 * lists) are rendered in this component, which reads no external store. React checks every
 * `useSyncExternalStore` of a component drawn in a transition once the render is done, and draws
 * the whole transition again at once, without yielding, when one changed meanwhile: drawn in the
 * page, who is signed in, the running session and the live connection's state (the socket opening,
 * the session read again then) were read in every transition, and one of them changing while the
 * lists were drawn in slices made React draw them all again in one long task.
 */
const Screen = memo(function Screen({
  user,
  running,
  isLoading,
  live,
}: {
  user: User;
  running: PickupSession | null;
  isLoading: boolean;
  live: boolean;
}) {
  // Issue 57: the screen is drawn in a transition, which React renders in slices (the tablet's
  // main thread is never blocked long), the loader meanwhile.
  const deferred = useDeferredValue(running);
  const session = running && deferred?.id === running.id ? deferred : null;
  const painted = usePainted(session !== null);
  const none = !isLoading && !running;
  useEffect(() => {
    if (!painted && !none) return;
    // In a task of its own, not in the commit's effects: asking for the lists' code appends a
    // `<link>` per file of it (Vite's preload, 18 of them, a few a task: `loadLists`); in the
    // effects of the commit that follows the paint, the two were one long task at a phone's.
    const task = window.setTimeout(() => void loadLists().catch(() => {}), 0);
    return () => window.clearTimeout(task);
  }, [painted, none]);
  // Issue 57 (h57n): the lists are revealed in a transition, which React renders in slices (one
  // long task at a phone's CPU otherwise); the loader stays until that render is committed. They
  // come one a commit (`Lists`), and the recent pickups below once they are all drawn.
  const lists = useDeferredValue(painted && live);
  // The recent pickups, below the lists, once these are drawn (`Lists`: one a commit).
  const [listsDrawn, setListsDrawn] = useState(false);
  const onListsDrawn = useCallback(() => setListsDrawn(true), []);
  if (isLoading || (running && !session)) return <ListsLoading />;
  if (!session) {
    return (
      <Suspense fallback={<ListsLoading />}>
        <NoSession user={user} />
      </Suspense>
    );
  }
  return (
    <Container fluid px={{ base: 'xs', sm: 'md' }} py={{ base: 'xs', sm: 'sm' }}>
      <Stack gap="md">
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <KeypadColumn sessionId={session.id} schoolId={user.schoolId} />
            {/* Each car queued is announced from the screen's opening, not from the lists' drawing. */}
            <VehicleQueuedToasts sessionId={session.id} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {/* Revealed in a transition (`lists`): while the code loads, the loader stays. */}
            <Suspense fallback={<ListsLoading />}>
              {lists ? <Lists sessionId={session.id} onDrawn={onListsDrawn} /> : <ListsLoading />}
            </Suspense>
          </Grid.Col>
        </Grid>
        {lists && listsDrawn && (
          <Suspense fallback={null}>
            <RecentPickups sessionId={session.id} />
          </Suspense>
        )}
      </Stack>
    </Container>
  );
});
