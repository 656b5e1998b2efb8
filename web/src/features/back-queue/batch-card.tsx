import { type Batch, batchMinutes, formatClockTime, plural, type QueueEntry } from '@curbside/domain';
import { Badge, Button, Group, Loader, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MUTED_TEXT } from '../../lib/theme';
import { batchQueries, useAddToBatch, useCompleteBatch } from './batches.queries';
import { LIST } from './list-style';
import { VehicleChip } from './vehicle-chip';

const byArrival = (a: QueueEntry, b: QueueEntry) =>
  a.entryTime === b.entryTime ? (a.id < b.id ? -1 : 1) : a.entryTime < b.entryTime ? -1 : 1;

const STATUS_COLOR: Record<Batch['status'], string> = { loading: 'blue.9', completed: 'green.9' };
const TYPE_LOOK = {
  car: { label: 'Cars', color: 'blue.9' },
  bus: { label: 'Buses', color: 'yellow.4' },
} as const;

interface BatchCardProps {
  batch: Batch;
  /** Waiting, batch-less vehicles of the batch's type (nothing to add when 0). */
  waiting: number;
  onOpen: (entry: QueueEntry) => void;
}

/**
 * One batch: number, status, `3/8 vehicles`, start time, its vehicles as
 * chips. Loading: Add to batch (while below capacity) and Complete Batch;
 * chips can be dragged out. Completed: 'Batch completed' and its length.
 */
export function BatchCard({ batch, waiting, onOpen }: BatchCardProps) {
  const vehicles = useQuery(batchQueries.vehicles(batch));
  const add = useAddToBatch();
  const complete = useCompleteBatch();
  const loading = batch.status === 'loading';
  const name = `Batch #${batch.batchNumber}`;
  // In the order they joined the queue.
  const entries = batch.currentCount > 0 ? [...(vehicles.data ?? [])].sort(byArrival) : [];
  const type = TYPE_LOOK[batch.vehicleType];
  const minutes = plural(batchMinutes(batch), 'minute');

  return (
    <Paper
      component="section"
      aria-label={name}
      data-batch-id={batch.id}
      withBorder
      radius="lg"
      p="md"
      style={{
        borderWidth: 2,
        borderColor: loading ? 'var(--mantine-color-blue-8)' : 'var(--mantine-color-default-border)',
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs">
            <Title order={3}>{name}</Title>
            <Badge size="lg" variant="filled" color={STATUS_COLOR[batch.status]}>
              {batch.status}
            </Badge>
          </Group>
          <Badge size="lg" variant="filled" color={type.color}>
            {type.label}
          </Badge>
        </Group>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fz="lg" fw={800}>
            {`${batch.currentCount}/${batch.maxCapacity} vehicles`}
          </Text>
          <Text fz="md" fw={600} c={MUTED_TEXT}>
            {`Started ${formatClockTime(batch.startTime)}`}
          </Text>
        </Group>
        <Progress
          value={Math.min(100, (batch.currentCount / Math.max(1, batch.maxCapacity)) * 100)}
          size="lg"
          radius="xl"
          color={loading ? 'blue.8' : 'green.9'}
          aria-label={`${name} capacity`}
        />
        {!loading && (
          <Group gap="xs" justify="space-between">
            <Text fz="md" fw={800} c="light-dark(var(--mantine-color-green-9), var(--mantine-color-green-4))">
              Batch completed
            </Text>
            <Text fz="md" fw={600} c={MUTED_TEXT} aria-label="Batch duration">
              {minutes}
            </Text>
          </Group>
        )}
        {batch.currentCount === 0 ? (
          <Text fz="md" c={MUTED_TEXT}>
            No vehicles in this batch yet
          </Text>
        ) : vehicles.isPending ? (
          <Loader size="sm" aria-label={`Loading ${name}`} />
        ) : (
          <Group component="ul" gap="sm" aria-label={`Vehicles in ${name}`} style={LIST}>
            {entries.map((entry) => (
              <li key={entry.id}>
                <VehicleChip entry={entry} draggable={loading} onOpen={onOpen} />
              </li>
            ))}
          </Group>
        )}
        {loading && (
          <SimpleGrid cols={{ base: 1, xs: batch.currentCount < batch.maxCapacity ? 2 : 1 }} spacing="sm">
            {batch.currentCount < batch.maxCapacity && (
              <Button size="lg" variant="outline" disabled={waiting === 0} onClick={() => add.mutate(batch)}>
                Add to batch
              </Button>
            )}
            <Button
              size="lg"
              color="green.9"
              loading={complete.isPending}
              onClick={() => complete.mutate(batch)}
            >
              Complete Batch
            </Button>
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
