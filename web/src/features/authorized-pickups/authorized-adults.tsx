import { addedByText, type StudentSummary } from '@curbside/domain';
import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MUTED_TEXT } from '../../lib/theme';
import { authorizedPickupQueries } from './authorized-pickups.queries';

/** A one-day delegate's day: "today only", or "only on Mar 5"; nothing for every day. */
const onlyOn = (day: string | null, today: string) =>
  day === null
    ? ''
    : day === today
      ? 'today only'
      : `only on ${new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}`;

/**
 * The adults a child's family allows to collect them, as a vehicle's details
 * show them under the child: name and relationship, a one-day delegate's
 * "today only", the phone to call, and who added them and when (issue 49:
 * a family's own entry and a late one look different). Nothing when the
 * family lists no one.
 */
export function AuthorizedAdults({
  student,
}: {
  student: Pick<StudentSummary, 'id' | 'firstName' | 'lastName'>;
}) {
  const { data } = useQuery(authorizedPickupQueries.student(student.id));
  if (!data?.pickups.length) return null;
  return (
    <Stack
      component="ul"
      gap={4}
      m={0}
      p={0}
      pl="sm"
      aria-label={`Also allowed to pick up ${student.firstName} ${student.lastName}`}
      data-testid="authorized-adults"
      style={{ listStyle: 'none', borderLeft: '3px solid var(--mantine-color-default-border)' }}
    >
      {data.pickups.map((pickup) => (
        <Stack component="li" key={pickup.id} gap={0}>
          <Text fz="md" fw={700} style={{ overflowWrap: 'anywhere' }}>
            {[pickup.name, pickup.relationship, onlyOn(pickup.onDate, data.today)]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          {pickup.phone && (
            <Anchor href={`tel:${pickup.phone}`} fz="md" fw={600} w="fit-content">
              {pickup.phone}
            </Anchor>
          )}
          <Text fz="sm" c={MUTED_TEXT}>
            {addedByText(pickup, data.timeZone)}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
