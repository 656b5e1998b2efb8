import { canPerform, type User } from '@curbside/domain';
import { Alert, Center, Container, Grid, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { useLiveEvent } from '../live/live';
import { queueQueries } from '../queue/queue.queries';
import { useQueueLive } from '../queue/queue-list';
import { useNow } from '../queue/use-now';
import { RosterPanel, type RosterPermissions } from '../rosters/roster-panel';
import { rosterQueries, type SchoolScope } from '../rosters/rosters.queries';
import { useActiveSession } from '../sessions/sessions.queries';
import { WalkersByGrade } from '../teacher/walkers-by-grade';
import { TodaysChanges } from '../ways-home/todays-changes';
import { BusTrackingCard, LiveMapPanel } from './bus-tracking-card';
import { DisplayLinkCard } from './display-link-card';
import { QueueOverview } from './queue-overview';
import { ReportsGrid } from './reports-grid';
import { StatCards } from './stat-cards';

export const READ_ONLY_TEXT =
  'Read-Only Mode: This school is in sandbox mode. You can view data but cannot create, update, or delete records. Contact your district administrator to enable full functionality.';

export const NO_SESSION_HINT =
  'There is currently no active pickup or dropoff session. Please start a new session using the button in the header.';

/**
 * The school a page works on: `?schoolId=` for district and super admins
 * (the district screen's Manage), otherwise the user's own.
 */
export const useSchoolScope = (user: User | null): SchoolScope => {
  const [params] = useSearchParams();
  const asked = Number(params.get('schoolId'));
  const oversees = user?.role === 'district_admin' || user?.role === 'super_admin';
  return oversees && Number.isInteger(asked) && asked > 0 ? asked : undefined;
};

/** Queue events that move students (into a vehicle in the queue, or picked up). */
const STUDENT_MOVES = [
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
] as const;

/** The summary is read again at most every 2 s while the queue moves (a rush sends many events). */
const SUMMARY_REFRESH_MS = 2000;

/** Reads the school summary again after queue events, at most once per {@link SUMMARY_REFRESH_MS}. */
const useSummaryFollowsQueue = () => {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvent(STUDENT_MOVES, () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: rosterQueries.summaries() });
    }, SUMMARY_REFRESH_MS);
  });
};

/**
 * The school's sandbox mode (or its district's) was switched: read the
 * summary again, whose `readOnly` drives the banner and the controls.
 */
const useSummaryFollowsMode = () => {
  const client = useQueryClient();
  useLiveEvent('SCHOOL_MODE_CHANGED', () => {
    void client.invalidateQueries({ queryKey: rosterQueries.summaries() });
  });
};

/** The running session's part of the screen: map, bus tracking, stat cards and the queue overview. */
function SessionPanels({
  sessionId,
  scope,
  readOnly,
}: {
  sessionId: number;
  scope: SchoolScope;
  readOnly: boolean;
}) {
  const { session } = useActiveSession();
  const queue = useQuery(queueQueries.active(sessionId));
  const summary = useQuery(rosterQueries.summary(scope, sessionId));
  const now = useNow(1000);
  useQueueLive(sessionId);
  // Where the students are changes with the queue.
  useSummaryFollowsQueue();
  const entries = (queue.data ?? []).filter((entry) => entry.status !== 'completed');
  if (!session) return null;
  return (
    <>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <LiveMapPanel />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <BusTrackingCard readOnly={readOnly} />
            <DisplayLinkCard readOnly={readOnly} />
          </Stack>
        </Grid.Col>
      </Grid>
      <StatCards session={session} students={summary.data?.students} entries={entries} now={now} />
      <QueueOverview entries={entries} now={now} />
    </>
  );
}

function NoSession() {
  return (
    <Stack align="center" gap="xs" ta="center" py="md" component="section" aria-label="No Active Session">
      <Title order={2}>No Active Session</Title>
      <Text fz="lg">{NO_SESSION_HINT}</Text>
    </Stack>
  );
}

/**
 * The school admin screen (specification §2): with a running session its map,
 * stat cards and queue overview; always Bus Tracking (drivers are set up
 * before the session), School Management and Reports and Configuration. A sandboxed school is read-only.
 */
export function SchoolAdminPage() {
  const { user } = useMe();
  const scope = useSchoolScope(user);
  const own = scope === undefined || scope === user?.schoolId;
  const { session, isLoading } = useActiveSession();
  const summary = useQuery({ ...rosterQueries.summary(scope, null), enabled: user !== null });
  useSummaryFollowsMode();
  if (!user) return null;
  if (summary.isPending || (own && isLoading)) {
    return (
      <Center py="xl">
        <Loader size="xl" aria-label="Loading" />
      </Center>
    );
  }
  if (summary.isError) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title="This school could not be opened" role="alert">
          {summary.error.message}
        </Alert>
      </Container>
    );
  }
  const school = summary.data.school;
  const readOnly = school.readOnly;
  const permissions: RosterPermissions = {
    canCreate: canPerform(user.role, 'create', readOnly),
    canUpdate: canPerform(user.role, 'update', readOnly),
    canDelete: canPerform(user.role, 'delete', readOnly),
    canImport: canPerform(user.role, 'import', readOnly),
  };
  const placardsHref = scope === undefined ? '/print-placards' : `/print-placards?schoolId=${scope}`;
  return (
    <Container fluid px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <Stack gap={0}>
          <Title order={1}>School Administration</Title>
          <Text fz="lg" c={MUTED_TEXT}>
            {school.name}
          </Text>
        </Stack>
        {readOnly && (
          <Alert color="orange" variant="light" role="status">
            {READ_ONLY_TEXT}
          </Alert>
        )}
        {!own ? (
          <Alert color="blue" variant="light">
            The live car line of {school.name} shows on its own staff's screens.
          </Alert>
        ) : session ? (
          <SessionPanels sessionId={session.id} scope={scope} readOnly={readOnly} />
        ) : (
          // The drivers' links are set up in the morning or the day before: the card shows with no session too.
          <Grid gutter="md" align="center">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <NoSession />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Stack gap="md">
                <BusTrackingCard readOnly={readOnly} />
                <DisplayLinkCard readOnly={readOnly} />
              </Stack>
            </Grid.Col>
          </Grid>
        )}
        {/* Issue 52: the walkers of a grade released in one press, while a dismissal runs. */}
        {own && session && !readOnly && <WalkersByGrade />}
        <TodaysChanges schoolId={scope} readOnly={readOnly} />
        <RosterPanel
          schoolId={scope}
          counts={summary.data.counts}
          permissions={permissions}
          // Invites are made in one's own school (school admins and above: this screen's rank).
          invites={
            own && user.schoolId !== null
              ? { userId: user.id, schoolName: school.name, readOnly: !permissions.canUpdate }
              : undefined
          }
        />
        <ReportsGrid
          placardsHref={placardsHref}
          settingsHref={scope === undefined ? '/school-settings' : `/school-settings?schoolId=${scope}`}
          school={school}
        />
      </Stack>
    </Container>
  );
}

// The school admin's report pages load with the school admin screen (one chunk: fewer chunks for the first screens to share).
export { SessionReportPage } from '../reports/session-report.page';
export { SessionReportsPage } from '../reports/session-reports.page';
