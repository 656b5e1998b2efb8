import { plural } from '@curbside/domain';
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { InviteLetter } from './invite-letter';
import classes from './letters.module.css';
import { lettersFor } from './letters-handoff';

/**
 * The invitation letters of the invites just made (handed over in this tab's
 * sessionStorage): one letter per printed page, English and Spanish.
 */
export function InviteLettersPage() {
  const { user, isLoading } = useMe();
  const userId = user?.id;
  const batch = useMemo(() => (userId === undefined ? null : lettersFor(userId)), [userId]);
  // The title a printed page carries in its header (if the browser prints one).
  useEffect(() => {
    const before = document.title;
    document.title = 'Invitation Letters';
    return () => {
      document.title = before;
    };
  }, []);
  if (isLoading) return null;
  if (!batch) {
    return (
      <Container size="sm" py="xl" component="main">
        <Stack>
          <Title order={1}>Invitation Letters</Title>
          <Alert color="blue" title="No letters to print">
            Letters show only in the browser tab where the invites were made, to the person who made them.
            Open Invite Families on the School Administration screen and make the invites again.
          </Alert>
          <Group>
            <Button component={Link} to="/school-admin">
              School Administration
            </Button>
          </Group>
        </Stack>
      </Container>
    );
  }
  const students = new Set(batch.invites.map((invite) => invite.studentId)).size;
  return (
    <main>
      <div className={classes.noPrint}>
        <Container size="md" py="md">
          <Group justify="space-between" align="flex-end">
            <Stack gap={0}>
              <Title order={1}>Invitation Letters</Title>
              <Text c={MUTED_TEXT}>
                {batch.schoolName} · {plural(batch.invites.length, 'letter')} for{' '}
                {plural(students, 'student')} · one letter per page
              </Text>
            </Stack>
            <Group>
              <Button component={Link} to="/school-admin" variant="default">
                Back
              </Button>
              <Button onClick={() => window.print()} disabled={batch.invites.length === 0}>
                Print
              </Button>
            </Group>
          </Group>
        </Container>
      </div>
      <div className={classes.sheets} data-letters={batch.invites.length}>
        {batch.invites.map((invite) => (
          <InviteLetter key={invite.id} invite={invite} schoolName={batch.schoolName} />
        ))}
      </div>
    </main>
  );
}
