import type { OneTimeCredentials } from '@curbside/domain';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** One credential: its label above its value, which wraps rather than being cut (a phone is narrow). */
function Credential({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>{label}</Text>
      <Code
        block
        fz="xl"
        fw={700}
        data-testid={testId}
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', letterSpacing: '0.05em' }}
      >
        {value}
      </Code>
    </Stack>
  );
}

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
          {/* Title and text in the text colour on the pale yellow: the stock yellow title was 1.97:1. */}
          <Alert
            color="yellow"
            variant="light"
            title="Shown once"
            styles={{
              title: { color: 'var(--mantine-color-text)', fontWeight: 800 },
              message: { color: 'var(--mantine-color-text)' },
            }}
          >
            Copy this password or hand it over now: it is not shown again. {note}
          </Alert>
          <Credential label="Username" value={credentials.username} testId="credentials-username" />
          <Credential label="One-time password" value={credentials.password} testId="credentials-password" />
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
