import { type ArrivalState, type TeacherStudent, vehicleLabel } from '@curbside/domain';
import { Badge, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BORDER, DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { ArrivalBadge } from '../arrivals/arrival-badge';
import { BATCH_GROUPS, type BatchGroupKey, batchGroupOf, isPickedUp } from './roster';
import { BatchStatusBadge } from './student-badges';

function StudentStatusRow({
  student,
  showRoom,
  arrival,
}: {
  student: TeacherStudent;
  showRoom: boolean;
  arrival: ArrivalState | undefined;
}) {
  const urgent = student.queueStatus === 'overflow';
  return (
    <Paper
      withBorder
      radius="md"
      px="sm"
      py={8}
      data-student-id={student.id}
      bg={urgent ? 'var(--mantine-color-red-light)' : undefined}
      style={{ borderWidth: 2, borderColor: urgent ? 'var(--mantine-color-red-8)' : BORDER }}
    >
      <Stack gap={4} align="flex-start">
        <Text fw={800} fz="lg" lh={1.25}>
          {student.firstName} {student.lastName}
        </Text>
        <Text fz="sm" fw={600} c={MUTED_TEXT}>
          {[
            student.vehicle ? vehicleLabel(student.vehicle.type, student.vehicle.number) : null,
            student.vehicle?.type === 'bus' ? 'Bus' : student.vehicle ? 'Car' : 'No vehicle',
            showRoom ? student.classroom?.name : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        <Group gap="xs" wrap="wrap">
          <BatchStatusBadge student={student} />
          <ArrivalBadge state={arrival} />
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Where each student of the selected classrooms is in the pickup: in the
 * overflow area (urgent), in a batch, waiting for a batch, or still in class.
 */
export function StudentBatchStatus({
  students,
  showRoom,
  arrivals = new Map(),
}: {
  students: TeacherStudent[];
  showRoom: boolean;
  /** Each child's family's announcement (issue 53): "Parent arriving" / "Parent here". */
  arrivals?: ReadonlyMap<number, ArrivalState>;
}) {
  const groups = new Map<BatchGroupKey, TeacherStudent[]>();
  for (const student of students) {
    if (isPickedUp(student)) continue;
    const key = batchGroupOf(student);
    groups.set(key, [...(groups.get(key) ?? []), student]);
  }
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Student Batch Status">
      <Stack gap="md">
        <Title order={2} fz="xl">
          Student Batch Status
        </Title>
        {groups.size === 0 && (
          <Text c={MUTED_TEXT} fz="md">
            No students in the selected classrooms
          </Text>
        )}
        {BATCH_GROUPS.map(({ key, title }) => {
          const members = groups.get(key);
          if (!members?.length) return null;
          return (
            <Stack key={key} gap="xs" component="section" aria-label={title}>
              <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
                <Title order={3} fz="lg" c={key === 'overflow' ? DANGER_TEXT : undefined}>
                  {title}
                </Title>
                <Badge
                  size="lg"
                  variant="outline"
                  color="var(--mantine-color-text)"
                  style={{ flexShrink: 0 }}
                >
                  {members.length}
                </Badge>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
                {members.map((student) => (
                  <StudentStatusRow
                    key={student.id}
                    student={student}
                    showRoom={showRoom}
                    arrival={arrivals.get(student.id)}
                  />
                ))}
              </SimpleGrid>
            </Stack>
          );
        })}
      </Stack>
    </Card>
  );
}
