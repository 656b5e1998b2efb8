import {
  ARRIVAL_STATE_LABELS,
  type Arrival,
  formatAgo,
  ON_FOOT_LABEL,
  type QueueEntry,
  vehicleName,
} from '@curbside/domain';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue } from 'react';
import { queueQueries, useAddToQueue } from '../queue/queue.queries';
import { useNow } from '../queue/use-now';
import { arrivalQueries, useArrivalsFollowLive } from './arrivals.queries';

/** Whether the arrival's car is in the line now (queued by a tap, by typing, or by the announcement). */
const inLine = (arrival: Arrival, queue: readonly QueueEntry[] | undefined) =>
  arrival.vehicleNumber !== null &&
  (queue ?? []).some(
    (entry) =>
      entry.id === arrival.entryId ||
      (entry.vehicleType === (arrival.vehicleType ?? 'car') && entry.vehicleNumber === arrival.vehicleNumber),
  );

function ArrivalRow({ arrival, queued, now }: { arrival: Arrival; queued: boolean; now: number }) {
  const add = useAddToQueue();
  const car =
    arrival.vehicleNumber === null ? null : vehicleName(arrival.vehicleType ?? 'car', arrival.vehicleNumber);
  const children = arrival.students.map((student) => `${student.firstName} ${student.lastName}`).join(', ');
  const title = car ?? ON_FOOT_LABEL;
  return (
    <Card component="li" withBorder p="xs" aria-label={`${title}: ${children}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={800} fz="lg">
              {title}
            </Text>
            <Badge color={arrival.state === 'here' ? 'green.9' : 'blue.8'} variant="filled">
              {ARRIVAL_STATE_LABELS[arrival.state]}
            </Badge>
            <Text c="dimmed" fz="sm">
              {formatAgo(arrival.updatedAt, now)}
            </Text>
          </Group>
          <Text fz="sm" truncate>
            {children}
          </Text>
        </Stack>
        {car &&
          arrival.vehicleNumber !== null &&
          (queued || arrival.queuedBy === 'announcement' ? (
            <Text fw={700} fz="sm" style={{ flexShrink: 0 }}>
              {arrival.queuedBy === 'announcement' ? 'Queued by announcement' : 'In the queue'}
            </Text>
          ) : (
            <Button
              size="md"
              style={{ flexShrink: 0 }}
              loading={add.isPending}
              aria-label={`Queue ${car}`}
              onClick={() =>
                add.mutate({
                  sessionId: arrival.sessionId,
                  vehicleNumber: arrival.vehicleNumber as string,
                  vehicleType: arrival.vehicleType ?? 'car',
                })
              }
            >
              Queue
            </Button>
          ))}
      </Group>
    </Card>
  );
}

/**
 * The front screen's Arriving list (issue 53): families who announced "on
 * the way" or "here", newest first; one tap queues the car exactly as typing
 * its number does. Hidden while nobody announced.
 *
 * Its answers (the arrivals, the queue) are drawn in a transition (issue 57, h57a): only this
 * reader is drawn at once by an answer (`useSyncExternalStore`), the list (`ArrivalsDrawn`,
 * memoised) follows with the answers deferred, which React renders in slices.
 */
export function ArrivingList({ sessionId }: { sessionId: number }) {
  const arrivals = useQuery(arrivalQueries.list(sessionId));
  const queue = useQuery(queueQueries.active(sessionId));
  useArrivalsFollowLive(sessionId);
  const list = useDeferredValue(arrivals.data);
  const queued = useDeferredValue(queue.data);
  return <ArrivalsDrawn list={list} queue={queued} />;
}

/** The list drawn from its (deferred) answers; its times move on every 5 s. */
const ArrivalsDrawn = memo(function ArrivalsDrawn({
  list = [],
  queue,
}: {
  list: Arrival[] | undefined;
  queue: QueueEntry[] | undefined;
}) {
  const now = useNow(5000);
  if (list.length === 0) return null;
  return (
    <Card p="sm" component="section" aria-labelledby="arriving-title">
      <Stack gap="xs">
        <Title order={2} fz="lg" id="arriving-title">
          Arriving ({list.length})
        </Title>
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
          {list.map((arrival) => (
            <ArrivalRow key={arrival.id} arrival={arrival} queued={inLine(arrival, queue)} now={now} />
          ))}
        </Stack>
      </Stack>
    </Card>
  );
});
