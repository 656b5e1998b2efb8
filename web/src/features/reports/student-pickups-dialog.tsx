import { COMPLETED_WITHOUT_RELEASE } from '@curbside/domain/report';
import { Alert, Loader, Modal, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { WayHistory } from '../ways-home/way-history';
import { actorText, timeText } from './format';
import { reportQueries } from './reports.queries';

/** A student's last pickups (from the roster): session, date, vehicle, who released them, when picked up. */
export function StudentPickupsDialog({
  student,
  onClose,
}: {
  student: { id: number; firstName: string; lastName: string };
  onClose: () => void;
}) {
  const pickups = useQuery(reportQueries.studentPickups(student.id));
  const name = `${student.firstName} ${student.lastName}`;
  return (
    <Modal opened onClose={onClose} title={`Pickup history: ${name}`} size="xl">
      {pickups.isPending ? (
        <Loader aria-label="Loading pickups" />
      ) : pickups.isError ? (
        <Alert color="red" title="Failed to load pickups">
          {pickups.error.message}
        </Alert>
      ) : pickups.data.length === 0 ? (
        <Text c={MUTED_TEXT}>No pickups recorded for {name} yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={`Pickups of ${name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Session</Table.Th>
                <Table.Th>Way home</Table.Th>
                <Table.Th>Vehicle #</Table.Th>
                <Table.Th>Released by</Table.Th>
                <Table.Th>Picked up</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pickups.data.map((pickup) => (
                <Table.Tr key={`${pickup.sessionId}-${pickup.entryId}`}>
                  <Table.Td>{pickup.date}</Table.Td>
                  <Table.Td>{pickup.sessionName}</Table.Td>
                  <Table.Td>{pickup.wayHome ?? '—'}</Table.Td>
                  <Table.Td>
                    {pickup.vehicleType === 'bus' ? 'Bus ' : ''}
                    {pickup.vehicleNumber}
                  </Table.Td>
                  <Table.Td>
                    {pickup.completedWithoutRelease ? (
                      <Text span fz="sm" fw={700} c={DANGER_TEXT}>
                        {COMPLETED_WITHOUT_RELEASE}
                      </Text>
                    ) : pickup.releasedAt ? (
                      `${actorText(pickup.releasedBy)} at ${timeText(pickup.releasedAt)}`
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    {timeText(pickup.pickedUpAt)} · {actorText(pickup.completedBy)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <WayHistory studentId={student.id} />
    </Modal>
  );
}
