import type { LiveEvent } from '@curbside/api';
import { type Alert, alertOwners, formatClockTime } from '@curbside/domain';
import { Card, Text } from '@mantine/core';
import { useCallback, useState } from 'react';

interface Sent {
  id: number;
  type: Alert['type'];
  acknowledgements: Array<{ name: string; at: string }>;
  /** Who at the school closed it, once dismissed (issue 50). */
  closedBy: { name: string; at: string } | null;
}

/**
 * The driver's last alert and whether the school has seen it: someone's
 * "I'm on it" arrives over the driver link's connection (`ALERT_ACKNOWLEDGED`,
 * the driver's view: names and times only), and its dismissal with who
 * closed it (`ALERT_DISMISSED`, issue 50). `sent` takes the answer of the
 * alert request; `onEvent` takes the page's live messages.
 */
export const useDriverAlertSeen = () => {
  const [last, setLast] = useState<Sent | null>(null);
  const sent = useCallback(
    (alert: Alert) =>
      setLast({
        id: alert.id,
        type: alert.type,
        acknowledgements: (alert.acknowledgements ?? []).map(({ name, at }) => ({ name, at })),
        closedBy: null,
      }),
    [],
  );
  const onEvent = useCallback((event: LiveEvent) => {
    if (event.type === 'ALERT_DISMISSED') {
      const { id, dismissedBy } = event.data;
      if (dismissedBy)
        setLast((current) => (current?.id === id ? { ...current, closedBy: dismissedBy } : current));
      return;
    }
    if (event.type !== 'ALERT_ACKNOWLEDGED') return;
    const { id } = event.data;
    const acknowledgements = event.data.acknowledgements ?? [];
    setLast((current) =>
      current?.id === id && acknowledgements.length > current.acknowledgements.length
        ? { ...current, acknowledgements: acknowledgements.map(({ name, at }) => ({ name, at })) }
        : current,
    );
  }, []);
  return { last, sent, onEvent };
};

/** Under the alert buttons: waiting for the school, then who is on it, then who closed it. */
export function DriverAlertSeen({ last }: { last: Sent | null }) {
  if (!last) return null;
  const kind = last.type === 'emergency' ? 'emergency alert' : 'help request';
  if (last.closedBy) {
    return (
      <Card withBorder p="md" role="status" aria-label="Your alert">
        <Text fw={900} fz="lg">
          The school closed your {kind}
        </Text>
        <Text fw={700} fz="lg">
          {`Closed by ${last.closedBy.name} at ${formatClockTime(last.closedBy.at)}`}
        </Text>
      </Card>
    );
  }
  const owners = alertOwners(last.acknowledgements);
  const first = last.acknowledgements[0];
  return (
    <Card
      withBorder
      p="md"
      role="status"
      aria-label="Your alert"
      bg={owners ? 'green.9' : undefined}
      c={owners ? 'white' : undefined}
    >
      {owners && first ? (
        <>
          <Text fw={900} fz="lg" inherit>
            The school has seen your {kind}
          </Text>
          <Text fw={700} fz="lg" inherit>
            {`${owners} (since ${formatClockTime(first.at)})`}
          </Text>
        </>
      ) : (
        <Text fw={700} fz="lg">
          Your {kind} was sent. Waiting for someone at the school to say they are on it…
        </Text>
      )}
    </Card>
  );
}
