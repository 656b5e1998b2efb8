import { batchMinutes, formatClockTime, plural } from '@curbside/domain';
import { Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { BORDER, MUTED_TEXT } from '../../lib/theme';
import { batchQueries } from '../back-queue/batches.queries';

/** 'Completed Batches Today': the session's completed batches, latest first. */
export function CompletedBatches({ sessionId }: { sessionId: number }) {
  const query = useQuery(batchQueries.completed(sessionId));
  const batches = [...(query.data ?? [])].sort((a, b) => b.batchNumber - a.batchNumber);
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Completed Batches Today">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="xl">
            Completed Batches Today
          </Title>
          {query.isPending ? (
            <Loader size="sm" aria-label="Loading batches" />
          ) : (
            <Badge size="lg" variant="outline" color="var(--mantine-color-text)">
              {batches.length}
            </Badge>
          )}
        </Group>
        {!query.isPending && batches.length === 0 && (
          <Text c={MUTED_TEXT} fz="md">
            No batches completed yet today
          </Text>
        )}
        {batches.map((batch) => (
          <Group
            key={batch.id}
            justify="space-between"
            wrap="wrap"
            gap="xs"
            py={6}
            style={{ borderBottom: `1px solid ${BORDER}` }}
          >
            <Group gap="xs" wrap="nowrap">
              <Text fw={800} fz="lg">{`Batch #${batch.batchNumber}`}</Text>
              <Badge tt="none" color={batch.vehicleType === 'bus' ? 'yellow.4' : 'blue.9'}>
                {batch.vehicleType === 'bus' ? 'Buses' : 'Cars'}
              </Badge>
            </Group>
            <Text fz="md" fw={600} c={MUTED_TEXT}>
              {[
                plural(batch.currentCount, 'vehicle'),
                batch.endTime ? `Completed ${formatClockTime(batch.endTime)}` : null,
                `${batchMinutes(batch)} min`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
