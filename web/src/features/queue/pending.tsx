import { type QueueEntry, vehicleName } from '@curbside/domain';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { idempotencyKey } from '../../lib/idempotency';
import { DANGER_TEXT } from '../../lib/theme';
import { entryIdOf } from './outbox';
import { theOutbox, useOutbox } from './use-outbox';

type About = Pick<QueueEntry, 'id' | 'vehicleType' | 'vehicleNumber'>;

/** A change in the outbox, waiting (no message) or refused by the server (its message). */
interface Change {
  key: string;
  /** The queue entry it is about (null for an add: the car had no entry yet). */
  entryId: string | null;
  vehicle: string;
  message?: string;
  /** A completion refused for children no teacher released: it asks "Complete anyway?". */
  unreleased?: unknown[];
}

/** What waits, then what was refused. */
const useChanges = (): Change[] => {
  const { items, refusals } = useOutbox();
  return [
    ...items.map((item) => ({ key: item.key, entryId: entryIdOf(item), vehicle: item.vehicle })),
    ...refusals,
  ];
};

/** Whether a change is about this entry: by its id, or by the vehicle for an add. */
const concerns = (entry: About, change: Change) =>
  change.entryId !== null
    ? change.entryId === entry.id
    : change.vehicle === vehicleName(entry.vehicleType, entry.vehicleNumber);

/** "Waiting to send", or the server's refusal with Dismiss. */
function Mark({ change }: { change: Change }) {
  if (change.message === undefined)
    return (
      <Badge color="yellow.4" c="black" variant="filled" size="lg" tt="none" w="fit-content">
        Waiting to send
      </Badge>
    );
  return (
    <Group
      role="alert"
      gap="xs"
      wrap={change.unreleased ? 'wrap' : 'nowrap'}
      justify="space-between"
      p="xs"
      style={{ border: '2px solid var(--mantine-color-red-8)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Text fz="sm" fw={700} c={DANGER_TEXT}>
        {`Not sent: ${change.message}`}
      </Text>
      <Group gap="xs" wrap="nowrap">
        {change.unreleased && (
          <Button
            size="sm"
            color="green.9"
            aria-label={`Complete anyway: ${change.vehicle}`}
            onClick={() => void theOutbox().confirm(change.key, idempotencyKey())}
          >
            Complete anyway
          </Button>
        )}
        <Button
          size="sm"
          variant="outline"
          color="red"
          aria-label={`Dismiss for ${change.vehicle}`}
          onClick={() => theOutbox().dismiss(change.key)}
        >
          Dismiss
        </Button>
      </Group>
    </Group>
  );
}

/**
 * On a vehicle's card: "Waiting to send" while a change to it waits in the
 * outbox (once, however many wait), and each refusal of one once sent.
 */
export function OutboxMarks({ entry }: { entry: About }) {
  const mine = useChanges().filter(
    (change, index, all) =>
      concerns(entry, change) &&
      (change.message !== undefined ||
        all.findIndex((other) => other.message === undefined && concerns(entry, other)) === index),
  );
  if (mine.length === 0) return null;
  return (
    <Stack gap={6}>
      {mine.map((change) => (
        <Mark key={change.key} change={change} />
      ))}
    </Stack>
  );
}

/**
 * The outbox's changes and refusals about vehicles with no card on this
 * screen (a car added while offline, a pickup completed or a batch changed
 * while offline, a refused change to a vehicle that has left): one card
 * each, named after its vehicle, above the queue.
 */
export function PendingChanges({ entries }: { entries: readonly About[] }) {
  const shown = useChanges().filter((change) => !entries.some((entry) => concerns(entry, change)));
  if (shown.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label="Waiting to send">
      <Title order={3}>Waiting to send</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {shown.map((change) => (
          <Paper
            key={change.key}
            role="group"
            aria-label={`${change.vehicle}, ${change.message === undefined ? 'waiting to send' : 'not sent'}`}
            withBorder
            radius="md"
            p="sm"
            style={{ borderStyle: 'dashed', borderWidth: 2 }}
          >
            <Text fw={900} fz="xl">
              {change.vehicle}
            </Text>
            <Mark change={change} />
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
