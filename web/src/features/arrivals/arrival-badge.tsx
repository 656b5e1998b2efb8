import { type ArrivalState, TEACHER_ARRIVAL_LABELS } from '@curbside/domain';
import { Badge } from '@mantine/core';

/** "Parent arriving" / "Parent here" on a teacher's row of the child (issue 53). */
export function ArrivalBadge({ state }: { state: ArrivalState | undefined }) {
  if (!state) return null;
  return (
    <Badge
      size="lg"
      tt="none"
      variant="filled"
      color={state === 'here' ? 'green.9' : 'blue.9'}
      data-arrival={state}
      style={{ flexShrink: 0 }}
    >
      {TEACHER_ARRIVAL_LABELS[state]}
    </Badge>
  );
}
