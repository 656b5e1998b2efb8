import { Card, Center, Container, Stack, Text, Title } from '@mantine/core';

/** Every path the router does not know. */
export function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md">
      <Container size="sm" w="100%" p={0}>
        <Card>
          <Stack align="center" gap="md" ta="center">
            <Title order={1}>404 Page Not Found</Title>
            <Text size="lg">Did you forget to add the page to the router?</Text>
          </Stack>
        </Card>
      </Container>
    </Center>
  );
}
