import { type QueueEntry, vehicleLabel, vehicleName } from '@curbside/domain';
import { Portal, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useStudentMarks } from '../queue/releases';
import { useChipDrag } from './drag';

/** Car chips dark blue with white text, bus chips school-bus yellow with black text. */
export const CHIP_LOOK = {
  car: { background: 'var(--mantine-color-blue-9)', color: 'var(--mantine-color-white)' },
  bus: { background: 'var(--mantine-color-yellow-4)', color: 'var(--mantine-color-black)' },
} as const;

const chipStyle = (entry: Pick<QueueEntry, 'vehicleType'>): CSSProperties => ({
  ...CHIP_LOOK[entry.vehicleType],
  minWidth: 76,
  minHeight: 56,
  padding: '6px 14px',
  borderRadius: 'var(--mantine-radius-md)',
  border: '3px solid var(--mantine-color-default-border)',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  userSelect: 'none',
  WebkitUserSelect: 'none',
  WebkitTouchCallout: 'none',
});

/** The count on a chip's corner: green when every child it calls was sent out, else dark. */
const cornerStyle = (all: boolean): CSSProperties => ({
  position: 'absolute',
  top: -8,
  right: -8,
  padding: '1px 7px',
  borderRadius: 999,
  background: all ? 'var(--mantine-color-green-9)' : 'var(--mantine-color-dark-7)',
  color: 'var(--mantine-color-white)',
  fontSize: 14,
  fontWeight: 800,
  pointerEvents: 'none',
});

interface VehicleChipProps {
  entry: QueueEntry;
  /** In a loading batch: can be dragged to 'Back to Queue' or 'Overflow Area'. */
  draggable: boolean;
  onOpen: (entry: QueueEntry) => void;
}

/**
 * A vehicle in a batch: its number (buses with a `B`). A tap or click opens
 * the details; in a loading batch it can be dragged out with a mouse or a finger.
 */
export function VehicleChip({ entry, draggable, onOpen }: VehicleChipProps) {
  const label = vehicleLabel(entry.vehicleType, entry.vehicleNumber);
  const marks = useStudentMarks(entry.sessionId);
  const released = entry.students.filter((student) => marks.get(student.id)?.releasedAt).length;
  const bus = entry.vehicleType === 'bus';
  const drag = useChipDrag(
    { entryId: entry.id, batchId: entry.batchId ?? 0 },
    draggable && entry.batchId !== null,
    () => onOpen(entry),
  );
  return (
    <span style={{ position: 'relative', display: 'inline-flex' }}>
      <UnstyledButton
        {...drag.handlers}
        aria-label={vehicleName(entry.vehicleType, entry.vehicleNumber)}
        data-entry-id={entry.id}
        data-lifted={drag.lifted || undefined}
        style={{
          ...chipStyle(entry),
          cursor: draggable ? 'grab' : 'pointer',
          // A finger on a chip drags it; the page scrolls from anywhere else.
          touchAction: draggable ? 'none' : 'manipulation',
          transform: drag.lifted ? 'scale(1.08)' : undefined,
          boxShadow: drag.lifted ? 'var(--mantine-shadow-lg)' : undefined,
          opacity: drag.ghost ? 0.35 : 1,
          transition: 'transform 120ms ease, opacity 120ms ease',
        }}
      >
        <Text component="span" fz={26} fw={900} lh={1} inherit>
          {label}
        </Text>
      </UnstyledButton>
      {bus && (
        // A bus's riders (issue 52): how many of them a teacher has sent out, of all it calls today.
        <span
          data-riders={entry.students.length}
          data-released={released}
          style={cornerStyle(released === entry.students.length)}
        >
          <VisuallyHidden>Riders released: </VisuallyHidden>
          {`✓${released}/${entry.students.length}`}
        </span>
      )}
      {!bus && released > 0 && (
        // Children a teacher has sent out: a green count on the chip's corner (beside the button,
        // whose name stays its vehicle; the chip's dialog names the children).
        <span data-released={released} style={cornerStyle(true)}>
          <VisuallyHidden>Children released: </VisuallyHidden>
          {`✓${released}`}
        </span>
      )}
      {drag.ghost && (
        <Portal>
          <div
            aria-hidden
            style={{
              ...chipStyle(entry),
              position: 'fixed',
              left: drag.ghost.x,
              top: drag.ghost.y,
              // Above the finger, so the finger does not hide it.
              transform: 'translate(-50%, calc(-100% - 16px)) scale(1.15)',
              boxShadow: 'var(--mantine-shadow-xl)',
              pointerEvents: 'none',
              zIndex: 1000,
              fontSize: 26,
              fontWeight: 900,
            }}
          >
            {label}
          </div>
        </Portal>
      )}
    </span>
  );
}
