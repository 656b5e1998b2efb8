import { routes } from '@curbside/api';
import { plural } from '@curbside/domain';
import { Alert, Box, Button, Group, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { MUTED_TEXT } from '../../lib/theme';
import { InviteLetter } from './invite-letter';
import classes from './letters.module.css';
import { type LetterBatch, lettersFor } from './letters-handoff';

/**
 * The invitation letters of the invites just made (handed over in this tab's
 * sessionStorage): one letter per printed page, English and Spanish.
 */
export function InviteLettersPage() {
  // Who is signed in, read once (not through the query hooks: this page's chunk then shares no
  // new split of them with the car-line screens, whose first load has a budget).
  const [batch, setBatch] = useState<LetterBatch | null | undefined>(undefined);
  useEffect(() => {
    api(routes.me).then(
      (user) => setBatch(lettersFor(user.id)),
      () => setBatch(null),
    );
  }, []);
  // The title a printed page carries in its header (if the browser prints one).
  useEffect(() => {
    const before = document.title;
    document.title = 'Invitation Letters';
    return () => {
      document.title = before;
    };
  }, []);
  if (batch === undefined) return null;
  if (!batch) {
    return (
      <Box component="main" maw={720} mx="auto" px="md" py="xl">
        <Box style={{ display: 'flex', flexDirection: 'column', gap: 'var(--mantine-spacing-md)' }}>
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
        </Box>
      </Box>
    );
  }
  const students = new Set(batch.invites.map((invite) => invite.studentId)).size;
  return (
    <main>
      <div className={classes.noPrint}>
        <Box maw={960} mx="auto" px="md" py="md">
          <Group justify="space-between" align="flex-end">
            <Box>
              <Title order={1}>Invitation Letters</Title>
              <Box component="p" m={0} c={MUTED_TEXT}>
                {batch.schoolName} · {plural(batch.invites.length, 'letter')} for{' '}
                {plural(students, 'student')} · one letter per page
              </Box>
            </Box>
            <Group>
              <Button component={Link} to="/school-admin" variant="default">
                Back
              </Button>
              <Button onClick={() => window.print()} disabled={batch.invites.length === 0}>
                Print
              </Button>
            </Group>
          </Group>
        </Box>
      </div>
      <div className={classes.sheets} data-letters={batch.invites.length}>
        {batch.invites.map((invite) => (
          <InviteLetter key={invite.id} invite={invite} schoolName={batch.schoolName} />
        ))}
      </div>
    </main>
  );
}
