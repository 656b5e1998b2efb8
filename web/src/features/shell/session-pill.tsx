import type { PickupSession, User } from '@curbside/domain';
import { END_SESSION_MIN_ROLE, formatDuration, hasMinimumRole, ROLE_LABEL } from '@curbside/domain';
import { Box, Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EndSessionDialog } from '../sessions/end-session-dialog';
import { sessionQueries } from '../sessions/sessions.queries';
import { useCountdown } from '../sessions/use-countdown';
import classes from './header.module.css';

/**
 * The running session: its name and the time left, ticking every second.
 * A tap opens a small menu with End Session (back queue staff and above),
 * which asks for confirmation first. When the time runs out the active
 * session is asked for again (the server no longer reports it).
 */
export function SessionPill({ session, user }: { session: PickupSession; user: User }) {
  const seconds = useCountdown(session.endTime);
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const countdown = formatDuration(seconds);
  const canEnd = hasMinimumRole(user.role, END_SESSION_MIN_ROLE);

  useEffect(() => {
    if (seconds > 0) return;
    const timer = setTimeout(() => queryClient.invalidateQueries({ queryKey: sessionQueries.all }), 2000);
    return () => clearTimeout(timer);
  }, [seconds, queryClient]);

  return (
    <>
      <Menu position="bottom" shadow="md" width={280} withinPortal>
        <Menu.Target>
          <Button
            className={classes.pill}
            variant="default"
            radius="xl"
            data-testid="session-pill"
            leftSection={
              <Box
                component="span"
                w={12}
                h={12}
                bg="green.7"
                style={{ borderRadius: '50%', flex: 'none' }}
                aria-hidden="true"
              />
            }
            classNames={{ label: classes.pillLabel }}
          >
            <VisuallyHidden>Session </VisuallyHidden>
            <Text span fw={700} truncate className={classes.pillName}>
              {session.name}
            </Text>
            <Text span ff="monospace" fw={700} style={{ fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}>
              {countdown}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label fz="md" c="var(--mantine-color-text)">
            {session.name}
          </Menu.Label>
          <Menu.Label>Ends in {countdown}</Menu.Label>
          {canEnd ? (
            <Menu.Item className={classes.danger} fz="lg" py="md" onClick={() => setConfirming(true)}>
              End Session
            </Menu.Item>
          ) : (
            <Text px="sm" pb="sm" fz="sm">
              {`${ROLE_LABEL[END_SESSION_MIN_ROLE]} staff and above can end the session.`}
            </Text>
          )}
        </Menu.Dropdown>
      </Menu>
      <EndSessionDialog session={session} opened={confirming} onClose={() => setConfirming(false)} />
    </>
  );
}
