import {
  formatClockTime,
  formatDuration,
  type QueueEntry,
  shortName,
  vehicleLabel,
  waitSeconds,
} from '@curbside/domain';
import { Card, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { queueQueries } from './queue.queries';
import classes from './queue-list.module.css';

const newestFirst = (a: QueueEntry, b: QueueEntry) => (b.exitTime ?? '').localeCompare(a.exitTime ?? '');

/**
 * Completed pickups of the session, newest first. The answer is drawn in a transition (issue 57,
 * h57a): only this reader is drawn at once by it (`useSyncExternalStore`); the table
 * (`PickupsDrawn`, memoised) follows with the answer deferred, which React renders in slices.
 */
export function RecentPickups({ sessionId }: { sessionId: number }) {
  const query = useQuery(queueQueries.completed(sessionId));
  const data = useDeferredValue(query.data);
  const pending = useDeferredValue(query.isPending);
  return <PickupsDrawn data={data} pending={pending} />;
}

/** The card drawn from its (deferred) answer. */
const PickupsDrawn = memo(function PickupsDrawn({
  data,
  pending,
}: {
  data: QueueEntry[] | undefined;
  pending: boolean;
}) {
  const rows = [...(data ?? [])].sort(newestFirst);
  return (
    <Card className={classes.queue}>
      <Stack gap="md">
        <Title order={2}>Recent Pickups</Title>
        {pending ? (
          <Loader size="sm" aria-label="Loading recent pickups" />
        ) : rows.length === 0 ? (
          <Text c={MUTED_TEXT} fz="lg">
            No completed pickups yet
          </Text>
        ) : (
          // A phone scrolls the table sideways: the scroller is a named stop for the keyboard too.
          <Table.ScrollContainer
            minWidth={600}
            scrollAreaProps={{
              viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Recent Pickups table' },
            }}
          >
            <Table
              striped
              fz="md"
              verticalSpacing="sm"
              horizontalSpacing="md"
              styles={{ th: { whiteSpace: 'nowrap' } }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Vehicle #</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Family</Table.Th>
                  <Table.Th>Children</Table.Th>
                  <Table.Th>Wait Time</Table.Th>
                  <Table.Th>Completed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((entry) => {
                  const wait = waitSeconds(entry);
                  return (
                    <Table.Tr key={entry.id}>
                      <Table.Td fw={800}>{vehicleLabel(entry.vehicleType, entry.vehicleNumber)}</Table.Td>
                      <Table.Td>{entry.vehicleType === 'bus' ? 'Bus' : 'Car'}</Table.Td>
                      <Table.Td>{entry.vehicle?.parentName || '—'}</Table.Td>
                      <Table.Td>{entry.students.map(shortName).join(', ') || '—'}</Table.Td>
                      <Table.Td>{wait === null ? '—' : formatDuration(wait)}</Table.Td>
                      <Table.Td>{entry.exitTime ? formatClockTime(entry.exitTime) : '—'}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
});
