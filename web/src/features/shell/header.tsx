import type { User } from '@curbside/domain';
import { Badge, Text, UnstyledButton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type CSSProperties, lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { CurbsideMark } from '../../components/logo';
import { GROUP, groupGap } from '../../components/mantine-layout';
import { PlainButton } from '../../components/mantine-look';
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

const ROW = groupGap(8, 'nowrap');
const NAME: CSSProperties = { fontSize: 'var(--mantine-font-size-xl)', fontWeight: 800, lineHeight: 1 };

/**
 * Mark and name, as shown at the left of the header (here, not beside the mark in `logo.tsx`,
 * which the parent pages load: h57ka): Mantine's Group and Text as their plain
 * elements, with their classes and variables (issue 57, h57ka: drawn with every staff screen).
 */
function Logo() {
  return (
    <div className={GROUP} style={ROW}>
      <CurbsideMark />
      <p className={`mantine-focus-auto ${Text.classes.root} mantine-Text-root`} style={NAME}>
        Curbside
      </p>
    </div>
  );
}

/**
 * Mantine's Groups, Buttons and the home link's UnstyledButton as their plain elements, with their
 * classes and variables (issue 57, h57ka): the header is drawn with every staff screen's first paint.
 */
const GAP_XS = groupGap('xs', 'wrap');
const GAP_SM = groupGap('sm', 'wrap');
const HOME = `mantine-focus-auto ${UnstyledButton.classes.root} mantine-UnstyledButton-root`;

function SessionControls({ user, onNew }: { user: User; onNew: () => void }) {
  const { session, isLoading } = useActiveSession();
  const school = runsSessions(user.role);
  if (user.role === 'parent') return null;
  return (
    <div className={`${GROUP} ${classes.session}`} style={GAP_XS}>
      {school &&
        !isLoading &&
        (session ? (
          <SessionPill session={session} user={user} />
        ) : (
          <PlainButton color="green" onClick={onNew} className={classes.startSession}>
            Start Session
          </PlainButton>
        ))}
      {/* A session belongs to a school: an account above one school has none to start it in. */}
      {user.schoolId !== null && (
        <PlainButton variant="default" onClick={onNew} className={classes.newSession}>
          New Session
        </PlainButton>
      )}
    </div>
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
      <div className={`${GROUP} ${classes.brand}`} style={GAP_SM}>
        <Link to="/" aria-label="Curbside home" className={HOME}>
          <Logo />
        </Link>
        {sandbox && (
          <Badge color="orange" variant="filled" size="lg">
            SANDBOX
          </Badge>
        )}
      </div>
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
