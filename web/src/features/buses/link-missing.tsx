import { Alert, Container, Stack, Title } from '@mantine/core';

/** A bus page opened without a valid link: one sentence on how to get one, and nothing else. */
export function LinkMissing({ title, text }: { title: string; text: string }) {
  return (
    <Container size="sm" py="xl" px="md" component="main">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        <Alert color="orange" variant="light" role="alert" fz="lg">
          {text}
        </Alert>
      </Stack>
    </Container>
  );
}
