import { studentBatchLabel, type TeacherStudent, vehicleName } from '@curbside/domain';
import { Badge, type BadgeProps } from '@mantine/core';

/**
 * The batch status of a student: 'Not in pickup queue' (outline), 'In
 * overflow area' (urgent, red), 'In Batch #n' (the default look while the
 * batch is loading, otherwise secondary), 'Waiting in queue'.
 */
export function BatchStatusBadge({
  student,
  size = 'lg',
}: {
  student: TeacherStudent;
  size?: BadgeProps['size'];
}) {
  const label = studentBatchLabel(student);
  const look: BadgeProps = !student.inQueue
    ? { variant: 'outline', color: 'var(--mantine-color-text)' }
    : student.queueStatus === 'overflow'
      ? { variant: 'filled', color: 'red.9' }
      : student.batchNumber !== null
        ? student.batchStatus === 'loading'
          ? { variant: 'filled', color: 'blue.9' }
          : { variant: 'filled', color: 'gray.3', c: 'black' }
        : { variant: 'filled', color: 'yellow.4' };
  return (
    <Badge
      size={size}
      tt="none"
      {...look}
      data-status={student.queueStatus ?? 'none'}
      style={{ flexShrink: 0 }}
    >
      {label}
    </Badge>
  );
}

/** 'Car 101', 'Bus B3', or nothing for a student without a vehicle. */
export const rideOf = (student: Pick<TeacherStudent, 'vehicle'>) =>
  student.vehicle ? vehicleName(student.vehicle.type, student.vehicle.number) : null;
