import { routes } from '@curbside/api';
import type { DayWay, DismissalChangeView, ParentWaysHome, WayOptions } from '@curbside/domain';
import { addDays, clockTimeText, cutoffMessage, isSchoolDay } from '@curbside/domain';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../lib/api';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { appQueryClient } from '../../lib/query-client';
import { useLiveEvent } from '../live/live';
import { wayChoices, wayOfValue } from '../ways-home/way-choices';
import { ChoiceField } from './choice-field';
import { dateFormat, dayText } from './format';
import { useParentTexts } from './i18n';
import { usePainted } from './largest-paint';
import { NoteField } from './note-field';
import { parentQueries } from './parent.queries';

/**
 * Every way home on the parent portal (issue 51): each child's way home
 * today on their card, and "Change how Ava goes home": a school day (today
 * only before the school's cutoff, shown), the ways the school offers, a
 * note, and the family's changes with their status, cancellable before the
 * cutoff. English and Spanish; live when the office decides.
 */

type School = ParentWaysHome['schools'][number];

/** How many school days ahead the day list offers. */
const DAYS_OFFERED = 20;
/** A way in the screen's language: `Car rider`, `Bus B3`, `Walker`, `Kids Club`, `Absent`. */
export const useWayText = () => {
  const { t } = useParentTexts();
  return (way: DayWay, options: WayOptions) => {
    switch (way.mode) {
      case 'bus': {
        const bus = options.buses.find((found) => found.id === way.vehicleId);
        return bus ? t('ways.bus', { number: bus.number }) : t('ways.busUnknown');
      }
      case 'program':
        return options.programs.find((found) => found.id === way.programId)?.name ?? t('ways.program');
      default:
        return t(`ways.${way.mode}`);
    }
  };
};

/** The school's cutoff as the screen's language writes a time (`2:00 PM`, `14:00`). */
const cutoffText = (cutoff: string, language: string) =>
  language === 'en'
    ? clockTimeText(cutoff)
    : dateFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
        new Date(`2000-01-01T${cutoff}:00Z`),
      );

/** The next school days a family may choose: today only before the cutoff. */
const schoolDaysFrom = (school: School) => {
  const days: string[] = [];
  for (let day = school.today; days.length < DAYS_OFFERED; day = addDays(day, 1)) {
    if (isSchoolDay(day) && !(day === school.today && school.pastCutoff)) days.push(day);
  }
  return days;
};

/** "Today: Walker" for one child (nothing while loading or for a child the answer does not name). */
export function TodayLine({ studentId }: { studentId: number }) {
  const { t } = useParentTexts();
  const wayText = useWayText();
  const ways = useQuery(parentQueries.waysHome());
  const child = ways.data?.children.find((found) => found.studentId === studentId);
  const school = ways.data?.schools.find((found) => found.schoolId === child?.schoolId);
  if (!child || !school) return null;
  return (
    <Text fw={700} fz="lg" data-testid={`today-${studentId}`}>
      {t('ways.today', { way: wayText(child.today.way, school.options) })}
    </Text>
  );
}

const STATUS_COLOR: Record<DismissalChangeView['status'], string> = {
  approved: 'green.9',
  // Dark text on yellow (autoContrast): white on a yellow is under 4.5:1.
  pending: 'yellow.4',
  denied: 'red.9',
  cancelled: 'gray.7',
};

/** Whether the family may still cancel: pending or approved, not over, not today after the cutoff. */
const cancellable = (change: DismissalChangeView, school: School) =>
  (change.status === 'pending' || change.status === 'approved') &&
  (change.until ?? change.date) >= school.today &&
  !(school.pastCutoff && change.date <= school.today);

/** A failed change's message in the screen's language (the cutoff names the school's time). */
const useChangeError = (cutoff: string) => {
  const { t, language, serverText } = useParentTexts();
  return (error: unknown) => {
    const message = typeof error === 'string' ? error : errorMessage(error);
    return message === cutoffMessage(cutoff)
      ? t('ways.cutoffError', { time: cutoffText(cutoff, language) })
      : serverText(message);
  };
};

/** After a change is sent or cancelled: the ways home and the changes are read again. */
const readWaysAgain = (queryClient: QueryClient) => {
  void queryClient.invalidateQueries({ queryKey: parentQueries.waysHome().queryKey });
  void queryClient.invalidateQueries({ queryKey: parentQueries.changesAll() });
};

/**
 * A child's "Changes": the family's changes and their status, each cancellable while it may be.
 * Read once the page has been painted (`usePainted`: h57k; h57d), and a component of its own (h57m): the
 * changes' answer reaches React synchronously (TanStack Query's `useSyncExternalStore`), and it
 * draws this list again, not the change form above it (on a phone at 4× CPU the whole form, each
 * child's, was one long task after the paint).
 */
function ChangesList({
  child,
  userId,
  school,
}: {
  child: { id: number; firstName: string };
  userId: number;
  school: School;
}) {
  const painted = usePainted();
  const { t, language } = useParentTexts();
  const wayText = useWayText();
  const queryClient = useQueryClient();
  const changes = useQuery({ ...parentQueries.changes(school.today), enabled: painted });
  const cancel = useMutation({
    mutationFn: (change: DismissalChangeView) =>
      api(routes.cancelDismissalChange, { params: { id: change.id } }),
    onSuccess: () => notifications.show({ color: 'green.9', message: t('ways.cancelled') }),
    onSettled: () => readWaysAgain(queryClient),
  });
  const changeError = useChangeError(school.changeCutoff);
  const mine = (changes.data?.changes ?? []).filter((change) => change.studentId === child.id);
  return (
    <Stack gap={4} component="section" aria-label={`${t('ways.requests')}: ${child.firstName}`}>
      <Title order={3} fz={17}>
        {t('ways.requests')}
      </Title>
      {changes.isError && !changes.data ? (
        <Alert color="red">{t('ways.loadFailed')}</Alert>
      ) : changes.isPending ? (
        // While they come, the usual answer's place ("No changes…", unseen) with a loader in it:
        // when it comes, nothing below moves.
        <Text component="div" pos="relative" aria-busy="true">
          <span style={{ visibility: 'hidden' }}>{t('ways.none', { name: child.firstName })}</span>
          <Loader size="xs" type="dots" aria-label="Loading" pos="absolute" top={0} left={0} />
        </Text>
      ) : mine.length === 0 ? (
        <Text>{t('ways.none', { name: child.firstName })}</Text>
      ) : (
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          {mine.map((change) => {
            const when =
              change.until === null
                ? dayText(change.date, language)
                : t('ways.range', {
                    from: dayText(change.date, language),
                    until: dayText(change.until, language),
                  });
            return (
              <Group
                component="li"
                key={change.id}
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                py={6}
                aria-label={`${when}: ${wayText(change.way, school.options)}`}
              >
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={700}>
                    {when} · {wayText(change.way, school.options)}
                  </Text>
                  <Badge
                    color={STATUS_COLOR[change.status]}
                    variant="filled"
                    size="lg"
                    radius="sm"
                    autoContrast
                    tt="none"
                    h="auto"
                    py={4}
                    style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
                    styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                  >
                    {t(`ways.status.${change.status}`)}
                  </Badge>
                  {change.status === 'denied' && change.reason && (
                    <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                      {t('ways.reason', { reason: change.reason })}
                    </Text>
                  )}
                </Stack>
                {change.requestedBy.id === userId && cancellable(change, school) && (
                  <Button
                    variant="default"
                    size="md"
                    style={{ flexShrink: 0 }}
                    aria-label={t('ways.cancelLabel', { date: when })}
                    loading={cancel.isPending && cancel.variables?.id === change.id}
                    onClick={() =>
                      cancel.mutate(change, {
                        onError: (error) =>
                          notifications.show({
                            color: 'red',
                            title: t('ways.cancelFailed'),
                            message: changeError(error),
                          }),
                      })
                    }
                  >
                    {t('ways.cancel')}
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * One child's "Change how … goes home": the form and the family's changes. The changes are read
 * once the page has been painted (`usePainted`): their list lies below a phone's first screen, and
 * its read, which waits for the ways home's answer (each school's today), is not on the first
 * paint's path (issue 57, h57k).
 */
export function ChangeWayHome({
  child,
  userId,
}: {
  child: { id: number; firstName: string };
  userId: number;
}) {
  const { t, language } = useParentTexts();
  const wayText = useWayText();
  const queryClient = useQueryClient();
  const ways = useQuery(parentQueries.waysHome());
  const link = ways.data?.children.find((found) => found.studentId === child.id);
  const school = ways.data?.schools.find((found) => found.schoolId === link?.schoolId);
  const [date, setDate] = useState<string | null>(null);
  const [way, setWay] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const { errors, set: setErrors, showServerError } = useFieldErrors();
  const send = useMutation({
    mutationFn: (body: { date: string; way: DayWay; note: string }) =>
      api(routes.createDismissalChange, {
        body: { studentId: child.id, ...body, language: language === 'es' ? 'es' : 'en' },
      }),
    onSettled: () => readWaysAgain(queryClient),
  });
  const changeError = useChangeError(school?.changeCutoff ?? '14:00');
  if (ways.isPending) return <Loader size="sm" aria-label="Loading" />;
  if (!school) return null;

  const days = schoolDaysFrom(school);
  const headingId = `way-home-${child.id}`;
  const time = cutoffText(school.changeCutoff, language);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!date) missing.date = t('ways.choose');
    if (!way) missing.way = t('ways.choose');
    setErrors(missing);
    if (!date || !way) return;
    send.mutate(
      { date, way: wayOfValue(way), note },
      {
        onSuccess: ({ change }) => {
          notifications.show({
            color: 'green.9',
            message:
              change.status === 'pending'
                ? t('ways.sentPending')
                : t('ways.sent', {
                    name: child.firstName,
                    way: wayText(change.way, school.options),
                    date: dayText(change.date, language),
                  }),
          });
          setWay(null);
          setNote('');
          setDate(null);
        },
        onError: (error) => {
          showServerError(error);
          notifications.show({ color: 'red', title: t('ways.failed'), message: changeError(error) });
        },
      },
    );
  };

  return (
    <Card component="section" aria-labelledby={headingId} p="md">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={20} id={headingId}>
            {t('ways.title', { name: child.firstName })}
          </Title>
          <Text fz="sm" c="dimmed">
            {school.pastCutoff ? t('ways.closed', { time }) : t('ways.cutoff', { time })}
            {school.changeApproval === 'office' ? ` ${t('ways.officeApproves')}` : ''}
          </Text>
        </Stack>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <ChoiceField
              label={t('ways.date')}
              placeholder={t('ways.choose')}
              data={days.map((day) => ({ value: day, label: dayText(day, language) }))}
              value={date}
              onChange={setDate}
              error={errors.date && changeError(errors.date)}
            />
            <ChoiceField
              label={t('ways.way')}
              placeholder={t('ways.choose')}
              data={wayChoices(school.options, (choice) => wayText(choice, school.options), { absent: true })}
              value={way}
              onChange={setWay}
              error={errors.way && changeError(errors.way)}
            />
            <NoteField
              label={t('ways.note')}
              maxLength={500}
              value={note}
              onChange={setNote}
              error={errors.note && changeError(errors.note)}
            />
            <Button type="submit" size="lg" fullWidth loading={send.isPending}>
              {t('ways.send')}
            </Button>
          </Stack>
        </form>
        <ChangesList child={child} userId={userId} school={school} />
      </Stack>
    </Card>
  );
}

/**
 * The dashboard's loader asks for the ways home as the route matches (issue 57): they leave
 * beside the page's code, not once it has drawn. The changes are read after its paint
 * (`ChangeWayHome`).
 */
export const askWaysHome = () => {
  void appQueryClient.prefetchQuery(parentQueries.waysHome());
};

/**
 * Whether the ways home have their first answer (or failed): the dashboard draws the children
 * with their way today and the change forms below them at once, not a line and a form at a time
 * (each moved what was below it: a layout shift on the phone).
 */
export const useWaysHomeRead = (enabled: boolean) =>
  !useQuery({ ...parentQueries.waysHome(), enabled }).isPending;

/** The office decided, or today's plan changed: the dashboard reads the children's ways again. */
export const useWaysHomeFollowLive = () => {
  const queryClient = useQueryClient();
  useLiveEvent(['DISMISSAL_CHANGE_UPDATED', 'DISMISSAL_PLAN_CHANGED'], () => {
    void queryClient.invalidateQueries({ queryKey: parentQueries.waysHome().queryKey });
    void queryClient.invalidateQueries({ queryKey: parentQueries.changesAll() });
  });
};
