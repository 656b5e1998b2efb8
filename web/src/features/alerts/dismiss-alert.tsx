import type { Alert } from '@curbside/domain';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useDrawnWhenOpened } from '../../lib/drawn-when-opened';
import { useDismissAlert } from './alerts.queries';

/**
 * Asks before an emergency is dismissed (issue 50): a dismissed emergency
 * leaves every staff screen and stops sounding, so a stray tap must not do
 * it. "Keep it" is the safe answer and has the focus.
 */
export function DismissEmergencyDialog({
  alert,
  onKeep,
  onDismiss,
}: {
  alert: Pick<Alert, 'message'> | null;
  onKeep: () => void;
  onDismiss: () => void;
}) {
  // Not drawn with the banner: from the first emergency asked about on (h57v).
  const dialog = useDrawnWhenOpened(alert !== null);
  if (!dialog.draw) return null;
  return (
    <Modal opened={dialog.opened} onClose={onKeep} title="Dismiss this emergency?" centered size="md">
      <Stack gap="md">
        <Text fz="lg" fw={700}>
          {alert?.message}
        </Text>
        <Text fz="md">
          Every screen stops showing and sounding it. Dismiss it only once the emergency is handled.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onKeep} data-autofocus>
            Keep it
          </Button>
          <Button color="red.9" onClick={onDismiss}>
            Dismiss emergency
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Dismiss for the banner's rows: help at once, an emergency once confirmed.
 * `dialog` is rendered by the caller; `pending(id)` says which alert is on its way.
 */
export const useDismissAsking = () => {
  const dismiss = useDismissAlert();
  const [asking, setAsking] = useState<Alert | null>(null);
  return {
    ask: (alert: Alert) => (alert.type === 'emergency' ? setAsking(alert) : dismiss.mutate(alert)),
    pending: (id: number) => dismiss.isPending && dismiss.variables?.id === id,
    dialog: (
      <DismissEmergencyDialog
        alert={asking}
        onKeep={() => setAsking(null)}
        onDismiss={() => {
          if (asking) dismiss.mutate(asking);
          setAsking(null);
        }}
      />
    ),
  };
};
