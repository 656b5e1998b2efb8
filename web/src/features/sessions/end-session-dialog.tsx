import { type PickupSession, plural } from '@curbside/domain';
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDrawnWhenOpened } from '../../lib/drawn-when-opened';
import { queueQueries } from '../queue/queue.queries';
import { useEndSession } from './sessions.mutations';

/** `3 vehicles are still in the queue.`, `1 vehicle is…`, or that the queue is empty. */
export const stillQueued = (count: number) =>
  count === 0
    ? 'No vehicles are in the queue.'
    : `${plural(count, 'vehicle')} ${count === 1 ? 'is' : 'are'} still in the queue.`;

/**
 * Ending a session ends the school's dismissal on every screen, so it is
 * asked for twice: this dialog names the session and how many vehicles are
 * still queued, and the safe choice (Keep Session) is the default.
 */
export function EndSessionDialog({
  session,
  opened,
  onClose,
}: {
  session: PickupSession;
  opened: boolean;
  onClose: () => void;
}) {
  const end = useEndSession();
  const queue = useQuery({ ...queueQueries.active(session.id), enabled: opened });
  const queued = queue.data?.filter((entry) => entry.status !== 'completed').length;
  // Not drawn with the session pill: from the first End Session on (h57v).
  const dialog = useDrawnWhenOpened(opened);
  if (!dialog.draw) return null;

  return (
    <Modal
      opened={dialog.opened}
      onClose={onClose}
      title="End the session?"
      centered
      size={520}
      styles={{ title: { fontSize: 'var(--mantine-font-size-xl)', fontWeight: 800 } }}
    >
      <Stack gap="md">
        <Text fz="lg" fw={700} role="status">
          {queue.isPending ? (
            <Loader size="sm" aria-label="Counting the vehicles in the queue" />
          ) : queued === undefined ? (
            'The queue could not be read.'
          ) : (
            stillQueued(queued)
          )}
        </Text>
        <Text fz="md">
          {`Ending ${session.name} ends the dismissal on every screen of the school. It cannot be undone.`}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} data-autofocus>
            Keep Session
          </Button>
          <Button
            color="red.9"
            disabled={end.isPending || queue.isPending}
            onClick={() => end.mutate(session.id, { onSuccess: onClose })}
          >
            {end.isPending ? 'Ending...' : 'End Session'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
