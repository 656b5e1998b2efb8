import type { PickupSession } from '@curbside/domain';
import { countdownSeconds, formatDuration } from '@curbside/domain';
import { Box, Button, Menu, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useEndSession } from '../sessions/sessions.mutations';
import { sessionQueries } from '../sessions/sessions.queries';
import classes from './header.module.css';

/** Seconds until the session ends, recomputed every second. */
const useCountdown = (endTime: string) => {
  const [seconds, setSeconds] = useState(() => countdownSeconds(endTime));
  useEffect(() => {
    setSeconds(countdownSeconds(endTime));
    const timer = setInterval(() => setSeconds(countdownSeconds(endTime)), 1000);
    return () => clearInterval(timer);
  }, [endTime]);
  return seconds;
};

/**
 * The running session: its name and the time left, ticking every second.
 * A tap opens a small menu with End Session. When the time runs out the
 * active session is asked for again (the server no longer reports it).
 */
export function SessionPill({ session }: { session: PickupSession }) {
  const seconds = useCountdown(session.endTime);
  const queryClient = useQueryClient();
  const end = useEndSession();
  const countdown = formatDuration(seconds);

  useEffect(() => {
    if (seconds > 0) return;
    const timer = setTimeout(() => queryClient.invalidateQueries({ queryKey: sessionQueries.all }), 2000);
    return () => clearTimeout(timer);
  }, [seconds, queryClient]);

  return (
    <Menu position="bottom" shadow="md" width={240} withinPortal>
      <Menu.Target>
        <Button
          className={classes.pill}
          variant="default"
          radius="xl"
          aria-label={`Session ${session.name}, ends in ${countdown}`}
          data-testid="session-pill"
          leftSection={
            <Box
              component="span"
              w={12}
              h={12}
              bg="green.6"
              style={{ borderRadius: '50%', flex: 'none' }}
              aria-hidden="true"
            />
          }
          styles={{ label: { gap: 10, overflow: 'visible' } }}
        >
          <Text span fw={700} truncate maw={180}>
            {session.name}
          </Text>
          <Text span ff="monospace" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {countdown}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Ends in {countdown}</Menu.Label>
        <Menu.Item
          className={classes.danger}
          fz="lg"
          py="md"
          disabled={end.isPending}
          onClick={() => end.mutate(session.id)}
        >
          End Session
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
