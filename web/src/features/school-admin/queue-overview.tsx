import {
  childrenLabel,
  elapsedSeconds,
  familyLabel,
  filterOverview,
  formatDuration,
  isOverdue,
  OVERVIEW_STATUS_LABEL,
  type OverviewStatusFilter,
  type OverviewTypeFilter,
  orderQueue,
  overviewCsvRows,
  type QueueEntry,
  stageLabel,
  vehicleLabel,
} from '@curbside/domain';
import { Badge, Button, Card, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { VehicleDialog } from '../queue/vehicle-dialog';
import { toCsvText } from '../rosters/csv-lazy';
import { downloadText } from '../rosters/download';

const TYPE_FILTERS: Array<{ value: OverviewTypeFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'car', label: 'Cars' },
  { value: 'bus', label: 'Buses' },
];
const STATUS_FILTERS: Array<{ value: OverviewStatusFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'waiting', label: 'Waiting' },
  { value: 'batched', label: 'In Batch' },
  { value: 'ready', label: 'Ready' },
  { value: 'overflow', label: 'Overflow' },
];

/**
 * Complete Queue Overview: every vehicle in the queue with its family or
 * route, children, status and wait; Export downloads it as CSV, Filter narrows
 * it by type and status, Details opens the vehicle.
 */
export function QueueOverview({ entries, now }: { entries: readonly QueueEntry[]; now: number }) {
  const [type, setType] = useState<OverviewTypeFilter>('all');
  const [status, setStatus] = useState<OverviewStatusFilter>('all');
  const [openId, setOpenId] = useState<string | null>(null);
  const [showFilters, setShowFilters] = useState(false);
  const ordered = useMemo(() => orderQueue(entries), [entries]);
  const shown = filterOverview(ordered, type, status);
  const filters = Number(type !== 'all') + Number(status !== 'all');
  const open = ordered.find((entry) => entry.id === openId) ?? null;

  const exportCsv = async () => {
    const text = await toCsvText(overviewCsvRows(shown, Date.now()));
    downloadText(`queue-${new Date().toISOString().slice(0, 16).replace(':', '')}.csv`, text);
  };

  return (
    <Card component="section" aria-labelledby="queue-overview" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} id="queue-overview">
            Complete Queue Overview
          </Title>
          <Group gap="xs">
            <Button variant="default" onClick={() => void exportCsv()} disabled={shown.length === 0}>
              Export
            </Button>
            <Button
              variant={showFilters ? 'light' : 'default'}
              aria-expanded={showFilters}
              onClick={() => setShowFilters((shown) => !shown)}
              rightSection={
                filters > 0 ? (
                  <Badge size="sm" circle aria-label={`${filters} active`}>
                    {filters}
                  </Badge>
                ) : null
              }
            >
              Filter
            </Button>
          </Group>
        </Group>
        {showFilters && (
          <Group gap="md" align="flex-end">
            <Stack gap={4}>
              <Text fw={700}>Type</Text>
              <SegmentedControl
                aria-label="Filter by type"
                data={TYPE_FILTERS}
                value={type}
                onChange={(value) => setType(value as OverviewTypeFilter)}
              />
            </Stack>
            <Stack gap={4}>
              <Text fw={700}>Status</Text>
              <SegmentedControl
                aria-label="Filter by status"
                data={STATUS_FILTERS}
                value={status}
                onChange={(value) => setStatus(value as OverviewStatusFilter)}
              />
            </Stack>
            <Button
              variant="subtle"
              disabled={filters === 0}
              onClick={() => {
                setType('all');
                setStatus('all');
              }}
            >
              Clear filters
            </Button>
          </Group>
        )}
        {filters > 0 && (
          <Text c={MUTED_TEXT}>
            Showing {shown.length} of {ordered.length}
          </Text>
        )}
        {shown.length === 0 ? (
          <Text ta="center" py="lg" fz="lg">
            No vehicles in queue
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table striped verticalSpacing="sm" aria-label="Complete Queue Overview">
              <Table.Thead>
                <Table.Tr>
                  {['ID', 'Type', 'Family/Route', 'Children', 'Status', 'Wait Time', 'Actions'].map(
                    (header) => (
                      <Table.Th key={header}>{header}</Table.Th>
                    ),
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td fw={800} fz="lg">
                      {vehicleLabel(entry.vehicleType, entry.vehicleNumber)}
                    </Table.Td>
                    <Table.Td fw={600}>{entry.vehicleType === 'bus' ? 'Bus' : 'Car'}</Table.Td>
                    <Table.Td>{familyLabel(entry)}</Table.Td>
                    <Table.Td>{childrenLabel(entry)}</Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text>{OVERVIEW_STATUS_LABEL[entry.status]}</Text>
                        <Text fz="sm" c={MUTED_TEXT}>
                          {stageLabel(entry)}
                          {entry.batchNumber !== null ? ` #${entry.batchNumber}` : ''}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td c={isOverdue(entry, now) ? DANGER_TEXT : undefined} fw={600}>
                      {formatDuration(elapsedSeconds(entry.queueTime, now))}
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" onClick={() => setOpenId(entry.id)}>
                        Details
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <VehicleDialog
        entry={open}
        total={open ? ordered.filter((entry) => entry.vehicleType === open.vehicleType).length : 0}
        onClose={() => setOpenId(null)}
      />
    </Card>
  );
}
