import { Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { authorizedPickupQueries } from './authorized-pickups.queries';

/**
 * "Also allowed: Grandma Rosa; today: Ana Ruiz" under a student or a vehicle's
 * students: the adults their families allow besides the usual driver (one line
 * per child who has any; nothing when no one is listed).
 */
export function AlsoAllowed({ studentIds }: { studentIds: readonly number[] }) {
  const lines = useQueries({
    queries: studentIds.map((id) => authorizedPickupQueries.student(id)),
    combine: (results) => results.map((result) => result.data?.text ?? null),
  });
  return lines.map((line, i) =>
    line ? (
      <Text
        key={studentIds[i]}
        fz="sm"
        fw={600}
        data-testid="also-allowed"
        style={{ overflowWrap: 'anywhere' }}
      >
        {line}
      </Text>
    ) : null,
  );
}
