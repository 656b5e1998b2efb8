import type { ProgramStudent } from '@curbside/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT, SUCCESS_TEXT } from '../../lib/theme';
import { useLiveEvent } from '../live/live';
import { waysHomeQueries } from '../ways-home/ways-home.queries';
import { programQueries, useCheckIn, withCheckIn } from './programs.queries';

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

function StudentRow({ student }: { student: ProgramStudent }) {
  const checkIn = useCheckIn();
  const name = `${student.firstName} ${student.lastName}`;
  return (
    <Paper withBorder radius="md" p="sm" role="listitem" aria-label={name}>
      <Group gap="sm" wrap="wrap">
        <Stack gap={0} style={{ flex: '1 1 180px', minWidth: 0 }}>
          <Text fw={800} fz="lg">
            {name}
          </Text>
          <Text fz="sm" c={MUTED_TEXT}>
            {[student.classroom, student.note ? `“${student.note}”` : null].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
        <Badge size="lg" tt="none" variant="outline" color={student.releasedAt ? SUCCESS_TEXT : 'gray.7'}>
          {student.releasedAt
            ? `Sent ${timeOf(student.releasedAt)}${student.releasedBy ? ` by ${student.releasedBy}` : ''}`
            : 'Not sent yet'}
        </Badge>
        {student.checkedInAt ? (
          <Group gap="xs">
            <Badge size="lg" tt="none" color="green.9">
              {`Checked in ${timeOf(student.checkedInAt)}`}
            </Badge>
            <Button
              variant="default"
              loading={checkIn.isPending}
              onClick={() => checkIn.mutate({ studentId: student.id, undo: true })}
              aria-label={`Undo check-in of ${name}`}
            >
              Undo
            </Button>
          </Group>
        ) : (
          <Button
            color="green.9"
            loading={checkIn.isPending}
            onClick={() => checkIn.mutate({ studentId: student.id, undo: false })}
            aria-label={`Check in ${name}`}
          >
            Check in
          </Button>
        )}
      </Group>
    </Paper>
  );
}

function ProgramList({ programId }: { programId: number }) {
  const list = useQuery(programQueries.list(programId));
  if (list.isLoading)
    return (
      <Center py="lg">
        <Loader aria-label="Loading the program's list" />
      </Center>
    );
  if (list.error) return <Alert color="red">{errorMessage(list.error)}</Alert>;
  const data = list.data;
  if (!data) return null;
  const here = data.students.filter((student) => student.checkedInAt).length;
  return (
    <Card component="section" aria-label={`${data.program.name} today`} p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="xl">
            {`${data.program.name}${data.program.location ? ` · ${data.program.location}` : ''}`}
          </Title>
          <Badge size="xl" tt="none" color="gray.8">{`Checked in: ${here} of ${data.students.length}`}</Badge>
        </Group>
        {data.students.length === 0 ? (
          <Text c={MUTED_TEXT}>Nobody goes to this program today</Text>
        ) : (
          <Stack gap="xs" role="list" aria-label="Children today">
            {data.students.map((student) => (
              <StudentRow key={student.id} student={student} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The program screen (issue 52): any staff member picks a program and sees
 * today's children (their plans and today's changes), who sent each one, and
 * checks each arriving child in, so the office can answer "did Ava make it to
 * Kids Club?". Other tablets' check-ins and the teachers' sends arrive live.
 */
export function ProgramsPage() {
  const programs = useQuery(waysHomeQueries.programs(undefined));
  const active = (programs.data ?? []).filter((program) => program.active);
  const [chosen, setChosen] = useState<number | null>(null);
  const programId = chosen ?? active[0]?.id ?? null;
  const queryClient = useQueryClient();
  useLiveEvent('PROGRAM_CHECK_IN', ({ data }) =>
    queryClient.setQueryData(programQueries.list(data.programId).queryKey, (list) => withCheckIn(list, data)),
  );
  useLiveEvent(['STUDENTS_RELEASED', 'DISMISSAL_PLAN_CHANGED'], () => {
    void queryClient.invalidateQueries({ queryKey: programQueries.all });
  });
  return (
    <Container size="md" py="md">
      <Stack gap="md">
        <Title order={1}>Programs</Title>
        {programs.isLoading ? (
          <Loader aria-label="Loading programs" />
        ) : active.length === 0 ? (
          <Text c={MUTED_TEXT}>The school offers no program</Text>
        ) : (
          <>
            {active.length > 1 && (
              <SegmentedControl
                aria-label="Program"
                value={String(programId)}
                onChange={(value) => setChosen(Number(value))}
                data={active.map((program) => ({ label: program.name, value: String(program.id) }))}
              />
            )}
            {programId !== null && <ProgramList programId={programId} />}
          </>
        )}
      </Stack>
    </Container>
  );
}
