import { routes } from '@curbside/api';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { schoolLinkQueries } from './links.queries';
import { RotateLinkConfirm, useRotateLink } from './rotate-link';

/**
 * Hallway Display (issue 32): the school's private display link for a TV in
 * the gym or hallway. Open shows it; Rotate link makes a new one (the old
 * link, and the displays open with it, stop at once). Read-only in sandbox mode.
 */
export function DisplayLinkCard({ readOnly = false }: { readOnly?: boolean }) {
  const link = useQuery(schoolLinkQueries.display());
  const rotation = useRotateLink({
    queryKey: schoolLinkQueries.display().queryKey,
    route: routes.rotateDisplayLink,
    done: 'New display link made. The old one no longer works.',
  });
  return (
    <Card component="section" aria-labelledby="hallway-display" p="lg">
      <Stack gap="sm">
        <Title order={2} id="hallway-display">
          Hallway Display
        </Title>
        <Text c={MUTED_TEXT}>
          Open this link on a TV in the gym or hallway: it shows the students whose car has been called. Share
          it only with your staff.
        </Text>
        {link.isError && (
          <Alert color="red" variant="light">
            {errorMessage(link.error)}
          </Alert>
        )}
        {link.data && (
          <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} aria-label="Display link">
            {link.data.url}
          </Text>
        )}
        <Group>
          <Button component="a" href={link.data?.url} target="_blank" rel="noopener" disabled={!link.data}>
            Open Display
          </Button>
          <Button variant="default" color="red" disabled={readOnly || !link.data} onClick={rotation.ask}>
            Rotate display link
          </Button>
        </Group>
      </Stack>
      <RotateLinkConfirm link={rotation} title="Rotate the display link?" action="Rotate display link">
        The display link stops working at once, and displays open with it go blank. Open the new link on your
        TVs afterwards.
      </RotateLinkConfirm>
    </Card>
  );
}
