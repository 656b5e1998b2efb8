import type { ParentStudentStatus } from '@curbside/domain';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { Navigate } from 'react-router';
import { appQueryClient } from '../../lib/query-client';
import { authQueries, useMe } from '../auth/auth.queries';
import { useLiveEvent } from '../live/live';
import { ArrivalCards } from './arrival';
import { clockText, waitText } from './format';
import { useParentTexts } from './i18n';
import { useIdleAfterPaint } from './largest-paint';
import { useLinkStudent, useParentLogout } from './parent.mutations';
import { parentQueries, spreadDelay } from './parent.queries';
import { ParentLayout } from './parent-layout';
import { ParentSetPassword } from './parent-set-password';
import { AuthorizedPickups } from './pickups-after-paint';
import { askWaysHome, ChangeWayHome, TodayLine, useWaysHomeFollowLive, useWaysHomeRead } from './way-home';

/** White on each of these is at least 4.5:1 (WCAG AA) in every theme; teal 9: 5.0:1. */
const STATUS_COLOR: Record<string, string> = {
  not_in_queue: 'gray',
  in_queue: 'blue',
  ready_for_pickup: 'green',
  picked_up: 'teal.9',
};
const KNOWN = new Set(Object.keys(STATUS_COLOR));

/** A pickup code as typed: trimmed, uppercased, at most 4 characters. */
const asCode = (text: string) => text.trim().toUpperCase().slice(0, 4);

/** One linked child: name, grade and school, the status badge, and while in the queue place, wait and batch. */
function ChildCard({ child, school }: { child: ParentStudentStatus; school: string | null }) {
  const { t, language } = useParentTexts();
  const status = KNOWN.has(child.status) ? child.status : 'unknown';
  const inQueue = child.status === 'in_queue';
  const vehicle =
    child.vehicleNumber === null
      ? null
      : t(child.vehicleType === 'bus' ? 'dashboard.bus' : 'dashboard.car', { number: child.vehicleNumber });
  const facts: Array<[string, string]> = [];
  if (inQueue && child.queuePosition !== null)
    facts.push([t('dashboard.position'), `#${child.queuePosition}`]);
  if (inQueue && child.estimatedWaitTime !== null) {
    facts.push([t('dashboard.wait'), waitText(child.estimatedWaitTime, language, t)]);
  }
  if (inQueue && child.batchNumber !== null) facts.push([t('dashboard.batch'), String(child.batchNumber)]);
  if (vehicle && (inQueue || child.status === 'ready_for_pickup'))
    facts.push([t('dashboard.vehicle'), vehicle]);
  return (
    <Card component="article" aria-label={`${child.firstName} ${child.lastName}`} p="md">
      <Stack gap="sm">
        <Stack gap={4}>
          <Title order={2} fz={22}>
            {child.firstName} {child.lastName}
          </Title>
          <Text c="dimmed" fz="sm">
            {[t('dashboard.grade', { grade: child.grade }), school].filter(Boolean).join(' · ')}
          </Text>
          <Badge
            size="xl"
            radius="sm"
            mt={4}
            color={STATUS_COLOR[status] ?? 'gray'}
            style={{ alignSelf: 'flex-start' }}
          >
            {t(`status.${status}`)}
          </Badge>
        </Stack>
        {facts.length > 0 && (
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 16px' }}>
            {facts.map(([label, value]) => (
              <div key={label} style={{ display: 'contents' }}>
                <Text component="dt" fw={600}>
                  {label}
                </Text>
                <Text component="dd" m={0} fw={800} fz="lg">
                  {value}
                </Text>
              </div>
            ))}
          </dl>
        )}
        <TodayLine studentId={child.id} />
        {child.status === 'picked_up' && child.pickupTime && (
          <Text fw={600}>{t('dashboard.pickedUpAt', { time: clockText(child.pickupTime, language) })}</Text>
        )}
      </Stack>
    </Card>
  );
}

/** Link a child by the pickup code their teacher gave. */
function LinkForm() {
  const { t } = useParentTexts();
  const [code, setCode] = useState('');
  const link = useLinkStudent(
    { title: t('dashboard.linked'), message: t('dashboard.linkedMessage') },
    t('dashboard.linkFailed'),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code) link.mutate(code, { onSuccess: () => setCode('') });
  };
  return (
    <Card p="md">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Title order={2} fz={20}>
            {t('dashboard.linkTitle')}
          </Title>
          <TextInput
            label={t('dashboard.code')}
            description={t('dashboard.linkHint')}
            size="lg"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            value={code}
            onChange={(event) => setCode(asCode(event.currentTarget.value))}
            styles={{ input: { letterSpacing: '0.2em', fontWeight: 800 } }}
          />
          <Button type="submit" size="lg" fullWidth disabled={code === ''} loading={link.isPending}>
            {t('dashboard.link')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/**
 * The link form below the children, their forms and their trusted adults: off a phone's first
 * screen wherever a child is linked, so drawn once the page has been painted and the browser has
 * been idle after it (h57p: the page's first commit, the task its largest paint waits for, holds
 * nothing no one sees before that paint), in a task of its own; nothing above it moves. Without a
 * child (`now`) it is what the page is for, and drawn with it; one component either way, so the
 * form linking a first child stays as it is.
 */
function LinkFormAfterPaint({ now }: { now: boolean }) {
  const idle = useIdleAfterPaint();
  return now || idle ? <LinkForm /> : null;
}

/**
 * The route's loader: the children and their status are asked for as soon as a signed-in parent
 * is known, not once the page has drawn. It does not wait for the answers.
 */
export const dashboardLoader = () => {
  void appQueryClient.ensureQueryData(authQueries.me()).then(
    (user) => {
      if (user?.role !== 'parent' || user.mustChangePassword) return;
      void appQueryClient.prefetchQuery(parentQueries.status());
      void appQueryClient.prefetchQuery(parentQueries.students());
      askWaysHome();
    },
    () => {},
  );
  return null;
};

/**
 * `/parent-dashboard`: the signed-in parent's children and their pickup,
 * read again on every live message about them and every 30 s.
 */
export function ParentDashboardPage() {
  const { t } = useParentTexts();
  const { user, isLoading } = useMe();
  const queryClient = useQueryClient();
  // A one-time password lets the parent choose their own first (the server answers nothing else).
  const parent = user?.role === 'parent' && !user.mustChangePassword;
  const status = useQuery({ ...parentQueries.status(), enabled: parent });
  const students = useQuery({ ...parentQueries.students(), enabled: parent });
  const waysRead = useWaysHomeRead(parent);
  // Issue 57: nothing of the page is painted until its first answers are in (the children, their
  // schools, their ways home and changes); then the whole page, header, children and their forms,
  // is drawn in one transition (React renders it in slices) and painted at once: the largest text
  // (a change form's) comes with the first paint instead of a paint later, and nothing is drawn
  // again in pieces after it.
  const pending = status.isPending || students.isPending || !waysRead;
  const drawn = useDeferredValue(!pending);
  const logout = useParentLogout();
  const readStatus = () => void queryClient.invalidateQueries({ queryKey: parentQueries.status().queryKey });
  useLiveEvent('STUDENT_STATUS_UPDATE', readStatus);
  useLiveEvent('QUEUE_UPDATE', () => {
    setTimeout(readStatus, spreadDelay());
  });
  useWaysHomeFollowLive();
  if (isLoading) return null;
  if (user?.role === 'parent' && user.mustChangePassword) return <ParentSetPassword user={user} />;
  if (!parent) return <Navigate to="/parent-login" replace />;
  if (pending || !drawn) return <Loader m="xl" aria-label="Loading" />;
  const schools = new Map((students.data ?? []).map((child) => [child.id, child.schoolName]));
  // What lies below a phone's first screen (the changes' lists, the trusted adults) and the
  // arrivals' read come once that paint is reported (`usePainted`, held by `ParentLayout`):
  // nothing they ask for ends in its window, and only they are drawn again then, not the page.
  // The link form, below them all, once the browser has been idle after it (h57p).
  return (
    <ParentLayout>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={1} fz={{ base: 28, sm: 34 }}>
              {t('dashboard.title')}
            </Title>
            <Text c="dimmed" truncate>
              {user.name}
            </Text>
          </Stack>
          <Button
            variant="default"
            size="md"
            style={{ flexShrink: 0 }}
            onClick={() => logout.mutate()}
            loading={logout.isPending}
          >
            {t('dashboard.signOut')}
          </Button>
        </Group>
        {status.data && status.data.length > 0 && <ArrivalCards />}
        {!status.data ? (
          <Alert color="red">{t('dashboard.loadFailed')}</Alert>
        ) : status.data.length === 0 ? (
          <Text fz="lg">{t('dashboard.none')}</Text>
        ) : (
          <Stack gap="sm" aria-live="polite">
            {status.data.map((child) => (
              <ChildCard key={child.id} child={child} school={schools.get(child.id) ?? null} />
            ))}
          </Stack>
        )}
        {status.data?.map((child) => (
          <ChangeWayHome key={child.id} child={child} userId={user.id} />
        ))}
        {status.data && status.data.length > 0 && <AuthorizedPickups students={status.data} />}
        <LinkFormAfterPaint now={!status.data || status.data.length === 0} />
      </Stack>
    </ParentLayout>
  );
}
