import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

interface Ask {
  /** What is switched: a school's or a district's name. */
  name: string;
  /** Whether it is a whole district (all its schools). */
  district: boolean;
  sandbox: boolean;
  apply: () => void;
}

/**
 * Sandbox and live switches ask first (issue 32), saying what the switch does
 * to a running dismissal: sandbox mode makes the school read-only at once,
 * so a dismissal under way can no longer queue, batch or release.
 */
export const useConfirmMode = (): { ask: (request: Ask) => void; modal: ReactNode } => {
  const [asked, setAsked] = useState<Ask | null>(null);
  const what = asked?.district ? `every school of ${asked.name}` : (asked?.name ?? '');
  const modal = (
    <Modal
      opened={asked !== null}
      onClose={() => setAsked(null)}
      title={
        asked?.sandbox ? `Switch ${asked.name} to sandbox mode?` : `Switch ${asked?.name ?? ''} to live?`
      }
      centered
    >
      <Stack gap="md">
        <Text>
          {asked?.sandbox
            ? `${what} becomes read-only at once on every screen: a dismissal running now can no longer queue cars, make batches or release students until it is switched back to live.`
            : `${what} can be changed again at once: screens leave read-only mode, and a dismissal can be run and recorded as usual.`}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsked(null)}>
            Cancel
          </Button>
          <Button
            color={asked?.sandbox ? 'orange.9' : 'blue'}
            onClick={() => {
              asked?.apply();
              setAsked(null);
            }}
          >
            {asked?.sandbox ? 'Switch to sandbox' : 'Switch to live'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return { ask: setAsked, modal };
};
