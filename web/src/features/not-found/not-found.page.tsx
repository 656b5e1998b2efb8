import { Button, Card, Center, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** Every path the router does not know, with a way home (the home page sends each role to its screen). */
export function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md">
      <Container size="sm" w="100%" p={0}>
        <Card>
          <Stack align="center" gap="md" ta="center">
            <Title order={1}>404 Page Not Found</Title>
            <Text size="lg">Did you forget to add the page to the router?</Text>
            <Button component={Link} to="/" size="lg">
              Go to the home page
            </Button>
          </Stack>
        </Card>
      </Container>
    </Center>
  );
}
