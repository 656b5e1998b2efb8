import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { authorizedPickupQueries } from './authorized-pickups.queries';

/** One child's line, or nothing when the family lists no one. */
function AlsoAllowedLine({ studentId }: { studentId: number }) {
  const { data } = useQuery(authorizedPickupQueries.student(studentId));
  if (!data?.text) return null;
  return (
    <Text fz="sm" fw={600} data-testid="also-allowed" style={{ overflowWrap: 'anywhere' }}>
      {data.text}
    </Text>
  );
}

/**
 * "Also allowed: Grandma Rosa; today: Ana Ruiz" under a student or a vehicle's
 * students: the adults their families allow besides the usual driver (one line
 * per child who has any).
 */
export function AlsoAllowed({ studentIds }: { studentIds: readonly number[] }) {
  return studentIds.map((id) => <AlsoAllowedLine key={id} studentId={id} />);
}
