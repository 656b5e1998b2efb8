import type { User } from '@curbside/domain';
import { Card, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export const NO_SESSION_HINT =
  'There is currently no active pickup or dropoff session. Please start a new session using the button in the header.';

/**
 * For accounts above a single school (district and super admins): their
 * header has no Start Session, so they are not sent to look for one.
 */
export const NO_SESSION_ABOVE_SCHOOL =
  "There is currently no active pickup or dropoff session. Sessions are started by a school's own staff; your account is not tied to one school, so it has no session to show here.";

/** Whether the header offers this user a session button (New Session needs a school: header.tsx). */
export const startsSessions = (user: Pick<User, 'schoolId'>) => user.schoolId !== null;

/**
 * Shown by the queue screens while no pickup or dropoff session runs, with
 * what the screen keeps under it (`children`: the Help / Emergency pair, as
 * an emergency does not wait for a dismissal, issue 50).
 */
export function NoActiveSession({ user, children }: { user: Pick<User, 'schoolId'>; children?: ReactNode }) {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Card>
          <Stack align="center" gap="md" ta="center">
            <Title order={2}>No Active Session</Title>
            <Text fz="lg">{startsSessions(user) ? NO_SESSION_HINT : NO_SESSION_ABOVE_SCHOOL}</Text>
          </Stack>
        </Card>
        {children}
      </Stack>
    </Container>
  );
}
