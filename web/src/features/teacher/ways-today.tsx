import {
  BUS_STATE_TEXT,
  type BusState,
  busLoadingText,
  busStateOf,
  changedTodayText,
  countByWay,
  RELEASE_RIDERS,
  RELEASE_WALKERS,
  sendToProgramText,
  type TeacherStudent,
  WAY_GROUPS,
  type WayMode,
  type WayOptions,
  wayText,
} from '@curbside/domain';
import { Alert, Badge, Box, Button, Card, Group, Paper, Popover, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MUTED_TEXT, SUCCESS_TEXT } from '../../lib/theme';
import { waysHomeQueries } from '../ways-home/ways-home.queries';
import { BatchStatusBadge } from './student-badges';
import { useReleaseByWay, type WayPress } from './teacher.queries';

/**
 * The teacher screen by way home (issue 52, ADR 0022): the students of the
 * selected classrooms as Car riders (with their car's place in the line),
 * Bus riders (by bus, with the bus's state), Walkers, Programs (by program)
 * and Absent, with their counts; a child whose way changed today wears a
 * badge whose note opens on tap. Walkers, a loading bus's riders and a
 * program's children are released in one tap each.
 */
const NO_OPTIONS: WayOptions = { buses: [], programs: [] };

const fullName = (student: TeacherStudent) => `${student.firstName} ${student.lastName}`;
const modeOf = (student: TeacherStudent): WayMode => student.today?.way.mode ?? 'car';

/** "Changed today: Bus B3 → Kids Club", its note on tap. */
function ChangedToday({ student, options }: { student: TeacherStudent; options: WayOptions }) {
  const text = changedTodayText(student.today, options);
  if (!text) return null;
  return (
    <Popover width={260} withArrow shadow="md" position="bottom-start">
      <Popover.Target>
        <Badge
          component="button"
          type="button"
          size="lg"
          color="orange.9"
          tt="none"
          style={{ cursor: 'pointer', maxWidth: '100%' }}
          aria-label={`${text} (${fullName(student)}): show the note`}
        >
          {text}
        </Badge>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fz="sm">{student.today.note ? student.today.note : 'No note'}</Text>
      </Popover.Dropdown>
    </Popover>
  );
}

function StudentRow({
  student,
  options,
  showQueue,
}: {
  student: TeacherStudent;
  options: WayOptions;
  showQueue: boolean;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      role="listitem"
      aria-label={fullName(student)}
      data-student-id={student.id}
    >
      <Group gap="xs" wrap="wrap">
        <Text fw={800} fz="lg" style={{ flex: '1 1 160px', minWidth: 0, overflowWrap: 'anywhere' }}>
          {fullName(student)}
        </Text>
        <ChangedToday student={student} options={options} />
        {showQueue && !student.releasedAt && <BatchStatusBadge student={student} size="md" />}
        {student.releasedAt && (
          <Badge size="lg" variant="outline" color={SUCCESS_TEXT} tt="none">
            {student.releasedBy ? `Released by ${student.releasedBy}` : 'Released'}
          </Badge>
        )}
      </Group>
    </Paper>
  );
}

function Rows({
  students,
  options,
  showQueue = false,
}: {
  students: TeacherStudent[];
  options: WayOptions;
  showQueue?: boolean;
}) {
  return (
    // Focusable, so a keyboard scrolls a long list too.
    <Box mah={320} tabIndex={0} style={{ overflowY: 'auto', overscrollBehavior: 'contain' }}>
      <Stack gap={6} p={2} role="list">
        {students.map((student) => (
          <StudentRow key={student.id} student={student} options={options} showQueue={showQueue} />
        ))}
      </Stack>
    </Box>
  );
}

/** A group's section: its title with the count, an action, and the rows. */
function WaySection({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} fz="lg">
        {`${title} (${count})`}
      </Title>
      {count === 0 ? (
        <Text c={MUTED_TEXT} fz="md">
          Nobody today
        </Text>
      ) : (
        children
      )}
    </Stack>
  );
}

/** Students grouped by a key (a bus's or a program's id), in first-seen order. */
const groupBy = (students: readonly TeacherStudent[], key: (student: TeacherStudent) => number) => {
  const groups = new Map<number, TeacherStudent[]>();
  for (const student of students) groups.set(key(student), [...(groups.get(key(student)) ?? []), student]);
  return [...groups];
};

/** A bus's state from its riders' rows: loading when any is batched or called, arrived when queued. */
const busStateOfRiders = (riders: readonly TeacherStudent[]): BusState => {
  const states = riders.map((rider) =>
    rider.inQueue
      ? busStateOf({ status: rider.queueStatus ?? 'waiting', batchId: rider.batchId })
      : 'not here',
  );
  if (states.includes('loading')) return 'loading';
  return states.includes('arrived') ? 'arrived' : 'not here';
};

function PressButton({
  label,
  press,
  pending,
  disabled,
  ariaLabel,
}: {
  label: string;
  press: WayPress;
  pending: number;
  disabled: boolean;
  ariaLabel?: string;
}) {
  const release = useReleaseByWay();
  return (
    <Button
      color="green.9"
      loading={release.isPending}
      disabled={disabled || pending === 0}
      onClick={() => release.mutate(press)}
      aria-label={ariaLabel ? `${ariaLabel}${pending > 0 ? ` (${pending})` : ''}` : undefined}
    >
      {pending > 0 ? `${label} (${pending})` : label}
    </Button>
  );
}

const unreleased = (students: readonly TeacherStudent[]) =>
  students.filter((student) => !student.releasedAt).length;

export function WaysToday({
  students,
  classroomIds,
  sessionRunning,
}: {
  students: TeacherStudent[];
  classroomIds: number[];
  /** Releases need a running afternoon session. */
  sessionRunning: boolean;
}) {
  const options = useQuery(waysHomeQueries.options(undefined)).data ?? NO_OPTIONS;
  const counts = countByWay(students);
  const of = (mode: WayMode) => students.filter((student) => modeOf(student) === mode);
  const idOf = (student: TeacherStudent) => student.today.way as { vehicleId?: number; programId?: number };
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Way home today">
      <Stack gap="md">
        <Stack gap="xs">
          <Title order={2} fz="xl">
            Way home today
          </Title>
          <Group gap="xs" role="list" aria-label="Counts by way home">
            {WAY_GROUPS.map(({ key, title }) => (
              <Badge
                key={key}
                role="listitem"
                size="lg"
                variant="light"
                color="gray.8"
                c="var(--mantine-color-text)"
                tt="none"
              >
                {`${title}: ${counts[key]}`}
              </Badge>
            ))}
          </Group>
        </Stack>

        <WaySection title="Car riders" count={counts.car}>
          <Rows students={of('car')} options={options} showQueue />
        </WaySection>

        <WaySection title="Bus riders" count={counts.bus}>
          <Stack gap="sm">
            {groupBy(of('bus'), (student) => idOf(student).vehicleId ?? 0).map(([busId, riders]) => {
              const name = wayText({ mode: 'bus', vehicleId: busId }, options);
              const number = options.buses.find((bus) => bus.id === busId)?.number;
              const state = busStateOfRiders(riders);
              const left = unreleased(riders);
              return (
                <Stack key={busId} gap={6} component="section" aria-label={name}>
                  <Group gap="xs" justify="space-between">
                    <Group gap="xs">
                      <Text fw={800} fz="md">
                        {name}
                      </Text>
                      <Badge
                        size="md"
                        tt="none"
                        color={state === 'loading' ? 'blue.9' : state === 'arrived' ? 'yellow.4' : 'gray.7'}
                        c={state === 'arrived' ? 'black' : undefined}
                      >
                        {BUS_STATE_TEXT[state]}
                      </Badge>
                    </Group>
                    <PressButton
                      label={RELEASE_RIDERS}
                      ariaLabel={`${RELEASE_RIDERS} of ${name}`}
                      press={{ mode: 'bus', vehicleId: busId, classroomIds }}
                      pending={left}
                      disabled={!sessionRunning}
                    />
                  </Group>
                  {state === 'loading' && left > 0 && number !== undefined && (
                    <Alert color="blue" variant="light" p="xs" role="status">
                      <Text fw={800}>{busLoadingText(number)}</Text>
                    </Alert>
                  )}
                  <Rows students={riders} options={options} />
                </Stack>
              );
            })}
          </Stack>
        </WaySection>

        <WaySection title="Walkers" count={counts.walker}>
          <Group justify="flex-end">
            <PressButton
              label={RELEASE_WALKERS}
              press={{ mode: 'walker', classroomIds }}
              pending={unreleased(of('walker'))}
              disabled={!sessionRunning}
            />
          </Group>
          <Rows students={of('walker')} options={options} />
        </WaySection>

        <WaySection title="Programs" count={counts.program}>
          <Stack gap="sm">
            {groupBy(of('program'), (student) => idOf(student).programId ?? 0).map(
              ([programId, children]) => {
                const name = wayText({ mode: 'program', programId }, options);
                return (
                  <Stack key={programId} gap={6} component="section" aria-label={name}>
                    <Group gap="xs" justify="space-between">
                      <Text fw={800} fz="md">
                        {name}
                      </Text>
                      <PressButton
                        label={sendToProgramText(name)}
                        press={{ mode: 'program', programId, classroomIds }}
                        pending={unreleased(children)}
                        disabled={!sessionRunning}
                      />
                    </Group>
                    <Rows students={children} options={options} />
                  </Stack>
                );
              },
            )}
          </Stack>
        </WaySection>

        <WaySection title="Absent" count={counts.absent}>
          <Rows students={of('absent')} options={options} />
        </WaySection>
      </Stack>
    </Card>
  );
}
