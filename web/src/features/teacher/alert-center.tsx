import { formatClockTime } from '@curbside/domain';
import { Badge, Card, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { alertQueries } from '../alerts/alerts.queries';
import { MUTED_TEXT } from '../queue/colors';

/** 'Alert Center': the session's active emergency and help alerts with their count. */
export function AlertCenter({ sessionId }: { sessionId: number }) {
  const query = useQuery(alertQueries.active(sessionId));
  const alerts = (query.data ?? []).filter(
    (alert) => alert.status === 'active' && (alert.type === 'emergency' || alert.type === 'help'),
  );
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Alert Center">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} fz="xl">
            Alert Center
          </Title>
          <Badge size="lg" color={alerts.length > 0 ? 'red.9' : 'gray.7'} aria-label="Active alerts">
            {alerts.length}
          </Badge>
        </Group>
        {query.isPending ? (
          <Text c={MUTED_TEXT} fz="md">
            Loading alerts...
          </Text>
        ) : alerts.length === 0 ? (
          <Text c={MUTED_TEXT} fz="md">
            No active alerts
          </Text>
        ) : (
          alerts.map((alert) => {
            const emergency = alert.type === 'emergency';
            return (
              <Paper
                key={alert.id}
                withBorder
                radius="md"
                p="sm"
                bg={emergency ? 'var(--mantine-color-red-light)' : 'var(--mantine-color-orange-light)'}
                style={{
                  borderWidth: 2,
                  borderColor: emergency ? 'var(--mantine-color-red-8)' : 'var(--mantine-color-orange-8)',
                }}
              >
                <Stack gap={2}>
                  <Group gap="xs">
                    <Badge tt="none" color={emergency ? 'red.9' : 'orange.9'}>
                      {emergency ? 'Emergency' : 'Help'}
                    </Badge>
                    <Text fz="sm" fw={600} c={MUTED_TEXT}>
                      {`${alert.location} · ${formatClockTime(alert.createdAt)}`}
                    </Text>
                  </Group>
                  <Text fw={700} fz="md">
                    {alert.message}
                  </Text>
                </Stack>
              </Paper>
            );
          })
        )}
      </Stack>
    </Card>
  );
}
