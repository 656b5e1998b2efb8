import { type QueueEntry, vehicleName } from '@curbside/domain';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DANGER_TEXT } from '../../lib/theme';
import { entryIdOf, type OutboxItem, type Refusal } from './outbox';
import { theOutbox, useOutbox } from './use-outbox';

type About = Pick<QueueEntry, 'id' | 'vehicleType' | 'vehicleNumber'>;

/** Whether an outbox change (or refusal) is about this entry: by its id, or by the vehicle for an add. */
const concerns = (entry: About, change: { entryId: string | null; vehicle: string }) =>
  change.entryId !== null
    ? change.entryId === entry.id
    : change.vehicle === vehicleName(entry.vehicleType, entry.vehicleNumber);

const asChange = (item: OutboxItem) => ({ entryId: entryIdOf(item), vehicle: item.vehicle });

/** A refused change on its vehicle: the server's message and Dismiss. */
function RefusalNotice({ refusal }: { refusal: Refusal }) {
  return (
    <Group
      role="alert"
      gap="xs"
      wrap="nowrap"
      justify="space-between"
      p="xs"
      style={{ border: '2px solid var(--mantine-color-red-8)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Text fz="sm" fw={700} c={DANGER_TEXT}>
        {`Not sent: ${refusal.message}`}
      </Text>
      <Button
        size="sm"
        variant="outline"
        color="red"
        aria-label={`Dismiss for ${refusal.vehicle}`}
        onClick={() => theOutbox().dismiss(refusal.key)}
      >
        Dismiss
      </Button>
    </Group>
  );
}

/**
 * On a vehicle's card: "Waiting to send" while a change to it waits in the
 * outbox, and the server's refusal of one once sent (with Dismiss).
 */
export function OutboxMarks({ entry }: { entry: About }) {
  const { items, refusals } = useOutbox();
  const waiting = items.find((item) => concerns(entry, asChange(item)));
  const refused = refusals.filter((refusal) => concerns(entry, refusal));
  if (!waiting && refused.length === 0) return null;
  return (
    <Stack gap={6}>
      {waiting && (
        <Badge color="yellow.4" c="black" variant="filled" size="lg" tt="none" w="fit-content">
          Waiting to send
        </Badge>
      )}
      {refused.map((refusal) => (
        <RefusalNotice key={refusal.key} refusal={refusal} />
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
  const { items, refusals } = useOutbox();
  const shown = (change: { entryId: string | null; vehicle: string }) =>
    !entries.some((entry) => concerns(entry, change));
  const waiting = items.filter((item) => shown(asChange(item)));
  const refused = refusals.filter(shown);
  if (waiting.length === 0 && refused.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label="Waiting to send">
      <Title order={3}>Waiting to send</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {[...waiting, ...refused].map((change) => (
          <Paper
            key={change.key}
            role="group"
            aria-label={`${change.vehicle}, ${'message' in change ? 'not sent' : 'waiting to send'}`}
            withBorder
            radius="md"
            p="sm"
            style={{ borderStyle: 'dashed', borderWidth: 2 }}
          >
            <Text fw={900} fz="xl">
              {change.vehicle}
            </Text>
            {'message' in change ? (
              <RefusalNotice refusal={change} />
            ) : (
              <Badge color="yellow.4" c="black" variant="filled" size="lg" tt="none">
                Waiting to send
              </Badge>
            )}
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
