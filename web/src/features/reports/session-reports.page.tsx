import {
  Alert,
  Anchor,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { MUTED_TEXT } from '../../lib/theme';
import { dayText, timeText, waitText } from './format';
import { reportQueries } from './reports.queries';

/** Session Reports: the school's dismissals, newest first, each with its cars and waits; one opens its report. */
export function SessionReportsPage() {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useQuery(reportQueries.sessions(cursor));
  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1}>Session Reports</Title>
          <Anchor component={Link} to="/school-admin">
            Back to School Admin
          </Anchor>
        </Group>
        <Card withBorder p={{ base: 'sm', sm: 'lg' }}>
          {page.isPending ? (
            <Loader aria-label="Loading sessions" />
          ) : page.isError ? (
            <Alert color="red" title="Failed to load sessions">
              {page.error.message}
            </Alert>
          ) : page.data.items.length === 0 ? (
            <Text c={MUTED_TEXT}>No sessions yet. Reports appear here once a dismissal has run.</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped verticalSpacing="sm" aria-label="Sessions">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Session</Table.Th>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Vehicles</Table.Th>
                    <Table.Th>Students picked up</Table.Th>
                    <Table.Th>Median wait</Table.Th>
                    <Table.Th>90% waited under</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.data.items.map((session) => (
                    <Table.Tr key={session.id}>
                      <Table.Td fw={600}>{session.name}</Table.Td>
                      <Table.Td>
                        {dayText(session.startTime)}, {timeText(session.startTime)}
                        {session.status === 'active' ? ' (running)' : ''}
                      </Table.Td>
                      <Table.Td>{session.summary.cars}</Table.Td>
                      <Table.Td>{session.summary.studentsPickedUp}</Table.Td>
                      <Table.Td>{waitText(session.summary.medianWaitSeconds)}</Table.Td>
                      <Table.Td>{waitText(session.summary.p90WaitSeconds)}</Table.Td>
                      <Table.Td>
                        <Button
                          component={Link}
                          to={`/session-reports/${session.id}`}
                          size="sm"
                          aria-label={`Open report of ${session.name}, ${dayText(session.startTime)}`}
                        >
                          Open report
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" mt="md">
            <Button
              variant="default"
              disabled={cursors.length === 1}
              onClick={() => setCursors((list) => list.slice(0, -1))}
            >
              Newer
            </Button>
            <Button
              variant="default"
              disabled={!page.data?.next}
              onClick={() => {
                const next = page.data?.next;
                if (next) setCursors((list) => [...list, next]);
              }}
            >
              Older
            </Button>
          </Group>
        </Card>
      </Stack>
    </Container>
  );
}
