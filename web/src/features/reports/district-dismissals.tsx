import { Alert, Card, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { waitText } from './format';
import { reportQueries } from './reports.queries';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The district's dismissals per school over a date range (the last 30 days at first), from the record. */
export function DistrictDismissals({ districtId }: { districtId: number }) {
  const [from, setFrom] = useState(() => dayOf(Date.now() - 29 * DAY_MS));
  const [to, setTo] = useState(() => dayOf(Date.now()));
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const rows = useQuery({ ...reportQueries.district(districtId, from, to), enabled: valid });
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="dismissals">
      <Stack gap="md">
        <Title order={2} id="dismissals">
          Dismissals by School
        </Title>
        <Group gap="md" align="flex-end">
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        </Group>
        {!valid ? (
          <Text c="red">Choose a start date on or before the end date.</Text>
        ) : rows.isPending ? (
          <Loader aria-label="Loading dismissals" />
        ) : rows.isError ? (
          <Alert color="red" title="Failed to load the report">
            {rows.error.message}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table striped aria-label="Dismissals by school">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>School</Table.Th>
                  <Table.Th>Sessions</Table.Th>
                  <Table.Th>Vehicles</Table.Th>
                  <Table.Th>Students picked up</Table.Th>
                  <Table.Th>Median wait</Table.Th>
                  <Table.Th>90% waited under</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.data.map((row) => (
                  <Table.Tr key={row.schoolId}>
                    <Table.Td fw={600}>{row.schoolName}</Table.Td>
                    <Table.Td>{row.sessions}</Table.Td>
                    <Table.Td>{row.cars}</Table.Td>
                    <Table.Td>{row.studentsPickedUp}</Table.Td>
                    <Table.Td>{waitText(row.medianWaitSeconds)}</Table.Td>
                    <Table.Td>{waitText(row.p90WaitSeconds)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Text c={MUTED_TEXT} fz="sm">
          From each dismissal's record: sessions that started in these days, their vehicles, and how long cars
          waited from queued to picked up.
        </Text>
      </Stack>
    </Card>
  );
}
