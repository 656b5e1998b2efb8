import { Badge } from '@mantine/core';
import type { SocketStatus } from './bus-socket';

/** The connection badge: Connected, or what it is doing about it (with the retry count). */
export function ConnectionBadge({ status, retries }: { status: SocketStatus; retries: number }) {
  const label =
    status === 'open'
      ? 'Connected'
      : status === 'connecting'
        ? 'Connecting…'
        : `Disconnected (retry ${retries})`;
  return (
    <Badge
      size="lg"
      variant="filled"
      color={status === 'open' ? 'green.9' : status === 'connecting' ? 'blue.8' : 'red.8'}
    >
      {label}
    </Badge>
  );
}
