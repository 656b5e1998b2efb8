import {
  elapsedSeconds,
  formatDuration,
  orderQueue,
  plural,
  shortName,
  vehicleLabel,
} from '@curbside/domain';
import { Badge, Box, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { BORDER, MUTED_TEXT } from '../../lib/theme';
import { queueQueries } from '../queue/queue.queries';
import { QUEUE_STATUS_POLL_MS } from './teacher.queries';

/** The queue status card lists at most 5 waiting vehicles. */
export const QUEUE_STATUS_LIMIT = 5;

/** 'Queue Status': the first waiting vehicles of the line, polled every 5 s. */
export function QueueStatusCard({ sessionId, now }: { sessionId: number; now: number }) {
  const query = useQuery({ ...queueQueries.active(sessionId), refetchInterval: QUEUE_STATUS_POLL_MS });
  const waiting = orderQueue((query.data ?? []).filter((entry) => entry.status === 'waiting'));
  const shown = waiting.slice(0, QUEUE_STATUS_LIMIT);
  const more = waiting.length - shown.length;
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Queue Status">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="xl">
            Queue Status
          </Title>
          {query.isPending ? (
            <Loader size="sm" aria-label="Loading queue" />
          ) : (
            <Badge size="lg" color="blue.9" tt="none">
              {`${plural(waiting.length, 'vehicle')} waiting`}
            </Badge>
          )}
        </Group>
        {!query.isPending && waiting.length === 0 && (
          <Text c={MUTED_TEXT} fz="md">
            No vehicles waiting
          </Text>
        )}
        {shown.map((entry) => (
          <Group key={entry.id} wrap="nowrap" gap="sm" py={6} style={{ borderBottom: `1px solid ${BORDER}` }}>
            <Box
              miw={60}
              px={6}
              py={2}
              ta="center"
              bg={entry.vehicleType === 'bus' ? 'yellow.4' : 'blue.9'}
              c={entry.vehicleType === 'bus' ? 'black' : 'white'}
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
            >
              <Text fz="lg" fw={900}>
                {vehicleLabel(entry.vehicleType, entry.vehicleNumber)}
              </Text>
            </Box>
            <Text fz="md" fw={600} style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
              {entry.students.map(shortName).join(', ') || entry.vehicle?.parentName || ''}
            </Text>
            <Text fz="md" fw={700} c={MUTED_TEXT}>
              {formatDuration(elapsedSeconds(entry.queueTime, now))}
            </Text>
          </Group>
        ))}
        {more > 0 && (
          <Text fz="md" fw={700} c={MUTED_TEXT}>
            {`... and ${more} more`}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
