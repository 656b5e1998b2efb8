import {
  actorName,
  type ChangeSnapshot,
  type WayEvent,
  type WayOptions,
  wayText,
  weeklyPlanText,
} from '@curbside/domain';
import { Alert, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { changeDaysLabel } from './days-text';
import { waysHomeQueries } from './ways-home.queries';

const NO_OPTIONS: WayOptions = { buses: [], programs: [] };

const KIND: Record<WayEvent['kind'], string> = {
  plan_set: 'Weekly plan set',
  change_requested: 'Change entered',
  change_approved: 'Change approved',
  change_denied: 'Change denied',
  change_cancelled: 'Change cancelled',
  student_erased: 'Student data erased',
  program_checked_in: 'Checked in at program',
  program_check_in_undone: 'Program check-in taken back',
};

const changeText = (change: ChangeSnapshot, options: WayOptions) =>
  `${wayText(change.way, options)}, ${changeDaysLabel(change, null)} (${change.status})`;

const whatOf = (event: WayEvent, options: WayOptions) => {
  if (event.plan) {
    const before = event.plan.before ? weeklyPlanText(event.plan.before, options) : 'Car rider (no plan)';
    return `${before} → ${weeklyPlanText(event.plan.after, options)}`;
  }
  if (event.checkIn) return `${event.checkIn.programName}, ${event.checkIn.date}`;
  if (!event.change) return '—';
  const after = changeText(event.change.after, options);
  const reason = event.change.after.reason ? ` — ${event.change.after.reason}` : '';
  return event.change.before ? `${event.change.before.status} → ${after}${reason}` : after;
};

/** A student's way-home record (issue 51): every plan edit, change, decision and cancellation, newest first. */
export function WayHistory({ studentId }: { studentId: number }) {
  const history = useQuery(waysHomeQueries.history(studentId));
  const options = useQuery(waysHomeQueries.options(undefined)).data ?? NO_OPTIONS;
  return (
    <Stack gap="xs" mt="lg" component="section" aria-labelledby={`way-history-${studentId}`}>
      <Title order={3} fz="lg" id={`way-history-${studentId}`}>
        Way home changes
      </Title>
      {history.isPending ? (
        <Loader size="sm" aria-label="Loading the way home changes" />
      ) : history.isError ? (
        <Alert color="red">{errorMessage(history.error)}</Alert>
      ) : history.data.length === 0 ? (
        <Text c={MUTED_TEXT}>No changes: a car rider every day unless the office sets a plan.</Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table striped aria-label="Way home changes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Details</Table.Th>
                <Table.Th>By</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>
                    {new Date(event.at).toLocaleString('en-US', {
                      month: 'short',
                      day: 'numeric',
                      hour: 'numeric',
                      minute: '2-digit',
                    })}
                  </Table.Td>
                  <Table.Td>{KIND[event.kind]}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{whatOf(event, options)}</Table.Td>
                  <Table.Td>{actorName(event.actor)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
