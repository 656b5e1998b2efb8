import type { Classroom } from '@curbside/domain';
import { plural } from '@curbside/domain';
import { Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MUTED_TEXT } from '../../lib/theme';
import type { RosterCounts } from './roster';

const COUNTERS = [
  { key: 'ready', label: 'Ready', color: 'var(--mantine-color-green-9)' },
  { key: 'inClass', label: 'In Class', color: 'var(--mantine-color-blue-9)' },
  { key: 'pickedUp', label: 'Picked Up', color: 'var(--mantine-color-gray-8)' },
] as const;

/** The Ready / In Class / Picked Up counters. */
export function Counters({ counts }: { counts: RosterCounts }) {
  return (
    <SimpleGrid cols={3} spacing="sm">
      {COUNTERS.map(({ key, label, color }) => (
        <Paper
          key={key}
          radius="md"
          p="sm"
          ta="center"
          role="group"
          aria-label={label}
          style={{ border: `3px solid ${color}` }}
        >
          <Text fz={36} fw={900} lh={1.1} c={`light-dark(${color}, var(--mantine-color-text))`}>
            {counts[key]}
          </Text>
          <Text fz="md" fw={700}>
            {label}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** 'My Classroom': the selected classrooms' names, grades and student count, and the counters. */
export function MyClassroom({ classrooms, counts }: { classrooms: Classroom[]; counts: RosterCounts }) {
  const grades = [...new Set(classrooms.map((room) => room.grade))];
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="My Classroom">
      <Stack gap="sm">
        <Title order={2} fz="xl">
          My Classroom
        </Title>
        {classrooms.length === 0 ? (
          <Text c={MUTED_TEXT} fz="md">
            No classroom selected
          </Text>
        ) : (
          <Group justify="space-between" align="baseline" gap="xs">
            <Text fz={28} fw={900} lh={1.2}>
              {classrooms.map((room) => room.name).join(', ')}
            </Text>
            <Text fz="lg" fw={600} c={MUTED_TEXT}>
              {`${grades.map((grade) => `Grade ${grade}`).join(', ')} · ${plural(counts.total, 'student')}`}
            </Text>
          </Group>
        )}
        <Counters counts={counts} />
      </Stack>
    </Card>
  );
}
