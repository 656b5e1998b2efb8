import type { routes } from '@curbside/api';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';

interface RotateLinkOptions {
  /** The query that holds the school's current link(s): it takes the new ones. */
  queryKey: QueryKey;
  route: typeof routes.rotateBusLinks | typeof routes.rotateDisplayLink;
  /** The success toast's message. */
  done: string;
}

/**
 * Rotating one of a school's private links (the bus links, the display link): a
 * confirmation first, then the new link(s) in the cache and a toast.
 */
export const useRotateLink = ({ queryKey, route, done }: RotateLinkOptions) => {
  const [confirming, setConfirming] = useState(false);
  const client = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => api(route),
    onSuccess: (fresh) => {
      client.setQueryData(queryKey, fresh);
      setConfirming(false);
      notifications.show({ color: 'green', title: 'Success', message: done });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Error', message: errorMessage(error) }),
  });
  return { confirming, ask: () => setConfirming(true), cancel: () => setConfirming(false), rotate };
};

/** The confirmation of a rotation: what stops working, Cancel, and the rotate button. */
export function RotateLinkConfirm({
  link,
  title,
  action,
  children,
}: {
  link: ReturnType<typeof useRotateLink>;
  title: string;
  action: string;
  children: string;
}) {
  return (
    <Modal opened={link.confirming} onClose={link.cancel} title={title} centered>
      <Stack gap="md">
        <Text>{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={link.cancel}>
            Cancel
          </Button>
          <Button color="red.8" loading={link.rotate.isPending} onClick={() => link.rotate.mutate()}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
