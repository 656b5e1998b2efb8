import {
  NO_PRIMARY_CONTACT,
  plural,
  type QueueEntry,
  shortName,
  vehicleLabel,
  vehicleName,
} from '@curbside/domain';
import {
  ActionIcon,
  Badge,
  CloseIcon,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { IconTooltip } from '../../components/tooltips';
import { MUTED_TEXT } from '../../lib/theme';
import { useRemoveFromQueue } from '../queue/queue.queries';
import type { DropTarget } from './batches.queries';
import { useDropZone } from './drag';
import { LIST } from './list-style';
import { CHIP_LOOK } from './vehicle-chip';

/** Dashed outline that stays visible outdoors in either scheme. */
const ZONE_LINE = 'light-dark(var(--mantine-color-gray-6), var(--mantine-color-dark-2))';

const ZONE_COLOR: Record<DropTarget, string> = { queue: 'blue', overflow: 'red' };

/** A box that takes dropped chips; it invites while a drag is under way and lights up under the chip. */
function DropZoneBox({ zone, label, children }: { zone: DropTarget; label: string; children: ReactNode }) {
  const drop = useDropZone(zone);
  const color = ZONE_COLOR[zone];
  return (
    <Paper
      {...drop.props}
      component="section"
      aria-label={label}
      data-active={drop.active || undefined}
      radius="lg"
      p="md"
      style={{
        border: `3px ${drop.active ? 'solid' : 'dashed'} ${
          drop.active || drop.inviting ? `var(--mantine-color-${color}-8)` : ZONE_LINE
        }`,
        background: drop.active ? `var(--mantine-color-${color}-light)` : undefined,
        transition: 'background 120ms ease, border-color 120ms ease',
      }}
    >
      {children}
    </Paper>
  );
}

/** 'Back to Queue': a chip dropped here leaves its batch and waits in the queue again. */
export function BackToQueueZone() {
  return (
    <DropZoneBox zone="queue" label="Back to Queue">
      <Stack gap={4} mih={72} justify="center">
        <Title order={3}>Back to Queue</Title>
        <Text fz="md" c={MUTED_TEXT}>
          Drop a vehicle here to take it out of its batch
        </Text>
      </Stack>
    </DropZoneBox>
  );
}

function OverflowRow({ entry, onOpen }: { entry: QueueEntry; onOpen: (entry: QueueEntry) => void }) {
  const dismiss = useRemoveFromQueue();
  const name = vehicleName(entry.vehicleType, entry.vehicleNumber);
  const children = entry.students.map(shortName).join(', ');
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      style={{ borderWidth: 2, borderColor: 'var(--mantine-color-red-8)' }}
    >
      <Group wrap="nowrap" gap="sm">
        <UnstyledButton
          onClick={() => onOpen(entry)}
          aria-haspopup="dialog"
          style={{ flex: 1, minWidth: 0, display: 'flex', alignItems: 'center', gap: 12 }}
        >
          <Text
            component="span"
            fz={24}
            fw={900}
            miw={64}
            ta="center"
            py={4}
            px={8}
            style={{ ...CHIP_LOOK[entry.vehicleType], borderRadius: 'var(--mantine-radius-md)' }}
          >
            <VisuallyHidden>{entry.vehicleType === 'bus' ? 'Bus ' : 'Car '}</VisuallyHidden>
            {vehicleLabel(entry.vehicleType, entry.vehicleNumber)}
          </Text>
          <Stack gap={0} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            <Text fw={700} fz="md">
              {entry.vehicle?.parentName || NO_PRIMARY_CONTACT}
            </Text>
            {children && (
              <Text fz="sm" c={MUTED_TEXT}>
                {children}
              </Text>
            )}
          </Stack>
        </UnstyledButton>
        <IconTooltip label={`Dismiss ${name}`}>
          <ActionIcon
            size={52}
            variant="filled"
            color="red.9"
            radius="md"
            aria-label={`Dismiss ${name}`}
            loading={dismiss.isPending}
            onClick={() => dismiss.mutate(entry)}
          >
            <CloseIcon size="28" />
          </ActionIcon>
        </IconTooltip>
      </Group>
    </Paper>
  );
}

interface OverflowAreaProps {
  entries: QueueEntry[];
  /** Only the drop zone and its count, without the list (while a vehicle-type filter is chosen). */
  compact?: boolean;
  onOpen: (entry: QueueEntry) => void;
}

/**
 * 'Overflow Area': vehicles that are not ready for pickup, each with an X
 * that dismisses it. A chip dropped here goes to overflow.
 */
export function OverflowArea({ entries, compact = false, onOpen }: OverflowAreaProps) {
  return (
    <DropZoneBox zone="overflow" label="Overflow Area">
      <Stack gap="sm" mih={compact ? 72 : undefined} justify="center">
        <Group justify="space-between" gap="xs">
          <Title order={3}>Overflow Area</Title>
          <Badge size="lg" variant="filled" color={entries.length > 0 ? 'red.9' : 'gray.7'}>
            {plural(entries.length, 'vehicle')}
          </Badge>
        </Group>
        {compact ? (
          <Text fz="md" c={MUTED_TEXT}>
            Drop a vehicle here when it is not ready for pickup
          </Text>
        ) : (
          <>
            <Text fz="md" c={MUTED_TEXT}>
              Vehicles moved to overflow (not ready for pickup) - click X to dismiss
            </Text>
            {entries.length === 0 ? (
              <Text fz="lg" fw={600} ta="center" py="sm" c={MUTED_TEXT}>
                No vehicles in overflow area
              </Text>
            ) : (
              <Stack component="ul" gap="xs" aria-label="Vehicles in overflow" style={LIST}>
                {entries.map((entry) => (
                  <li key={entry.id}>
                    <OverflowRow entry={entry} onOpen={onOpen} />
                  </li>
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </DropZoneBox>
  );
}
