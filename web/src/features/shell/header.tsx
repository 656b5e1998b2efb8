import type { User } from '@curbside/domain';
import { Badge, Button, Group, UnstyledButton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/logo';
import { useLiveEvent } from '../live/live';
import { ConnectionStatus } from '../queue/connection-status';
import { schoolQueries } from '../schools/schools.queries';
import { useActiveSession } from '../sessions/sessions.queries';
import classes from './header.module.css';
import { SessionPill } from './session-pill';
import { UserMenu } from './user-menu';

/** District and super admins work above a single school: no session pill or Start Session for them. */
/** The new-session form loads when opened (it is not part of the screens' first load). */
const SessionDialog = lazy(() =>
  import('../sessions/session-dialog').then((module) => ({ default: module.SessionDialog })),
);

const runsSessions = (role: User['role']) =>
  role !== 'district_admin' && role !== 'super_admin' && role !== 'parent';

function SessionControls({ user, onNew }: { user: User; onNew: () => void }) {
  const { session, isLoading } = useActiveSession();
  const school = runsSessions(user.role);
  if (user.role === 'parent') return null;
  return (
    <Group gap="xs" wrap="wrap" className={classes.session}>
      {school &&
        !isLoading &&
        (session ? (
          <SessionPill session={session} user={user} />
        ) : (
          <Button color="green" onClick={onNew} className={classes.startSession}>
            Start Session
          </Button>
        ))}
      {/* A session belongs to a school: an account above one school has none to start it in. */}
      {user.schoolId !== null && (
        <Button variant="default" onClick={onNew} className={classes.newSession}>
          New Session
        </Button>
      )}
    </Group>
  );
}

/**
 * The header of every signed-in staff screen: logo, SANDBOX badge, the
 * connection's state (connection-status.tsx), the session pill or Start Session, New Session,
 * and the user menu.
 */
export function Header({ user }: { user: User }) {
  const [creating, setCreating] = useState(false);
  const school = useQuery({
    ...schoolQueries.detail(user.schoolId ?? 0),
    enabled: user.schoolId !== null && user.role !== 'parent',
  });
  const district = useQuery({
    ...schoolQueries.district(user.districtId ?? 0),
    enabled: user.schoolId !== null && user.districtId !== null && user.role !== 'parent',
  });
  const sandbox = Boolean(school.data?.sandbox || district.data?.sandbox);
  // The SANDBOX badge follows the school's mode (and its district's) without a reload.
  const queryClient = useQueryClient();
  useLiveEvent('SCHOOL_MODE_CHANGED', () => {
    void queryClient.invalidateQueries({ queryKey: schoolQueries.all });
  });

  return (
    <header className={classes.header}>
      <Group gap="sm" wrap="wrap" className={classes.brand}>
        <UnstyledButton component={Link} to="/" aria-label="Curbside home">
          <Logo />
        </UnstyledButton>
        {sandbox && (
          <Badge color="orange" variant="filled" size="lg">
            SANDBOX
          </Badge>
        )}
      </Group>
      {/* Its own cell: on a phone a row of the header's whole width, so "Offline — 3 changes waiting" is never cut. */}
      <div className={classes.status}>
        <ConnectionStatus />
      </div>
      <SessionControls user={user} onNew={() => setCreating(true)} />
      <div className={classes.user}>
        <UserMenu user={user} />
      </div>
      {creating && (
        <Suspense fallback={null}>
          <SessionDialog opened onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </header>
  );
}
