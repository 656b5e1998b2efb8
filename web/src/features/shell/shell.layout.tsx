import { hasMinimumRole, isStaffRole } from '@curbside/domain';
import { Box, Card, Container, Text } from '@mantine/core';
import { lazy, memo, Suspense, useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { loadToastsWhenIdle } from '../../components/toasts-loader';
import { afterPaint } from '../../lib/after-paint';
import { useDrawnInTransition } from '../../lib/drawn-in-transition';
import { appQueryClient } from '../../lib/query-client';
import { AlertBanner, SoundBar } from '../alerts/alert-banner';
import { soundState } from '../alerts/alert-sound';
import { alertQueries } from '../alerts/alerts.queries';
import { authQueries, useMe } from '../auth/auth.queries';
import { useAuthorizedPickupsLive } from '../authorized-pickups/authorized-pickups.live';
import { useLastKnownWhenOffline } from '../queue/last-known';
import { UnreleasedQuestion } from '../queue/unreleased-question';
import { schoolQueries } from '../schools/schools.queries';
import { sessionQueries, useActiveSession, useSessionLive } from '../sessions/sessions.queries';
import { NO_PERMISSION, type RouteAccess } from './access';
import { Footer } from './footer';
import { Header } from './header';

// A signed-in screen never shows these: they load only when needed (the first load of a car-line
// tablet stays within its JavaScript budget).
const LoginScreen = lazy(() => import('../auth/login-screen').then((m) => ({ default: m.LoginScreen })));
const SetPasswordScreen = lazy(() =>
  import('../auth/set-password').then((m) => ({ default: m.SetPasswordScreen })),
);

/**
 * The shell's route loader: the school's running session is asked for as soon as the user is
 * known (the shell draws once both are), not once the shell has drawn. Nobody signed in: no
 * question. It does not wait for the answers.
 * With it, what the shell's first draw asks for itself (issue 57, h57g): the header's school and
 * district (its SANDBOX badge) and the banner's alerts, each when not read yet and on the same
 * conditions as the header and the banner ask them. Asked by the shell's first draw, they left
 * only after the session's answer and that draw (ADR 0026, h57g).
 */
export const shellLoader = () => {
  void appQueryClient.ensureQueryData(authQueries.me()).then(
    (user) => {
      if (!user || user.role === 'parent') return;
      void appQueryClient.prefetchQuery(sessionQueries.active());
      // The set-password step draws no header nor banner.
      if (user.schoolId === null || user.mustChangePassword) return;
      void appQueryClient.ensureQueryData(schoolQueries.detail(user.schoolId)).catch(() => {});
      if (user.districtId !== null) {
        void appQueryClient.ensureQueryData(schoolQueries.district(user.districtId)).catch(() => {});
      }
      if (!isStaffRole(user.role)) return;
      void appQueryClient.ensureQueryData(alertQueries.school()).catch(() => {});
      // The alert sound's audio context, which the banner's first draw needs (is sound locked?):
      // made while the reads travel, in a task of its own, not inside the draw that paints the
      // screen (the browser's first one opens the audio output: 40-200 ms on this machine).
      setTimeout(soundState, 0);
    },
    () => {},
  );
  return null;
};

/**
 * The shell's parts, memoised (issue 57, h57g): the shell draws again whenever who is signed in or
 * the running session is read (again when the live connection opens, an answer equal to the first);
 * its header (the school, the session's controls, two menus), the alert banner and the footer change
 * only with their own props or their own reads, and were drawn again each time, on a phone's CPU a
 * long task each before and after the first paint.
 */
const ShellHeader = memo(Header);
const ShellAlertBanner = memo(AlertBanner);
const ShellFooter = memo(Footer);
const ShellSoundBar = memo(SoundBar);
const ShellUnreleasedQuestion = memo(UnreleasedQuestion);

/** The deepest minimum role among the matched routes' handles. */
const useMinimumRole = () => {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const minRole = (matches[i]?.handle as RouteAccess | undefined)?.minRole;
    if (minRole) return minRole;
  }
  return undefined;
};

export function NoPermission() {
  return (
    <Container size="sm" py="xl">
      <Card>
        <Text fz="xl" fw={700} ta="center" role="alert">
          {NO_PERMISSION}
        </Text>
      </Card>
    </Container>
  );
}

/**
 * Every signed-in staff screen: header, the school's alert banner (staff of
 * a school: every active alert and its sound), the page, footer, and last
 * the bar that asks for a tap while the browser still blocks sound. Nothing while the
 * current user or the school's running session loads (the header's session controls and the
 * screen below both depend on it: drawn before it, they moved once it came, a layout shift of
 * the whole screen on a phone); the login screen when nobody is signed in; the set-
 * password step for a user who signed in with a one-time password; the
 * permission message when the user's rank is below the page's minimum.
 * The running session follows the live events here, once for every screen
 * (`useSessionLive`). The staff screens' tooltips share the specification's delays here (the
 * login and parent screens have none, so their first load skips that code).
 */
export function ShellLayout() {
  useLastKnownWhenOffline();
  useAuthorizedPickupsLive();
  useSessionLive();
  const { user, isLoading } = useMe();
  const session = useActiveSession();
  const minRole = useMinimumRole();
  // The toasts' container once the screen has been painted (h57q): idle before it (the page's load
  // event comes while its reads travel), its two chunks and stylesheet were asked for before the
  // front queue's keypad was painted on a slow answer, counted in Lighthouse's replay of that paint.
  // Answers that come after the shell's first render draw the screen in a transition (h57u).
  const drawn = useDrawnInTransition(!isLoading && !session.isReading);
  useEffect(() => (drawn ? afterPaint(loadToastsWhenIdle) : undefined), [drawn]);
  if (!drawn) return null;
  if (!user)
    return (
      <Suspense fallback={null}>
        <LoginScreen />
      </Suspense>
    );
  if (user.mustChangePassword)
    return (
      <Suspense fallback={null}>
        <SetPasswordScreen user={user} />
      </Suspense>
    );
  const allowed = !minRole || hasMinimumRole(user.role, minRole);
  const alerted = isStaffRole(user.role) && user.schoolId !== null;
  return (
    // No tooltip group around the screens: the icon tooltips' delays are their own module's
    // (components/tooltips.tsx, h57b); Mantine's Tooltip.Group held Mantine's Tooltip in the
    // shell's chunk, before every staff screen's first paint.
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <ShellHeader user={user} />
      {alerted && <ShellAlertBanner userId={user.id} />}
      <Box component="main" style={{ flex: 1 }}>
        {allowed ? <Outlet /> : <NoPermission />}
      </Box>
      <ShellFooter programs={alerted} />
      {alerted && <ShellSoundBar />}
      {alerted && <ShellUnreleasedQuestion />}
    </Box>
  );
}
