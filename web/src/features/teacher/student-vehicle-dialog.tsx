import {
  NO_PRIMARY_CONTACT,
  NO_SECONDARY_CONTACT,
  NO_VEHICLE_DETAILS,
  orderQueue,
  studentBatchLabel,
  type TeacherStudent,
  vehicleDescription,
  vehicleName,
} from '@curbside/domain';
import { Center, Divider, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { queueQueries } from '../queue/queue.queries';
import { ChildRow, Field, Phone, Section, VehicleDialog } from '../queue/vehicle-dialog';
import { vehicleQueries } from './teacher.queries';

interface StudentVehicleDialogProps {
  /** The running session, whose queue a queued vehicle is shown from; null without one. */
  sessionId: number | null;
  /** The student whose vehicle to show (one with a vehicle or bus), or null. */
  student: TeacherStudent | null;
  /** Every student of the school, to name the vehicle's children. */
  students: readonly TeacherStudent[];
  onClose: () => void;
}

/**
 * The vehicle details of a student: the queue's vehicle dialog for a vehicle
 * in the queue (without Complete Pickup: pickups are completed at the curb,
 * not from a classroom); for one not in the queue, its registered contacts
 * and children.
 */
export function StudentVehicleDialog({ sessionId, student, students, onClose }: StudentVehicleDialogProps) {
  const queue = useQuery({ ...queueQueries.active(sessionId ?? 0), enabled: sessionId !== null });
  const { entry, total } = useMemo(() => {
    if (!student?.entryId) return { entry: null, total: 0 };
    const ordered = orderQueue((queue.data ?? []).filter((item) => item.status !== 'completed'));
    const found = ordered.find((item) => item.id === student.entryId) ?? null;
    return {
      entry: found,
      total: found ? ordered.filter((item) => item.vehicleType === found.vehicleType).length : 0,
    };
  }, [queue.data, student]);

  return (
    <>
      <VehicleDialog entry={entry} total={total} onClose={onClose} completable={false} />
      <RegisteredVehicleDialog
        // A queued vehicle waits for the queue rather than flashing its registered details.
        student={entry || (student?.entryId && queue.isPending) ? null : student}
        students={students}
        onClose={onClose}
      />
    </>
  );
}

/** A registered vehicle that is not in the queue: contacts, children and the student's pickup state. */
function RegisteredVehicleDialog({
  student: open,
  students,
  onClose,
}: {
  student: TeacherStudent | null;
  students: readonly TeacherStudent[];
  onClose: () => void;
}) {
  const last = useRef(open);
  if (open) last.current = open;
  const student = open ?? last.current;
  const ride = student?.vehicle ?? null;
  const vehicles = useQuery({
    ...vehicleQueries.byNumber(ride?.type ?? 'car', ride?.number ?? ''),
    enabled: open !== null && ride !== null,
  });
  const vehicle = vehicles.data ?? null;
  const children = vehicle
    ? students.filter((item) => vehicle.studentIds.includes(item.id))
    : student
      ? [student]
      : [];

  return (
    <Modal.Root opened={open !== null} onClose={onClose} size="lg" centered>
      <Modal.Overlay />
      <Modal.Content onClick={onClose} radius="lg" style={{ cursor: 'pointer' }}>
        {student && ride && (
          <>
            <Modal.Header>
              <Modal.Title component="h2" fz={28} fw={800}>
                {vehicleName(ride.type, ride.number)}
              </Modal.Title>
              <Modal.CloseButton size="xl" aria-label="Close" />
            </Modal.Header>
            <Modal.Body>
              <Stack gap="md">
                {vehicles.isPending ? (
                  <Center py="md">
                    <Loader aria-label="Loading vehicle" />
                  </Center>
                ) : (
                  <Section title="Contact Information">
                    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="xs">
                      <Field label="Primary contact">
                        {vehicle?.parentName || ride.parentName || NO_PRIMARY_CONTACT}
                        <Phone number={vehicle?.parentPhone} />
                      </Field>
                      <Field label="Secondary contact">
                        {vehicle?.alternateContactName || NO_SECONDARY_CONTACT}
                        <Phone number={vehicle?.alternateContactPhone} />
                      </Field>
                      <Field label="Vehicle">{vehicleDescription(vehicle) ?? NO_VEHICLE_DETAILS}</Field>
                      {vehicle?.licensePlate && <Field label="License plate">{vehicle.licensePlate}</Field>}
                    </SimpleGrid>
                  </Section>
                )}
                <Divider />
                <Section title="Children">
                  <Stack gap={6}>
                    {children.map((child) => (
                      <ChildRow key={child.id} child={child} />
                    ))}
                  </Stack>
                </Section>
                <Divider />
                <Section title="Pickup Information">
                  <Field label="Status">{studentBatchLabel(student)}</Field>
                </Section>
                <Text ta="center" c={MUTED_TEXT} fz="sm" pb="xs">
                  Click anywhere to close
                </Text>
              </Stack>
            </Modal.Body>
          </>
        )}
      </Modal.Content>
    </Modal.Root>
  );
}
