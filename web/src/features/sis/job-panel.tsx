import {
  type ImportJob,
  isStalledImport,
  SIS_RECORD_KINDS,
  type SisRecordKind,
  stalledMinutes,
} from '@curbside/domain';
import { Badge, Button, Card, Group, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { ReadState } from '../../components/read-state';
import { showReplacingToast } from '../../lib/toasts';
import { IMPORT_TOAST, IMPORTED, sisQueries, useRefreshAfterImport, useResumeImport } from './sis.queries';

const KIND_LABEL: Record<ImportJob['kind'], string> = {
  district: 'District import',
  school: 'School import',
  students: 'Student import',
  sync: 'Nightly sync',
};
const RECORD_LABEL: Record<SisRecordKind, string> = {
  schools: 'Schools',
  teachers: 'Teachers',
  classrooms: 'Classrooms',
  students: 'Students',
  parents: 'Parents',
};

/** The import being followed: its progress while it runs, its counts when it is done. */
export function JobPanel({ id }: { id: string }) {
  const job = useQuery(sisQueries.job(id));
  const resume = useResumeImport();
  const refresh = useRefreshAfterImport();
  const refreshed = useRef<string | null>(null);
  const card = useRef<HTMLElement>(null);
  const data = job.data;
  // A new import starts below, at its button: bring its progress into view.
  const shown = job.isSuccess;
  useEffect(() => {
    if (shown && id) card.current?.scrollIntoView({ block: 'start' });
  }, [id, shown]);
  // Seen running here: its end is news ("Students Imported"); a job opened already done is not.
  const sawRunning = useRef(false);
  useEffect(() => {
    if (data?.status === 'running') sawRunning.current = true;
    if (data?.status === 'succeeded' && refreshed.current !== data.id) {
      refreshed.current = data.id;
      void refresh();
      if (sawRunning.current && data.kind !== 'sync') {
        showReplacingToast(IMPORT_TOAST, {
          color: 'green.9',
          title: IMPORTED[data.kind],
          message: data.message,
        });
      }
    }
  }, [data, refresh]);
  if (!job.isSuccess) return <ReadState query={job} loading="Loading the import" failed="Import not found" />;
  // Running, but its run has saved nothing for minutes: its runtime went away (the job polls, so this is re-read).
  const stalled = isStalledImport(job.data);
  const moving = job.data.status === 'running' && !stalled;
  const status = stalled
    ? 'Stalled'
    : job.data.status === 'running'
      ? 'Running'
      : job.data.status === 'succeeded'
        ? 'Finished'
        : 'Stopped';
  const color = moving ? 'blue' : job.data.status === 'succeeded' ? 'green.9' : 'red.9';
  const rows = SIS_RECORD_KINDS.filter((kind) => {
    const tally = job.data.counts[kind];
    return tally.created + tally.updated + tally.unchanged + tally.deactivated > 0;
  });
  return (
    <Card ref={card} p={{ base: 'md', sm: 'lg' }} withBorder aria-label="Import progress" component="section">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="h3">
            {KIND_LABEL[job.data.kind]}
          </Title>
          <Badge color={color} variant="filled">
            {status}
          </Badge>
        </Group>
        <Progress
          value={job.data.percent}
          size="xl"
          color={color}
          striped={moving}
          animated={moving}
          aria-label="Import progress"
        />
        <Text role="status" aria-live="polite">
          {job.data.percent}% · {job.data.message}
        </Text>
        {stalled ? (
          <Text>
            No progress for {stalledMinutes(job.data)} minutes: the import stopped where it was. Resume it to
            continue from there.
          </Text>
        ) : null}
        {job.data.status === 'failed' || stalled ? (
          <Group>
            <Button color="red.9" loading={resume.isPending} onClick={() => resume.mutate(job.data.id)}>
              Resume import
            </Button>
          </Group>
        ) : null}
        {job.data.status !== 'running' && rows.length > 0 ? (
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
            <Table verticalSpacing="xs" horizontalSpacing="xs" aria-label="What the import did" miw={420}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Records</Table.Th>
                  <Table.Th ta="right">New</Table.Th>
                  <Table.Th ta="right">Updated</Table.Th>
                  <Table.Th ta="right">Unchanged</Table.Th>
                  <Table.Th ta="right">Deactivated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((kind) => (
                  <Table.Tr key={kind}>
                    <Table.Th scope="row">{RECORD_LABEL[kind]}</Table.Th>
                    <Table.Td ta="right">{job.data.counts[kind].created.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">{job.data.counts[kind].updated.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">{job.data.counts[kind].unchanged.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">
                      {job.data.counts[kind].deactivated.toLocaleString('en-US')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : null}
        {/* What a student import wrote, on the school admin screen; Clever has no cars. */}
        {job.data.status === 'succeeded' && job.data.kind === 'students' && job.data.schoolId ? (
          <Text fw={700}>
            Clever brings no vehicles: add the families' cars (School Rosters, Vehicles: Add or Import) before
            this school can run a car line.
          </Text>
        ) : null}
        {job.data.status === 'succeeded' && job.data.kind === 'students' && job.data.schoolId ? (
          <Group>
            <Button component={Link} to={`/school-admin?schoolId=${job.data.schoolId}`} variant="light">
              Open School Rosters
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
