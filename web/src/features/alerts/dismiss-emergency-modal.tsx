import type { Alert } from '@curbside/domain';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * The question before an emergency is dismissed, in Mantine's Modal (h57b: its own chunk,
 * fetched once a screen is painted and idle, or at the first question: `dismiss-alert.tsx`).
 * "Keep it" is the safe answer and has the focus.
 */
export function DismissEmergencyModal({
  opened,
  alert,
  onKeep,
  onDismiss,
}: {
  opened: boolean;
  alert: Pick<Alert, 'message'> | null;
  onKeep: () => void;
  onDismiss: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onKeep} title="Dismiss this emergency?" centered size="md">
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
