import {
  elapsedSeconds,
  formatClockTime,
  formatDuration,
  NO_PRIMARY_CONTACT,
  NO_SECONDARY_CONTACT,
  NO_VEHICLE_DETAILS,
  ordinal,
  positionLabel,
  type QueueEntry,
  type StudentSummary,
  vehicleDescription,
  vehicleName,
} from '@curbside/domain';
import { Anchor, Button, Divider, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useRef } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { AuthorizedAdults } from '../authorized-pickups/authorized-adults';
import { useSetQueueStatus } from './queue.queries';
import { useNow } from './use-now';
import { EntryBadges } from './vehicle-card';

/** A labelled value of a details dialog. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text fz="sm" fw={700} c={MUTED_TEXT} tt="uppercase">
        {label}
      </Text>
      <Text fz="lg" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** A titled part of a details dialog. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} fz="lg">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** A child of a vehicle's details: name, grade, and the adults the family also allows (issue 50). */
export function ChildRow({
  child,
}: {
  child: Pick<StudentSummary, 'id' | 'firstName' | 'lastName' | 'grade'>;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text fz="lg" fw={700}>
          {child.firstName} {child.lastName}
        </Text>
        <Text fz="md" c={MUTED_TEXT}>
          Grade {child.grade}
        </Text>
      </Group>
      <AuthorizedAdults student={child} />
    </Stack>
  );
}

/** A phone number as a call link. */
export const Phone = ({ number }: { number: string | null | undefined }) =>
  number ? (
    <Anchor href={`tel:${number}`} fz="lg" fw={600} display="block">
      {number}
    </Anchor>
  ) : null;

interface VehicleDialogProps {
  entry: (QueueEntry & { position: number | null }) | null;
  /** Vehicles of the entry's type in the queue. */
  total: number;
  onClose: () => void;
  /** Offers Complete Pickup (the queue screens); the teacher screen only shows details. */
  completable?: boolean;
  /** More actions above Complete Pickup (a batch chip's Move to Overflow and Back to Queue). */
  actions?: ReactNode;
}

/**
 * Details of a queued vehicle: contacts, children, pickup; clicking anywhere
 * closes it. Compact enough to fit a 768 px high tablet without scrolling.
 */
export function VehicleDialog({
  entry: open,
  total,
  onClose,
  completable = true,
  actions,
}: VehicleDialogProps) {
  const now = useNow(1000);
  const complete = useSetQueueStatus();
  // Keep showing the last vehicle while the dialog fades out.
  const last = useRef(open);
  if (open) last.current = open;
  const entry = open ?? last.current;
  const vehicle = entry?.vehicle ?? null;
  return (
    <Modal.Root opened={open !== null} onClose={onClose} size="lg" centered yOffset="2dvh">
      <Modal.Overlay />
      <Modal.Content onClick={onClose} radius="lg" style={{ cursor: 'pointer' }}>
        {entry && (
          <>
            <Modal.Header>
              <Group gap="sm" wrap="wrap">
                <Modal.Title component="h2" fz={28} fw={800}>
                  {vehicleName(entry.vehicleType, entry.vehicleNumber)}
                </Modal.Title>
                <EntryBadges entry={entry} />
              </Group>
              <Modal.CloseButton size="xl" aria-label="Close" />
            </Modal.Header>
            <Modal.Body>
              <Stack gap="sm">
                <Section title="Contact Information">
                  <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="xs">
                    <Field label="Primary contact">
                      {vehicle?.parentName || NO_PRIMARY_CONTACT}
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
                <Divider />
                <Section title="Children">
                  {entry.students.length === 0 ? (
                    <Text fz="lg">No children linked to this vehicle</Text>
                  ) : (
                    <Stack gap={6}>
                      {entry.students.map((student) => (
                        <ChildRow key={student.id} child={student} />
                      ))}
                    </Stack>
                  )}
                </Section>
                <Divider />
                <Section title="Pickup Information">
                  <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="xs">
                    <Field label="Position">
                      {entry.position !== null ? positionLabel(entry.position, total, ordinal) : '—'}
                    </Field>
                    <Field label="Batch">
                      {entry.batchId !== null ? `Batch #${entry.batchNumber}` : 'Not in a batch'}
                    </Field>
                    <Field label="Queued at">{formatClockTime(entry.queueTime)}</Field>
                    <Field label="Waiting">{formatDuration(elapsedSeconds(entry.queueTime, now))}</Field>
                  </SimpleGrid>
                </Section>
                {/* Kept in view at the bottom while the details scroll on small screens. */}
                <Stack
                  gap={6}
                  pos="sticky"
                  bottom={0}
                  pt="xs"
                  pb="md"
                  mb="calc(var(--mantine-spacing-md) * -1)"
                  bg="var(--mantine-color-body)"
                  style={{ zIndex: 1 }}
                >
                  {actions}
                  {/* A pickup already completed (a vehicle of a completed batch) cannot be completed again. */}
                  {completable && entry.status !== 'completed' && (
                    <Button
                      size="xl"
                      color="green.9"
                      fullWidth
                      loading={complete.isPending}
                      onClick={() => complete.mutate({ entry, status: 'completed' })}
                    >
                      Complete Pickup
                    </Button>
                  )}
                  <Text ta="center" c={MUTED_TEXT} fz="sm">
                    Click anywhere to close
                  </Text>
                </Stack>
              </Stack>
            </Modal.Body>
          </>
        )}
      </Modal.Content>
    </Modal.Root>
  );
}
