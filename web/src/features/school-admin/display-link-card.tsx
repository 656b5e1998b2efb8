import { routes } from '@curbside/api';
import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';

const linkKey = ['display-link'] as const;

/**
 * Hallway Display (issue 32): the school's private display link for a TV in
 * the gym or hallway. Open shows it; Rotate link makes a new one (the old
 * link, and the displays open with it, stop at once). Read-only in sandbox mode.
 */
export function DisplayLinkCard({ readOnly = false }: { readOnly?: boolean }) {
  const [confirm, setConfirm] = useState(false);
  const client = useQueryClient();
  const link = useQuery({ queryKey: linkKey, queryFn: () => api(routes.displayLink) });
  const rotate = useMutation({
    mutationFn: () => api(routes.rotateDisplayLink),
    onSuccess: (fresh) => {
      client.setQueryData(linkKey, fresh);
      setConfirm(false);
      notifications.show({
        color: 'green',
        title: 'Success',
        message: 'New display link made. The old one no longer works.',
      });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Error', message: errorMessage(error) }),
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
          <Button
            variant="default"
            color="red"
            disabled={readOnly || !link.data}
            onClick={() => setConfirm(true)}
          >
            Rotate display link
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirm} onClose={() => setConfirm(false)} title="Rotate the display link?" centered>
        <Stack gap="md">
          <Text>
            The display link stops working at once, and displays open with it go blank. Open the new link on
            your TVs afterwards.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(false)}>
              Cancel
            </Button>
            <Button color="red.8" loading={rotate.isPending} onClick={() => rotate.mutate()}>
              Rotate display link
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
