import { Badge, Card, Center, Container, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { healthQueries } from '../health/health.queries';

/** Placeholder home until the login screen takes over `/`. */
export function HomePage() {
  const health = useQuery(healthQueries.status());
  return (
    <Center mih="100dvh" p="md">
      <Container size="sm" w="100%" p={0}>
        <Card>
          <Stack align="center" gap="md" ta="center">
            <Title order={1}>Curbside</Title>
            <Text size="lg">Sign-in arrives soon.</Text>
            {health.isSuccess && (
              <Badge color="green" size="lg">
                Server online
              </Badge>
            )}
            {health.isError && (
              <Badge color="red" size="lg">
                Server unreachable
              </Badge>
            )}
          </Stack>
        </Card>
      </Container>
    </Center>
  );
}
