import { Badge } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLiveConnection, useLiveStatus } from '../live/live';
import { LIVE } from '../live/live-connection';
import { keepLastKnown } from './last-known';
import { connectionLook } from './outbox';
import { queueKeys } from './queue.cache';
import { useNow } from './use-now';
import { useOnline, useOutbox, useOutboxSender } from './use-outbox';

/** Filled badges, legible in the sun (a light badge's green on pale green failed WCAG AA contrast). */
const TONES = {
  live: { color: 'green.9' },
  busy: { color: 'yellow.4', c: 'black' },
  offline: { color: 'red.9' },
} as const;

/**
 * The header's word on the connection, in the state the screen is in (see
 * `connectionLook`): live, reconnecting, offline with the changes waiting
 * in the outbox, or offline with how old the queue on screen is. It also
 * sends the outbox when the connection is back and keeps the car-line data
 * on the device for a reload without a connection.
 */
export function ConnectionStatus() {
  useOutboxSender();
  const queryClient = useQueryClient();
  useEffect(() => keepLastKnown(queryClient), [queryClient]);
  const online = useOnline();
  const { items } = useOutbox();
  const { state, retries } = useLiveStatus();
  const connection = useLiveConnection();
  const now = useNow(15_000);
  const look = connectionLook({
    online,
    live: state,
    retries,
    gaveUp: state === 'closed' && retries >= LIVE.maxAttempts,
    waiting: items.length,
    // The newest queue data on screen (read again with each render: every 15 s at least).
    updatedAt: Math.max(
      0,
      ...queryClient
        .getQueryCache()
        .findAll({ queryKey: queueKeys.all })
        .map((query) => query.state.dataUpdatedAt),
    ),
    now,
  });
  if (!look) return null;
  const retry = look.retry
    ? { component: 'button' as const, style: { cursor: 'pointer' }, onClick: () => connection.retryNow() }
    : {};
  return (
    <Badge {...retry} {...TONES[look.tone]} variant="filled" size="lg" role="status">
      {look.text}
    </Badge>
  );
}
