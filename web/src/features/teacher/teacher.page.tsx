import {
  type Classroom,
  reachesFamilyOf,
  readyOrder,
  type TeacherStudent,
  type User,
} from '@curbside/domain';
import {
  Badge,
  Card,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { AlertPanel } from '../alerts/alert-panel';
import { useArrivalByStudent } from '../arrivals/arrivals.queries';
import { useMe } from '../auth/auth.queries';
import { useLiveEvent } from '../live/live';
import { PickupCodeDialog } from '../pickup-codes/pickup-code-dialog';
import { NoActiveSession } from '../queue/no-active-session';
import { useNow } from '../queue/use-now';
import { usePhone } from '../queue/use-phone';
import { useActiveSession } from '../sessions/sessions.queries';
import { StudentBatchStatus } from './batch-status';
import { type ClassroomSelection, ClassroomSelector, useClassroomSelection } from './classroom-selector';
import { useClassroomSubscription } from './classroom-subscription';
import { CompletedBatches } from './completed-batches';
import { Counters, MyClassroom } from './counters';
import { QueueStatusCard } from './queue-status';
import { countsOf, rosterOf } from './roster';
import { StudentVehicleDialog } from './student-vehicle-dialog';
import { ReadyList, type StudentActions, StudentsPanel } from './students-panel';
import { withTodaysWays } from './teacher.cache';
import { teacherQueries, useTeacherLive } from './teacher.queries';
import { WaysToday } from './ways-today';

/** The alert location before the classrooms have loaded. */
export const TEACHER_LOCATION_FALLBACK = 'Classroom';

const SELECT_CLASSROOMS = 'Select classrooms to view and manage students.';

type Tab = 'arrival' | 'attendance';

/**
 * The students of the selected classrooms in the session (or outside any
 * session: nobody ready or picked up): all of them, the ready ones (the cars
 * being loaded now first), those in class, and the counters.
 */
const useRoster = (sessionId: number | null, classroomIds: readonly number[]) => {
  const all = useQuery({
    ...teacherQueries.students(sessionId, classroomIds),
    enabled: classroomIds.length > 0,
  });
  const ready = useQuery({
    ...teacherQueries.ready(sessionId ?? 0, classroomIds),
    enabled: sessionId !== null && classroomIds.length > 0,
  });
  return useMemo(() => {
    const inRooms = (student: TeacherStudent) =>
      student.classroomId !== null && classroomIds.includes(student.classroomId);
    const students = (all.data ?? []).filter(inRooms);
    const roster = rosterOf(students);
    return {
      everyone: all.data ?? [],
      students,
      // GET /api/teacher/students/ready gives the ready list; until it answers, the full list does.
      ready: readyOrder(ready.data ? ready.data.filter(inRooms) : roster.ready),
      inClass: roster.inClass,
      counts: countsOf(roster),
      isLoading: all.isLoading,
    };
  }, [all.data, all.isLoading, ready.data, classroomIds]);
};

type Roster = ReturnType<typeof useRoster>;

/**
 * 'Ready for Pickup' on the Arrival/Departure tab: every ready student of the
 * selected classrooms, the cars being loaded now first, with Release, so the teacher does not
 * change tabs to send a child out.
 */
function ReadyForPickup({ roster, now, ...actions }: { roster: Roster; now: number } & StudentActions) {
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Ready for Pickup">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={2} fz="xl">
            Ready for Pickup
          </Title>
          <Badge
            size="xl"
            tt="none"
            color={roster.ready.length > 0 ? 'green.9' : 'gray.7'}
            style={{ flexShrink: 0, overflow: 'visible' }}
          >
            {`Ready: ${roster.ready.length}`}
          </Badge>
        </Group>
        {roster.isLoading ? (
          <Center py="md">
            <Loader aria-label="Loading students" />
          </Center>
        ) : roster.ready.length === 0 ? (
          <Text c={MUTED_TEXT} fz="md">
            No students ready for pickup
          </Text>
        ) : (
          <ReadyList students={roster.ready} now={now} {...actions} />
        )}
      </Stack>
    </Card>
  );
}

function ArrivalTab({
  sessionId,
  selection,
  roster,
  now,
  actions,
}: {
  sessionId: number;
  selection: ClassroomSelection;
  roster: Roster;
  now: number;
  actions: StudentActions;
}) {
  const phone = usePhone();
  const arrivals = useArrivalByStudent(sessionId);
  return (
    <Grid gutter="md">
      {/* Phones: the class and its ready students first, the classroom choice below. */}
      <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
        <Stack gap="md">
          <ClassroomSelector selection={selection} defaultOpen={!phone} />
          <QueueStatusCard sessionId={sessionId} now={now} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
        <Stack gap="md">
          <MyClassroom classrooms={selection.selected} counts={roster.counts} />
          <ReadyForPickup roster={roster} now={now} {...actions} />
          {!roster.isLoading && (
            <WaysToday
              students={roster.students}
              classroomIds={selection.selected.map((room) => room.id)}
              sessionRunning
            />
          )}
          {roster.isLoading ? (
            <Center py="lg">
              <Loader aria-label="Loading students" />
            </Center>
          ) : (
            <StudentBatchStatus
              students={roster.students}
              showRoom={selection.selected.length > 1}
              arrivals={arrivals}
            />
          )}
          <CompletedBatches sessionId={sessionId} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/**
 * 'Attendance Management': the counters and a Students panel per selected
 * classroom. Without a session nobody is ready, so nothing can be released;
 * students in class and their pickup codes are there all the same.
 */
function AttendanceTab({
  selection,
  roster,
  now,
  actions,
}: {
  selection: ClassroomSelection;
  roster: Roster;
  now: number;
  actions: StudentActions;
}) {
  const of = (room: Classroom) => ({
    ready: roster.ready.filter((student) => student.classroomId === room.id),
    inClass: roster.inClass.filter((student) => student.classroomId === room.id),
  });
  return (
    <Stack gap="md">
      <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Attendance Management">
        <Stack gap="sm">
          <Title order={2} fz="xl">
            Attendance Management
          </Title>
          <Counters counts={roster.counts} />
        </Stack>
      </Card>
      {selection.selected.length === 0 ? (
        <Card p="md">
          <Text fz="lg" ta="center" c={MUTED_TEXT}>
            {SELECT_CLASSROOMS}
          </Text>
        </Card>
      ) : roster.isLoading ? (
        <Center py="lg">
          <Loader aria-label="Loading students" />
        </Center>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: selection.selected.length > 1 ? 2 : 1 }} spacing="md">
          {selection.selected.map((room) => (
            <StudentsPanel key={room.id} classroom={room} now={now} {...of(room)} {...actions} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** Both tabs, for the running session or, without one (null), outside any session. */
function TeacherScreen({
  user,
  sessionId,
  selection,
  tab,
  onTab,
}: {
  user: User;
  sessionId: number | null;
  selection: ClassroomSelection;
  tab: Tab;
  onTab: (tab: Tab) => void;
}) {
  // The students of the selected classrooms that exist (none before the classrooms load).
  const selectedIds = selection.selected.map((room) => room.id);
  const roster = useRoster(sessionId, selectedIds);
  // The live connection brings only these classrooms' car-line events while the screen shows them.
  useClassroomSubscription(selectedIds, true);
  // The office changed a child's way home today (issue 52): their group follows, without a read.
  const queryClient = useQueryClient();
  useLiveEvent('DISMISSAL_PLAN_CHANGED', ({ data }) => {
    queryClient.setQueriesData<TeacherStudent[]>({ queryKey: teacherQueries.all }, (list) =>
      withTodaysWays(list, data.students),
    );
  });
  const now = useNow(1000);
  const [vehicleOf, setVehicleOf] = useState<TeacherStudent | null>(null);
  const [codeFor, setCodeFor] = useState<TeacherStudent | null>(null);
  const rooms = new Map(selection.classrooms.map((room) => [room.id, room]));
  const actions: StudentActions = {
    onOpenVehicle: (student) => {
      if (student.vehicle) setVehicleOf(student);
    },
    onOpenCode: setCodeFor,
    // As the server rules (issue 49): a teacher makes codes for their own classrooms' students only.
    codeAllowed: (student) =>
      reachesFamilyOf(user, student.classroomId === null ? undefined : rooms.get(student.classroomId)),
  };
  return (
    <>
      <TeacherTabs tab={tab} onTab={onTab}>
        {{
          arrival:
            sessionId === null ? (
              <Grid gutter="md">
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <ClassroomSelector selection={selection} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 8 }}>
                  <NoActiveSession user={user} />
                </Grid.Col>
              </Grid>
            ) : (
              <ArrivalTab
                sessionId={sessionId}
                selection={selection}
                roster={roster}
                now={now}
                actions={actions}
              />
            ),
          attendance: <AttendanceTab selection={selection} roster={roster} now={now} actions={actions} />,
        }}
      </TeacherTabs>
      {/* Opened from the teacher screen: details only, a pickup is completed at the curb. */}
      <StudentVehicleDialog
        sessionId={sessionId}
        student={vehicleOf}
        students={roster.everyone}
        onClose={() => setVehicleOf(null)}
      />
      <PickupCodeDialog student={codeFor} opened={codeFor !== null} onClose={() => setCodeFor(null)} />
    </>
  );
}

function TeacherTabs({
  tab,
  onTab,
  children,
}: {
  tab: Tab;
  onTab: (tab: Tab) => void;
  children: Record<Tab, ReactNode>;
}) {
  return (
    <Tabs value={tab} onChange={(value) => value && onTab(value as Tab)} variant="pills" radius="md">
      <Tabs.List grow mb="md">
        {(
          [
            ['arrival', 'Arrival/Departure'],
            ['attendance', 'Attendance'],
          ] as const
        ).map(([value, label]) => (
          <Tabs.Tab
            key={value}
            value={value}
            h={56}
            px="sm"
            fz={{ base: 'md', sm: 'lg' }}
            fw={800}
            style={tab === value ? undefined : { border: '2px solid var(--mantine-color-default-border)' }}
          >
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="arrival">{children.arrival}</Tabs.Panel>
      <Tabs.Panel value="attendance">{children.attendance}</Tabs.Panel>
    </Tabs>
  );
}

/**
 * The teacher screen: the Alert Center (every active alert once, with the
 * Help / Emergency pair for the classroom), then 'Arrival/Departure'
 * (classrooms, queue status, the ready students to release, where each
 * student is in the pickup, completed batches) and 'Attendance' (the
 * counters, and per classroom the ready students, students in class and
 * pickup codes). The alert panel's location is the classroom's name.
 */
export function TeacherPage() {
  const { user } = useMe();
  const { session, isLoading } = useActiveSession();
  const selection = useClassroomSelection(user);
  const [tab, setTab] = useState<Tab | null>(null);
  const phone = usePhone();
  useTeacherLive();
  if (!user) return null;
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader size="xl" aria-label="Loading" />
      </Center>
    );
  }
  const current: Tab = tab ?? (session ? 'arrival' : 'attendance');
  const location = selection.selected[0]?.name ?? TEACHER_LOCATION_FALLBACK;
  return (
    <Container fluid px={{ base: 'xs', sm: 'md' }} py={{ base: 'xs', sm: 'md' }}>
      <Stack gap="md">
        {/* Session or not: an alert does not wait for a dismissal (issue 50). */}
        <AlertPanel
          sessionId={session?.id ?? null}
          location={location}
          title="Alert Center"
          collapsible={phone}
        />
        <TeacherScreen
          user={user}
          sessionId={session?.id ?? null}
          selection={selection}
          tab={current}
          onTab={setTab}
        />
      </Stack>
    </Container>
  );
}
