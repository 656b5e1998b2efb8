import { formatDuration, type ReportPickup, type ReportStudent } from '@curbside/domain';
import { COMPLETED_WITHOUT_RELEASE, RELEASES_BY_WAY_LABELS } from '@curbside/domain/report';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { actorText, dayText, IN_QUEUE, OUTCOME_LABEL, timeText, waitText } from './format';
import { reportCsvHref, reportQueries } from './reports.queries';

const ReportCharts = lazy(() => import('./report-charts'));

const matches = (pickup: ReportPickup, text: string) => {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  const hay = [
    pickup.vehicleNumber,
    ...pickup.students.flatMap((student) => [student.firstName, student.lastName, student.classroom ?? '']),
    actorText(pickup.queuedBy),
    ...pickup.students.map((student) => actorText(student.releasedBy)),
    actorText(pickup.completedBy),
  ];
  return hay.some((value) => value.toLowerCase().includes(needle));
};

/**
 * One child's release, as the record has it: "Ava: 3:02 PM · Taylor
 * Teacher", "Ava: Completed without a teacher's release", or "Ava: —".
 */
function ChildRelease({ student }: { student: ReportStudent }) {
  const release = student.completedWithoutRelease
    ? COMPLETED_WITHOUT_RELEASE
    : student.releasedAt
      ? `${timeText(student.releasedAt)} · ${actorText(student.releasedBy)}`
      : '—';
  return (
    <Text
      fz="sm"
      fw={student.completedWithoutRelease ? 700 : undefined}
      c={student.completedWithoutRelease ? DANGER_TEXT : undefined}
    >
      {`${student.firstName}: ${release}`}
    </Text>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder p="md">
      <Text c={MUTED_TEXT} fz="sm">
        {label}
      </Text>
      <Text fw={700} fz="xl">
        {value}
      </Text>
    </Card>
  );
}

/** One session's report: its summary, two charts, every pickup with who did what and when, Export CSV. */
export function SessionReportPage() {
  const id = Number(useParams().id);
  const report = useQuery({ ...reportQueries.report(id), enabled: Number.isInteger(id) && id > 0 });
  const [search, setSearch] = useState('');
  if (report.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading report" />
      </Center>
    );
  }
  if (report.isError) {
    return (
      <Container size="lg" py="md">
        <Alert color="red" title="Failed to load the report">
          {report.error.message}
        </Alert>
      </Container>
    );
  }
  const { session, summary, pickups } = report.data;
  const shown = pickups.filter((pickup) => matches(pickup, search));
  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={0}>
            <Anchor component={Link} to="/session-reports">
              Session Reports
            </Anchor>
            <Title order={1}>{session.name}</Title>
            <Text c={MUTED_TEXT}>
              {dayText(session.startTime)}, {timeText(session.startTime)}–
              {timeText(session.endedAt ?? session.endTime)}
            </Text>
          </Stack>
          <Button component="a" href={reportCsvHref(session.id)} download>
            Export CSV
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="sm">
          <Stat label="Cars" value={String(summary.cars)} />
          <Stat label="Buses" value={String(summary.buses)} />
          <Stat label="Students picked up" value={String(summary.studentsPickedUp)} />
          <Stat label="Batches" value={String(summary.batches)} />
          <Stat label="Median wait" value={waitText(summary.medianWaitSeconds)} />
          <Stat label="90% waited under" value={waitText(summary.p90WaitSeconds)} />
        </SimpleGrid>
        {/* Released by way home (issue 52); absent on reports kept before it. */}
        {summary.releasesByWay && (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label="Released by way home">
            {RELEASES_BY_WAY_LABELS.map(([key, label]) => (
              <Stat key={key} label={`${label} released`} value={String(summary.releasesByWay[key])} />
            ))}
          </SimpleGrid>
        )}
        <Suspense fallback={<Loader aria-label="Loading charts" />}>
          <ReportCharts pickups={pickups} />
        </Suspense>
        <Card withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="pickups">
          <Group justify="space-between" mb="sm">
            <Title order={2} id="pickups">
              Pickups
            </Title>
            <TextInput
              aria-label="Search pickups"
              placeholder="Search by vehicle #, student, classroom or staff..."
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              w={{ base: '100%', sm: 360 }}
            />
          </Group>
          <Table.ScrollContainer minWidth={900}>
            <Table striped verticalSpacing="xs" aria-label="Pickups">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Vehicle #</Table.Th>
                  <Table.Th>Students</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>Queued</Table.Th>
                  <Table.Th>Released</Table.Th>
                  <Table.Th>Picked up</Table.Th>
                  <Table.Th>Wait</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((pickup) => (
                  <Table.Tr key={pickup.entryId}>
                    <Table.Td fw={600}>
                      {pickup.vehicleType === 'bus' ? 'Bus ' : ''}
                      {pickup.vehicleNumber}
                    </Table.Td>
                    <Table.Td>
                      {pickup.students.length === 0
                        ? '—'
                        : pickup.students
                            .map(
                              (s) => `${s.firstName} ${s.lastName}${s.classroom ? ` (${s.classroom})` : ''}`,
                            )
                            .join(', ')}
                    </Table.Td>
                    <Table.Td>
                      {/* The whole label, never cut ("Picked…"): the column is as wide as its longest badge. */}
                      <Badge
                        variant="outline"
                        tt="none"
                        size="lg"
                        styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
                        color={pickup.outcome === 'picked_up' ? 'green.9' : 'gray.8'}
                      >
                        {pickup.outcome ? OUTCOME_LABEL[pickup.outcome] : IN_QUEUE}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {timeText(pickup.queuedAt)} · {actorText(pickup.queuedBy)}
                    </Table.Td>
                    <Table.Td>
                      {pickup.students.length === 0
                        ? '—'
                        : pickup.students.map((student) => (
                            <ChildRelease key={student.id} student={student} />
                          ))}
                    </Table.Td>
                    <Table.Td>
                      {pickup.pickedUpAt
                        ? `${timeText(pickup.pickedUpAt)} · ${actorText(pickup.completedBy)}`
                        : pickup.endedAt
                          ? `— (${timeText(pickup.endedAt)})`
                          : '—'}
                    </Table.Td>
                    <Table.Td>
                      {pickup.pickedUpAt
                        ? formatDuration(
                            Math.max(
                              0,
                              Math.round(
                                (Date.parse(pickup.pickedUpAt) - Date.parse(pickup.queuedAt)) / 1000,
                              ),
                            ),
                          )
                        : '—'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {shown.length === 0 && (
            <Text c={MUTED_TEXT} mt="sm">
              {pickups.length === 0
                ? 'No vehicles were queued in this session.'
                : 'No pickups match your search.'}
            </Text>
          )}
        </Card>
      </Stack>
    </Container>
  );
}
