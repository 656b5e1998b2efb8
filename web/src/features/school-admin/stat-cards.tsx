import {
  averageWaitSeconds,
  formatClockTime,
  formatDuration,
  type PickupSession,
  plural,
  type QueueEntry,
  type StudentStats,
  WAIT_TARGET_MINUTES,
  waitBarPercent,
} from '@curbside/domain';
import { Badge, Card, type CardProps, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { MUTED_TEXT } from '../../lib/theme';

/** One card of a dashboard's stat row: a small uppercase title over its content. */
export function StatCard({
  title,
  children,
  p = 'lg',
}: {
  title: string;
  children: ReactNode;
  /** The card's padding (smaller where three cards share a phone's row). */
  p?: CardProps['p'];
}) {
  return (
    <Card component="section" aria-label={title} p={p}>
      <Stack gap="xs">
        <Text fz="sm" fw={700} tt="uppercase" c={MUTED_TEXT}>
          {title}
        </Text>
        {children}
      </Stack>
    </Card>
  );
}

function Line({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text>{label}</Text>
      <Text fw={700}>{value}</Text>
    </Group>
  );
}

/**
 * The four cards of a running session: the session, the students (in school,
 * waiting, picked up), the queue (cars and buses), and the average wait
 * against the 10-minute target.
 */
export function StatCards({
  session,
  students,
  entries,
  now,
}: {
  session: PickupSession;
  students: StudentStats | null | undefined;
  entries: readonly QueueEntry[];
  now: number;
}) {
  const cars = entries.filter((entry) => entry.vehicleType === 'car').length;
  const buses = entries.length - cars;
  const wait = averageWaitSeconds(entries, now);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <StatCard title="Current Session">
        <Title order={3}>{session.name}</Title>
        <Text>
          {formatClockTime(session.startTime)} - {formatClockTime(session.endTime)}
        </Text>
        <Badge color="green.9" variant="filled" size="lg">
          Active
        </Badge>
      </StatCard>
      <StatCard title="Students">
        <Title order={3} aria-label={`${students?.total ?? 0} students`}>
          {students ? students.total : '…'}
        </Title>
        <Line label="In School" value={students?.inSchool ?? '…'} />
        <Line label="Waiting" value={students?.waiting ?? '…'} />
        <Line label="Picked Up" value={students?.pickedUp ?? '…'} />
      </StatCard>
      <StatCard title="Queue Status">
        <Title order={3}>{plural(entries.length, 'vehicle')}</Title>
        <Line label="Cars" value={cars} />
        <Line label="Buses" value={buses} />
      </StatCard>
      <StatCard title="Average Wait Time">
        <Title order={3} aria-label={`Average wait ${formatDuration(wait)}`}>
          {formatDuration(wait)}
        </Title>
        <Progress
          value={waitBarPercent(wait)}
          color={wait / 60 >= WAIT_TARGET_MINUTES ? 'red' : 'blue'}
          size="lg"
          aria-label="Average wait against the target"
        />
        <Text c={MUTED_TEXT}>Target: Under 10 minutes</Text>
      </StatCard>
    </SimpleGrid>
  );
}
