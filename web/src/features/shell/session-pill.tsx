import type { PickupSession, User } from '@curbside/domain';
import { formatDuration } from '@curbside/domain';
import { Box, Button, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentPropsWithoutRef, forwardRef, useEffect } from 'react';
import { sessionQueries } from '../sessions/sessions.queries';
import { useCountdown } from '../sessions/use-countdown';
import classes from './header.module.css';
import { useMenuAfterPaint } from './menus-after-paint';

/** The pill itself: a dot, the session's name and the time left. */
const PillButton = forwardRef<
  HTMLButtonElement,
  { session: PickupSession; countdown: string } & ComponentPropsWithoutRef<'button'>
>(function PillButton({ session, countdown, className, ...props }, ref) {
  return (
    <Button
      ref={ref}
      // With the class `Menu.Target` gives its button (the menu's, after the paint).
      className={className ? `${classes.pill} ${className}` : classes.pill}
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
      {...props}
    >
      <VisuallyHidden>Session </VisuallyHidden>
      <Text span fw={700} truncate className={classes.pillName}>
        {session.name}
      </Text>
      <Text span ff="monospace" fw={700} style={{ fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}>
        {countdown}
      </Text>
    </Button>
  );
});

/**
 * The running session: its name and the time left, ticking every second.
 * A tap opens a small menu with End Session (back queue staff and above),
 * which asks for confirmation first (`header-menus.tsx`, loaded after the screen's first paint,
 * h57y: until then this same button, drawn at once). When the time runs out the active
 * session is asked for again (the server no longer reports it).
 */
export function SessionPill({ session, user }: { session: PickupSession; user: User }) {
  const seconds = useCountdown(session.endTime);
  const queryClient = useQueryClient();
  const countdown = formatDuration(seconds);
  const { menus, menu, buttonProps, targetProps } = useMenuAfterPaint();

  useEffect(() => {
    if (seconds > 0) return;
    const timer = setTimeout(() => queryClient.invalidateQueries({ queryKey: sessionQueries.all }), 2000);
    return () => clearTimeout(timer);
  }, [seconds, queryClient]);

  if (!menus) return <PillButton session={session} countdown={countdown} {...buttonProps} />;
  return (
    <menus.SessionMenu
      session={session}
      user={user}
      countdown={countdown}
      {...menu}
      target={<PillButton session={session} countdown={countdown} {...targetProps} />}
    />
  );
}
