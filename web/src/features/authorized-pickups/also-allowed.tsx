import { childLabels, type StudentSummary } from '@curbside/domain';
import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { authorizedPickupQueries } from './authorized-pickups.queries';

type Child = Pick<StudentSummary, 'id' | 'firstName' | 'lastName'>;

/** One child's line, or nothing when the family lists no one; `label` names the child among others. */
function AlsoAllowedLine({ studentId, label }: { studentId: number; label: string | null }) {
  const { data } = useQuery(authorizedPickupQueries.student(studentId));
  if (!data?.text) return null;
  return (
    <Text fz="sm" fw={600} data-testid="also-allowed" style={{ overflowWrap: 'anywhere' }}>
      {label ? `${label}: ${data.text}` : data.text}
    </Text>
  );
}

/**
 * "Also allowed: Grandma Rosa; today: Ana Ruiz" under a student or a vehicle's
 * students: the adults their families allow besides the usual driver (one line
 * per child who has any). Under a vehicle with several children each line
 * says whose it is ("Ava: Also allowed: …"; the full name where two share a
 * first name, issue 50).
 */
export function AlsoAllowed({ students }: { students: readonly Child[] }) {
  const labels = students.length > 1 ? childLabels(students) : null;
  return students.map((student) => (
    <AlsoAllowedLine key={student.id} studentId={student.id} label={labels?.get(student.id) ?? null} />
  ));
}
