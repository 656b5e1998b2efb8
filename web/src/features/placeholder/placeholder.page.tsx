import { Card, Container, Stack, Text, Title } from '@mantine/core';

/** A screen whose own issue has not landed yet: its heading and a short note. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Container size="md" py="xl" px={{ base: 'xs', sm: 'md' }}>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="sm">
          <Title order={1}>{title}</Title>
          <Text fz="lg" c="dimmed">
            This screen is on its way.
          </Text>
        </Stack>
      </Card>
    </Container>
  );
}
