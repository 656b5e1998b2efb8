import { Card, Container, Stack, Text, Title } from '@mantine/core';

/** Shown by the queue screens while no pickup or dropoff session runs. */
export function NoActiveSession() {
  return (
    <Container size="sm" py="xl">
      <Card>
        <Stack align="center" gap="md" ta="center">
          <Title order={2}>No Active Session</Title>
          <Text fz="lg">
            There is currently no active pickup or dropoff session. Please start a new session using the
            button in the header.
          </Text>
        </Stack>
      </Card>
    </Container>
  );
}
