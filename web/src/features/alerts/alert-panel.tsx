import {
  type Alert,
  type AlertType,
  alertButtonLabel,
  formatClockTime,
  LONG_PRESS_MS,
} from '@curbside/domain';
import {
  Badge,
  Box,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MUTED_TEXT } from '../queue/colors';
import { usePress } from '../queue/use-press';
import { alertQueries, useDismissAlert, useToggleAlert } from './alerts.queries';
import { useAlertAnnouncements } from './use-alert-announcements';

/** Outlined while idle (text and border readable on either scheme), filled while active. */
const LOOK: Record<AlertType, { line: string; fill: string; hint: string }> = {
  help: {
    line: 'light-dark(var(--mantine-color-orange-9), var(--mantine-color-orange-4))',
    fill: 'var(--mantine-color-orange-9)',
    hint: 'Hold to request help',
  },
  emergency: {
    line: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))',
    fill: 'var(--mantine-color-red-9)',
    hint: 'Hold to call an emergency',
  },
};

interface AlertButtonProps {
  type: AlertType;
  active: boolean;
  sending: boolean;
  onTrigger: (type: AlertType) => void;
}

/**
 * Press and hold to raise (or, while active, to cancel) an alert: 800 ms for
 * help, 1000 ms for an emergency. A bar fills while the press lasts.
 */
function AlertButton({ type, active, sending, onTrigger }: AlertButtonProps) {
  const delay = LONG_PRESS_MS[type];
  const press = usePress({ delay, onLongPress: () => onTrigger(type), keyboard: true, disabled: sending });
  const { line, fill, hint } = LOOK[type];
  return (
    <UnstyledButton
      {...press.handlers}
      aria-pressed={active}
      aria-busy={sending || undefined}
      data-pressing={press.pressing || undefined}
      pos="relative"
      mih={92}
      px="xs"
      py="sm"
      style={{
        overflow: 'hidden',
        borderRadius: 'var(--mantine-radius-lg)',
        border: `3px solid ${active ? fill : line}`,
        background: active ? fill : 'var(--mantine-color-body)',
        color: active ? 'var(--mantine-color-white)' : line,
        userSelect: 'none',
        WebkitUserSelect: 'none',
        WebkitTouchCallout: 'none',
        touchAction: 'manipulation',
        textAlign: 'center',
        opacity: sending ? 0.7 : 1,
      }}
    >
      <Text component="span" display="block" fz={{ base: 20, sm: 26 }} fw={900} lh={1.15} inherit>
        {alertButtonLabel(type, active)}
      </Text>
      <Text component="span" display="block" fz="sm" fw={600} inherit>
        {sending ? 'Sending...' : active ? 'Hold to cancel' : hint}
      </Text>
      <Box
        aria-hidden
        pos="absolute"
        left={0}
        bottom={0}
        h={10}
        w="100%"
        style={{
          background: active ? 'var(--mantine-color-white)' : line,
          transformOrigin: 'left',
          transform: `scaleX(${press.pressing ? 1 : 0})`,
          transition: press.pressing ? `transform ${delay}ms linear` : 'none',
        }}
      />
    </UnstyledButton>
  );
}

function AlertRow({ alert }: { alert: Alert }) {
  const dismiss = useDismissAlert();
  const emergency = alert.type === 'emergency';
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      bg={emergency ? 'var(--mantine-color-red-light)' : 'var(--mantine-color-orange-light)'}
      style={{
        borderColor: emergency ? 'var(--mantine-color-red-8)' : 'var(--mantine-color-orange-8)',
        borderWidth: 2,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Badge color={emergency ? 'red.9' : 'orange.9'} size="lg">
              {emergency ? 'Emergency' : 'Help'}
            </Badge>
            <Text fz="sm" fw={600} c={MUTED_TEXT}>
              {alert.location} · {formatClockTime(alert.createdAt)}
            </Text>
          </Group>
          <Text fw={700} fz="md">
            {alert.message}
          </Text>
        </Stack>
        <Button
          variant="filled"
          color="dark"
          loading={dismiss.isPending}
          style={{ flexShrink: 0 }}
          onClick={() => dismiss.mutate(alert)}
          aria-label={`Dismiss: ${alert.message}`}
        >
          Dismiss
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * The alert panel of a screen: the Help / Emergency pair for `location` and
 * every active alert of the session, each with a dismiss action.
 */
export function AlertPanel({ sessionId, location }: { sessionId: number; location: string }) {
  const query = useQuery(alertQueries.active(sessionId));
  const alerts = query.data ?? [];
  useAlertAnnouncements(sessionId, query.data);
  const toggle = useToggleAlert(sessionId, location);
  const isActive = (type: AlertType) =>
    alerts.some((alert) => alert.type === type && alert.location === location && alert.status === 'active');

  return (
    <Card p={{ base: 'sm', sm: 'md' }} aria-label={`Alerts: ${location}`} component="section">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={800} fz="lg">
            Alerts
          </Text>
          <Text fw={600} fz="sm" c={MUTED_TEXT}>
            {location}
          </Text>
        </Group>
        <SimpleGrid cols={2} spacing="sm">
          {(['help', 'emergency'] as const).map((type) => (
            <AlertButton
              key={type}
              type={type}
              active={isActive(type)}
              sending={toggle.isPending && toggle.variables === type}
              onTrigger={(chosen) => toggle.mutate(chosen)}
            />
          ))}
        </SimpleGrid>
        {alerts.length > 0 && (
          <Stack gap="xs" aria-label="Active alerts">
            {alerts.map((alert) => (
              <AlertRow key={alert.id} alert={alert} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
