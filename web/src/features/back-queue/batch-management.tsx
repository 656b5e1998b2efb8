import { type Batch, orderQueue, type QueueEntry, type VehicleType } from '@curbside/domain';
import { Button, Card, Grid, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { queueQueries } from '../queue/queue.queries';
import { usePendingRemovals } from '../queue/undo';
import { VehicleDialog } from '../queue/vehicle-dialog';
import { BatchCard } from './batch-card';
import { batchQueries, useCreateBatch, useMoveOutOfBatch } from './batches.queries';
import { DragProvider } from './drag';
import { BackToQueueZone, OverflowArea } from './drop-zones';

export const BATCH_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'car', label: 'Cars Only' },
  { value: 'bus', label: 'Buses Only' },
  { value: 'overflow', label: 'Overflow Only' },
] as const;
export type BatchFilter = (typeof BATCH_FILTERS)[number]['value'];

/** Completed batches shown before 'Show all'. */
const RECENT_COMPLETED = 6;

const TYPE_TEXT = {
  car: { create: 'New Car Batch', none: 'No Cars in Queue', color: 'blue.9' },
  bus: { create: 'New Bus Batch', none: 'No Buses in Queue', color: 'yellow.4' },
} as const;

/** 'New Car Batch (n)' (n waiting, batch-less cars), 'No Cars in Queue', 'Creating...'; likewise buses. */
function NewBatchButton({
  sessionId,
  vehicleType,
  waiting,
}: {
  sessionId: number;
  vehicleType: VehicleType;
  waiting: number;
}) {
  const create = useCreateBatch(sessionId, vehicleType);
  const text = TYPE_TEXT[vehicleType];
  const disabled = waiting === 0 || create.isPending;
  return (
    <Button
      size="xl"
      h={68}
      fullWidth
      color={text.color}
      disabled={disabled}
      // A disabled button keeps a visible outline on either scheme.
      style={disabled ? { border: '2px dashed var(--mantine-color-default-border)' } : undefined}
      onClick={() => create.mutate()}
    >
      {create.isPending ? 'Creating...' : waiting === 0 ? text.none : `${text.create} (${waiting})`}
    </Button>
  );
}

const byNumber = (a: Batch, b: Batch) => a.batchNumber - b.batchNumber;

interface BatchManagementProps {
  sessionId: number;
  filter: BatchFilter;
  onFilter: (filter: BatchFilter) => void;
}

/**
 * Batch Management: the filters, new-batch buttons, loading batches beside
 * the drop zones ('Back to Queue', 'Overflow Area'), completed batches, and
 * the details dialog of any vehicle tapped here.
 */
export function BatchManagement({ sessionId, filter, onFilter }: BatchManagementProps) {
  const queue = useQuery(queueQueries.active(sessionId));
  const active = useQuery(batchQueries.active(sessionId));
  const completed = useQuery(batchQueries.completed(sessionId));
  const move = useMoveOutOfBatch(sessionId);
  const [showAll, setShowAll] = useState(false);
  const [opened, setOpened] = useState<QueueEntry | null>(null);

  const leaving = usePendingRemovals();
  const ordered = useMemo(
    () =>
      orderQueue(
        (queue.data ?? []).filter((entry) => entry.status !== 'completed' && !leaving.has(entry.id)),
      ),
    [queue.data, leaving],
  );
  const waiting = (type: VehicleType) =>
    ordered.filter(
      (entry) => entry.vehicleType === type && entry.status === 'waiting' && entry.batchId === null,
    ).length;
  const overflow = ordered.filter((entry) => entry.status === 'overflow');

  const types: VehicleType[] = filter === 'car' ? ['car'] : filter === 'bus' ? ['bus'] : ['car', 'bus'];
  const shows = (batch: Batch) => types.includes(batch.vehicleType);
  const loading = (active.data ?? [])
    .filter((batch) => batch.status === 'loading' && shows(batch))
    .sort(byNumber);
  const done = (completed.data ?? []).filter(shows).sort((a, b) => byNumber(b, a));
  const doneShown = showAll ? done : done.slice(0, RECENT_COMPLETED);

  // The dialog shows the entry as the queue has it now (position, batch), else as it was opened.
  const openEntry = opened
    ? (ordered.find((entry) => entry.id === opened.id) ?? { ...opened, position: null })
    : null;
  const sameType = openEntry
    ? ordered.filter((entry) => entry.vehicleType === openEntry.vehicleType).length
    : 0;

  return (
    <DragProvider
      onDrop={(zone, payload) =>
        move.mutate({ entryId: payload.entryId, batchId: payload.batchId, target: zone })
      }
    >
      <Card p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="batch-management">
        <Stack gap="lg">
          <Group justify="space-between" gap="sm">
            <Title order={2} id="batch-management">
              Batch Management
            </Title>
            {(active.isPending || completed.isPending) && <Loader size="sm" aria-label="Loading batches" />}
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" role="group" aria-label="Batch filter">
            {BATCH_FILTERS.map((item) => (
              <Button
                key={item.value}
                size="lg"
                px={4}
                fz={{ base: 'md', sm: 'lg' }}
                variant={filter === item.value ? 'filled' : 'default'}
                aria-pressed={filter === item.value}
                onClick={() => onFilter(item.value)}
              >
                {item.label}
              </Button>
            ))}
          </SimpleGrid>

          {filter === 'overflow' ? (
            <OverflowArea entries={overflow} onOpen={setOpened} />
          ) : (
            <>
              <SimpleGrid cols={{ base: 1, sm: types.length }} spacing="sm">
                {types.map((type) => (
                  <NewBatchButton
                    key={type}
                    sessionId={sessionId}
                    vehicleType={type}
                    waiting={waiting(type)}
                  />
                ))}
              </SimpleGrid>
              <Grid gutter="md">
                <Grid.Col span={{ base: 12, md: 7, lg: 8 }} order={{ base: 2, md: 1 }}>
                  <Stack gap="sm">
                    <Title order={3}>Active Batches</Title>
                    {loading.length === 0 ? (
                      <Text fz="lg" c={MUTED_TEXT} py="sm">
                        No active batches
                      </Text>
                    ) : (
                      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
                        {loading.map((batch) => (
                          <BatchCard
                            key={batch.id}
                            batch={batch}
                            waiting={waiting(batch.vehicleType)}
                            onOpen={setOpened}
                          />
                        ))}
                      </SimpleGrid>
                    )}
                  </Stack>
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 5, lg: 4 }} order={{ base: 1, md: 2 }}>
                  {/* Kept in view beside the batches on tablets, so chips can reach the zones. */}
                  <Stack gap="sm" style={{ position: 'sticky', top: 8 }}>
                    <BackToQueueZone />
                    <OverflowArea entries={overflow} compact={filter !== 'all'} onOpen={setOpened} />
                  </Stack>
                </Grid.Col>
              </Grid>
              <Stack gap="sm">
                <Title order={3}>Completed Batches</Title>
                {done.length === 0 ? (
                  <Text fz="lg" c={MUTED_TEXT}>
                    No completed batches yet
                  </Text>
                ) : (
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
                    {doneShown.map((batch) => (
                      <BatchCard key={batch.id} batch={batch} waiting={0} onOpen={setOpened} />
                    ))}
                  </SimpleGrid>
                )}
                {done.length > RECENT_COMPLETED && (
                  <Button variant="default" onClick={() => setShowAll(!showAll)}>
                    {showAll ? 'Show recent batches only' : `Show all completed batches (${done.length})`}
                  </Button>
                )}
              </Stack>
            </>
          )}
        </Stack>
      </Card>
      <VehicleDialog
        entry={openEntry}
        total={sameType}
        onClose={() => setOpened(null)}
        actions={
          openEntry?.batchId != null && openEntry.status !== 'completed' ? (
            <Group grow gap="xs">
              <Button
                size="lg"
                variant="default"
                onClick={() =>
                  move.mutate({
                    entryId: openEntry.id,
                    batchId: openEntry.batchId as number,
                    target: 'overflow',
                  })
                }
              >
                Move to Overflow
              </Button>
              <Button
                size="lg"
                variant="default"
                onClick={() =>
                  move.mutate({
                    entryId: openEntry.id,
                    batchId: openEntry.batchId as number,
                    target: 'queue',
                  })
                }
              >
                Back to Queue
              </Button>
            </Group>
          ) : null
        }
      />
    </DragProvider>
  );
}
