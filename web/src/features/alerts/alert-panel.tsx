import { type Alert, type AlertType, alertButtonLabel, plural } from '@curbside/domain';
import { Badge, Card, Group, Stack, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue, useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { useLivePatches } from '../live/live';
import { activeAlertsPatch } from './alerts.cache';
import classes from './alerts.module.css';
import { alertQueries, useToggleAlert } from './alerts.queries';
import { useDismissAsking } from './dismiss-alert';
import { HOLD_HINT, HoldButton } from './hold-button';

interface AlertButtonProps {
  type: AlertType;
  active: boolean;
  sending: boolean;
  onTrigger: (type: AlertType) => void;
}

/** Press and hold to raise (or, while active, to cancel) an alert: 800 ms for help, 1000 ms for an emergency. */
function AlertButton({ type, active, sending, onTrigger }: AlertButtonProps) {
  return (
    <HoldButton
      type={type}
      label={alertButtonLabel(type, active)}
      hint={sending ? 'Sending...' : active ? 'Hold to cancel' : HOLD_HINT[type]}
      active={active}
      sending={sending}
      onHold={() => onTrigger(type)}
    />
  );
}

/** ▾ / ▴: the folded panel opens and closes (the button says which with aria-expanded). */
const Chevron = ({ up }: { up: boolean }) => (
  <svg
    width="28"
    height="28"
    viewBox="0 0 24 24"
    aria-hidden="true"
    focusable="false"
    style={{ flexShrink: 0 }}
  >
    <path
      d={up ? 'M6 15l6-6 6 6' : 'M6 9l6 6 6-6'}
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

/** The one-line summary of a folded panel: `2 alerts`, and the most urgent alert and where it is. */
function Summary({ alerts }: { alerts: Alert[] }) {
  const urgent = alerts.find((alert) => alert.type === 'emergency') ?? alerts[0];
  const emergency = urgent?.type === 'emergency';
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
      <Badge
        size="lg"
        variant={emergency ? 'white' : 'filled'}
        color={alerts.length > 0 ? 'red.9' : 'gray.7'}
        tt="none"
        style={{ flexShrink: 0 }}
      >
        {plural(alerts.length, 'alert')}
      </Badge>
      {/* The kind never gives way; a long location is cut. */}
      <Text fw={900} fz="md" inherit style={{ flexShrink: 0 }}>
        {urgent ? (emergency ? 'EMERGENCY' : 'Help') : 'None active'}
      </Text>
      {urgent && (
        <Text fw={700} fz="md" inherit truncate>
          {`· ${urgent.location}`}
        </Text>
      )}
    </Group>
  );
}

interface AlertPanelProps {
  /** The running session, or null: an alert does not wait for a dismissal (issue 50). */
  sessionId: number | null;
  /** Where this screen is: the location of the alerts it raises. */
  location: string;
  /** 'Alerts' on the queue screens, 'Alert Center' on the teacher screen. */
  title?: 'Alerts' | 'Alert Center';
  /** Phones: one line with the count, opened with a tap. */
  collapsible?: boolean;
}

/**
 * A car-line screen's alert panel: the count of the active alerts (the
 * session's, or with no session the school's; shown, with who is on each, on
 * the banner at the top of every staff screen, `AlertBanner`) and the Help /
 * Emergency pair that raises alerts for `location`, session or not (issue
 * 50). Holding an active one again dismisses it, an emergency once confirmed.
 * On phones the panel folds to one line with the count.
 *
 * The alerts' answer is drawn in a transition (issue 57, h57a): an answer read through TanStack
 * Query (`useSyncExternalStore`) makes React draw what read it synchronously, in one task; here
 * only this reader is, and the panel (`AlertPanelDrawn`, memoised) follows with the answer
 * deferred (`useDeferredValue`), which React renders in slices. What it shows is the same.
 */
export function AlertPanel(props: AlertPanelProps) {
  const { sessionId } = props;
  const ofSession = useQuery({ ...alertQueries.active(sessionId ?? 0), enabled: sessionId !== null });
  const ofSchool = useQuery({ ...alertQueries.school(), enabled: sessionId === null });
  const query = sessionId === null ? ofSchool : ofSession;
  useLivePatches([activeAlertsPatch]);
  const data = useDeferredValue(query.data);
  const pending = useDeferredValue(query.isPending);
  return <AlertPanelDrawn {...props} data={data} pending={pending} />;
}

interface DrawnProps extends AlertPanelProps {
  /** The alerts' answer (deferred), and whether it is still awaited. */
  data: Alert[] | undefined;
  pending: boolean;
}

/** The panel drawn from its (deferred) answer: the count, the summary and the Help / Emergency pair. */
const AlertPanelDrawn = memo(function AlertPanelDrawn({
  sessionId,
  location,
  title = 'Alerts',
  collapsible = false,
  data,
  pending,
}: DrawnProps) {
  const alerts = (data ?? []).filter((alert) => alert.status === 'active');
  const toggle = useToggleAlert(sessionId, location);
  const dismiss = useDismissAsking();
  const [open, setOpen] = useState(false);
  const emergency = alerts.some((alert) => alert.type === 'emergency');
  const activeOf = (type: AlertType) =>
    alerts.find((alert) => alert.type === type && alert.location === location);
  const trigger = (type: AlertType) => {
    const active = activeOf(type);
    if (active) dismiss.ask(active);
    else toggle.mutate(type);
  };
  const shown = !collapsible || open;
  const name = title === 'Alerts' ? `${title}: ${location}` : title;

  return (
    <Card
      component="section"
      aria-label={name}
      className={classes.panel}
      data-emergency={emergency || undefined}
    >
      <Stack gap="xs">
        {collapsible ? (
          <UnstyledButton
            className={classes.toggle}
            data-emergency={emergency || undefined}
            aria-expanded={open}
            onClick={() => setOpen((value) => !value)}
          >
            <Summary alerts={alerts} />
            <Chevron up={open} />
          </UnstyledButton>
        ) : (
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Title order={2} fz="lg">
                {title}
              </Title>
              <Badge size="lg" color={alerts.length > 0 ? 'red.9' : 'gray.7'}>
                {alerts.length}
                <VisuallyHidden> active</VisuallyHidden>
              </Badge>
            </Group>
            <Text fw={700} fz="sm" c={MUTED_TEXT} ta="right">
              {location}
            </Text>
          </Group>
        )}
        {shown && title === 'Alert Center' && alerts.length === 0 && (
          <Text c={MUTED_TEXT} fz="md">
            {pending ? 'Loading alerts...' : 'No active alerts'}
          </Text>
        )}
        {shown && alerts.length > 0 && (
          <Text fw={700} fz="sm">
            {`${plural(alerts.length, 'active alert')} at the top of the screen`}
          </Text>
        )}
        {shown && (
          <div className={classes.pair}>
            {(['help', 'emergency'] as const).map((type) => {
              const active = activeOf(type);
              return (
                <AlertButton
                  key={type}
                  type={type}
                  active={active !== undefined}
                  sending={
                    (toggle.isPending && toggle.variables === type) ||
                    (active !== undefined && dismiss.pending(active.id))
                  }
                  onTrigger={trigger}
                />
              );
            })}
          </div>
        )}
      </Stack>
      {dismiss.dialog}
    </Card>
  );
});
