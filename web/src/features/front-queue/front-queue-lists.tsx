import type { User } from '@curbside/domain';
import { Stack } from '@mantine/core';
import { memo, useEffect } from 'react';
import { AlertPanel } from '../alerts/alert-panel';
import { ArrivingList } from '../arrivals/arriving-list';
import { NoActiveSession } from '../queue/no-active-session';
import { QueueList, useDrawnInSteps } from '../queue/queue-list';
import { RecentPickups } from '../queue/recent-pickups';
import { usePhone } from '../queue/use-phone';

/**
 * What the front queue draws besides its keypad (issue 57, h57q): the lists beside it, the recent
 * pickups below, and the screen without a running session. Loaded by the page (`import()`) once the
 * keypad has been painted, so their code (the car line's kit: the alert panel, the queue's cards and
 * their dialogs, the arrivals) is not among the files before the keypad's paint.
 */
export const FRONT_QUEUE_LOCATION = 'Front Queue';

/** The lists beside the keypad: the alert panel, the arrivals, the queue. */
const LISTS = 3;

/**
 * The lists beside the keypad, memoised: the page's own changes do not draw them again. Drawn one
 * a commit, top down, each in a transition after the one above (issue 57): a commit's effects run
 * in one task, and the three lists' (each list's reads asked for, its live events heard) were one
 * long task at a phone's CPU. What lies below them waits for `onDrawn`, so that nothing drawn
 * moves down as they come.
 */
export const Lists = memo(function Lists({
  sessionId,
  onDrawn,
}: {
  sessionId: number;
  onDrawn?: () => void;
}) {
  const phone = usePhone();
  const drawn = useDrawnInSteps(LISTS, 1);
  useEffect(() => {
    if (drawn === LISTS) onDrawn?.();
  }, [drawn, onDrawn]);
  return (
    <Stack gap="md">
      <AlertPanel sessionId={sessionId} location={FRONT_QUEUE_LOCATION} collapsible={phone} />
      {drawn >= 2 && <ArrivingList sessionId={sessionId} />}
      {drawn >= 3 && <QueueList sessionId={sessionId} />}
    </Stack>
  );
});

export const MemoRecentPickups = memo(RecentPickups);

/** No running session: the message, and the Help / Emergency pair for a school's staff. */
export function NoSession({ user }: { user: Pick<User, 'schoolId'> }) {
  const phone = usePhone();
  return (
    <NoActiveSession user={user}>
      {user.schoolId !== null && (
        <AlertPanel sessionId={null} location={FRONT_QUEUE_LOCATION} collapsible={phone} />
      )}
    </NoActiveSession>
  );
}
