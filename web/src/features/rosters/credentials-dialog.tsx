import type { OneTimeCredentials } from '@curbside/domain';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** A new account's sign-in, shown once: the admin copies it or hands it over now. */
export function CredentialsDialog({
  who,
  credentials,
  onClose,
  note = 'A new one can be made from Edit.',
}: {
  who: string;
  credentials: OneTimeCredentials | null;
  onClose: () => void;
  /** What to do when it is lost (after "it is not shown again."). */
  note?: string;
}) {
  return (
    <Modal opened={credentials !== null} onClose={onClose} title={`Sign-in for ${who}`} centered size="md">
      {credentials && (
        <Stack gap="md">
          <Alert color="yellow" variant="light" title="Shown once">
            Copy this password or hand it over now: it is not shown again. {note}
          </Alert>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>Username</Text>
            <Code fz="lg" data-testid="credentials-username">
              {credentials.username}
            </Code>
          </Group>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>One-time password</Text>
            <Code fz="lg" data-testid="credentials-password">
              {credentials.password}
            </Code>
          </Group>
          <Group justify="flex-end">
            <CopyButton value={`${credentials.username}\t${credentials.password}`} timeout={2000}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy both'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
