import { Center, Container, Loader, Stack } from '@mantine/core';
import { useState } from 'react';
import { AlertPanel } from '../alerts/alert-panel';
import { useMe } from '../auth/auth.queries';
import { NoActiveSession } from '../queue/no-active-session';
import { PendingChanges } from '../queue/pending';
import { QueueList, useQueueLive } from '../queue/queue-list';
import { usePhone } from '../queue/use-phone';
import { useActiveSession } from '../sessions/sessions.queries';
import { type BatchFilter, BatchManagement } from './batch-management';
import { useBatchesLive } from './batches.queries';

export const BACK_QUEUE_LOCATION = 'Back Queue';

/** Keeps the queue current (and announces queued vehicles) while the queue list is not shown. */
function QueueLive({ sessionId }: { sessionId: number }) {
  useQueueLive(sessionId);
  return null;
}

/**
 * The back queue screen: alerts for the back of the line, Batch Management
 * (filters, batches, drop zones, overflow) and, under 'All', the queue itself.
 */
export function BackQueuePage() {
  const { user } = useMe();
  const { session, isLoading } = useActiveSession();
  const [filter, setFilter] = useState<BatchFilter>('all');
  const phone = usePhone();
  useBatchesLive();
  if (!user) return null;
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader size="xl" aria-label="Loading" />
      </Center>
    );
  }
  if (!session) {
    return (
      <NoActiveSession user={user}>
        {user.schoolId !== null && (
          <AlertPanel sessionId={null} location={BACK_QUEUE_LOCATION} collapsible={phone} />
        )}
      </NoActiveSession>
    );
  }
  return (
    <Container fluid px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <AlertPanel sessionId={session.id} location={BACK_QUEUE_LOCATION} collapsible={phone} />
        <BatchManagement sessionId={session.id} filter={filter} onFilter={setFilter} />
        {filter === 'all' ? (
          <QueueList sessionId={session.id} title="Vehicle Queue Management" />
        ) : (
          <>
            <PendingChanges entries={[]} />
            <QueueLive sessionId={session.id} />
          </>
        )}
      </Stack>
    </Container>
  );
}
