import { Badge, Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { waitingText } from './outbox';
import { queueKeys } from './queue.cache';
import { theOutbox, useOnline, useOutbox, useOutboxSender } from './use-outbox';

/** "last updated 2 min ago" from the newest queue data this screen holds. */
export const updatedAgo = (updatedAt: number, now: number): string => {
  if (updatedAt === 0) return 'no data yet';
  const minutes = Math.floor((now - updatedAt) / 60_000);
  return minutes < 1 ? 'last updated just now' : `last updated ${minutes} min ago`;
};

const useNow = (everyMs: number) => {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
};

/**
 * The header's word on the connection as the staff need it at the curb:
 * "Offline — 3 changes waiting", "Offline — last updated 2 min ago",
 * "Sending — 1 change waiting" once back; and each change the server refused
 * while it waited (a car queued on another tablet meanwhile), on its vehicle.
 */
export function ConnectionStatus() {
  useOutboxSender();
  const online = useOnline();
  const { items, refusals } = useOutbox();
  const queryClient = useQueryClient();
  const now = useNow(15_000);
  const updatedAt = Math.max(
    0,
    ...queryClient
      .getQueryCache()
      .findAll({ queryKey: queueKeys.all })
      .map((query) => query.state.dataUpdatedAt),
  );
  const waiting = waitingText(online, items.length);
  const text = waiting ?? (online ? null : `Offline — ${updatedAgo(updatedAt, now)}`);
  return (
    <>
      {text && (
        <Badge color={online ? 'yellow' : 'red'} variant="light" size="lg" role="status">
          {text}
        </Badge>
      )}
      {refusals.map((refusal) => (
        <Button key={refusal.key} color="red" role="alert" onClick={() => theOutbox().dismiss(refusal.key)}>
          {refusal.vehicle}: {refusal.message} ✕
        </Button>
      ))}
    </>
  );
}
