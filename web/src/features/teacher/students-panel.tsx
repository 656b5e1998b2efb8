import {
  type Classroom,
  elapsedSeconds,
  formatDuration,
  type TeacherStudent,
  vehicleLabel,
} from '@curbside/domain';
import {
  Badge,
  Box,
  Button,
  Card,
  CloseButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { BORDER, MUTED_TEXT, SUCCESS_TEXT } from '../../lib/theme';
import { AlsoAllowed } from '../authorized-pickups/also-allowed';
import { matchesStudentSearch, readyHighlight } from './roster';
import { BatchStatusBadge } from './student-badges';
import classes from './teacher.module.css';
import { useReleaseStudent } from './teacher.queries';

/** The student list scroll areas are at most 400 px high. */
export const STUDENT_LIST_MAX_HEIGHT = 400;

export interface StudentActions {
  /** Opens the vehicle details of a student who has a vehicle or bus. */
  onOpenVehicle: (student: TeacherStudent) => void;
  onOpenCode: (student: TeacherStudent) => void;
  /** Whether the user may make this student's pickup code (a teacher: their own classrooms' students). */
  codeAllowed: (student: TeacherStudent) => boolean;
}

/**
 * A list that scrolls inside at most 400 px; native scrolling, so a finger
 * flicks it like any list on the tablet.
 */
function ScrollBox({ children }: { children: ReactNode }) {
  return (
    <Box mah={STUDENT_LIST_MAX_HEIGHT} style={{ overflowY: 'auto', overscrollBehavior: 'contain' }}>
      {children}
    </Box>
  );
}

const fullName = (student: TeacherStudent) => `${student.firstName} ${student.lastName}`;

/** The vehicle plate beside a student: blue for cars, yellow for buses. */
function RidePlate({ student }: { student: TeacherStudent }) {
  if (!student.vehicle) {
    return (
      <Text fz="sm" fw={600} c={MUTED_TEXT} miw={64} ta="center">
        No vehicle
      </Text>
    );
  }
  const bus = student.vehicle.type === 'bus';
  return (
    <Box
      miw={64}
      px={6}
      py={2}
      ta="center"
      bg={bus ? 'yellow.4' : 'blue.9'}
      c={bus ? 'black' : 'white'}
      style={{ borderRadius: 'var(--mantine-radius-sm)', flexShrink: 0 }}
    >
      <Text fz={22} fw={900} lh={1.2}>
        <VisuallyHidden>{bus ? 'Bus ' : 'Car '}</VisuallyHidden>
        {vehicleLabel(student.vehicle.type, student.vehicle.number)}
      </Text>
    </Box>
  );
}

/** The name part takes the row's room; below 180 px the row's buttons wrap under it. */
const OPENER_STYLE = { flex: '1 1 180px', minWidth: 0 } as const;

/**
 * The name part of a student row: a button that opens the vehicle details
 * when the student has a vehicle or bus, plain text otherwise.
 */
function StudentOpener({
  student,
  onOpenVehicle,
  children,
}: {
  student: TeacherStudent;
  onOpenVehicle: (student: TeacherStudent) => void;
  children: ReactNode;
}) {
  const body = (
    <Group wrap="nowrap" gap="sm" mih={52}>
      <RidePlate student={student} />
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        {children}
        <AlsoAllowed students={[student]} />
      </Stack>
    </Group>
  );
  if (!student.vehicle) {
    return (
      <Box style={OPENER_STYLE} data-openable="false">
        {body}
      </Box>
    );
  }
  return (
    <UnstyledButton
      onClick={() => onOpenVehicle(student)}
      style={{ ...OPENER_STYLE, borderRadius: 'var(--mantine-radius-sm)' }}
      aria-haspopup="dialog"
      data-openable="true"
    >
      {body}
    </UnstyledButton>
  );
}

/** 'Pickup Code' for a student, only where the user may make their code. */
function CodeButton({
  student,
  name,
  onOpenCode,
  codeAllowed,
  ...layout
}: { student: TeacherStudent; name: string; ml?: string; style?: CSSProperties } & Pick<
  StudentActions,
  'onOpenCode' | 'codeAllowed'
>) {
  if (!codeAllowed(student)) return null;
  return (
    <Button
      variant="outline"
      color="var(--mantine-color-text)"
      px="sm"
      {...layout}
      onClick={() => onOpenCode(student)}
      aria-label={`Pickup Code for ${name}`}
    >
      Pickup Code
    </Button>
  );
}

export function ReadyRow({
  student,
  now,
  onOpenVehicle,
  onOpenCode,
  codeAllowed,
}: { student: TeacherStudent; now: number } & StudentActions) {
  const release = useReleaseStudent();
  const highlight = readyHighlight(student.queueTime, now);
  const justArrived = highlight === 'just-arrived';
  const name = fullName(student);
  return (
    <Paper
      radius="md"
      p={justArrived ? 'md' : 'sm'}
      className={classes.ready}
      data-highlight={highlight}
      data-student-id={student.id}
      role="listitem"
      aria-label={name}
    >
      <Stack gap="xs">
        {justArrived && (
          <Badge size="xl" color="orange.9" tt="none" className={classes.justArrived} fullWidth radius="sm">
            JUST ARRIVED!
          </Badge>
        )}
        <Group wrap="nowrap">
          <StudentOpener student={student} onOpenVehicle={onOpenVehicle}>
            <Text fw={900} fz={justArrived ? 26 : 20} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
            <Text fz="sm" fw={700} c={MUTED_TEXT}>
              {student.queueTime ? `Waiting ${formatDuration(elapsedSeconds(student.queueTime, now))}` : ''}
            </Text>
          </StudentOpener>
        </Group>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <BatchStatusBadge student={student} />
          <Group gap="xs" wrap="nowrap" ml="auto">
            <CodeButton student={student} name={name} onOpenCode={onOpenCode} codeAllowed={codeAllowed} />
            {student.releasedAt ? (
              <Badge
                size="xl"
                h={50}
                // Readable on the row's tint in every theme (dark: a light green).
                color={SUCCESS_TEXT}
                variant="outline"
                radius="md"
                tt="none"
                title={student.releasedBy ? `Released by ${student.releasedBy}` : 'Released'}
              >
                {student.releasedBy ? `Released by ${student.releasedBy}` : 'Released'}
              </Badge>
            ) : (
              <Button
                color="green.9"
                px="md"
                loading={release.isPending}
                onClick={() => release.mutate(student)}
                aria-label={`Release ${name}`}
              >
                Release
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Ready students (the cars being loaded now first), each with Pickup Code and Release, scrolling inside 400 px. */
export function ReadyList({
  students,
  now,
  ...actions
}: { students: TeacherStudent[]; now: number } & StudentActions) {
  return (
    <ScrollBox>
      <Stack gap="sm" p={6} role="list" aria-label="Ready students">
        {students.map((student) => (
          <ReadyRow key={student.id} student={student} now={now} {...actions} />
        ))}
      </Stack>
    </ScrollBox>
  );
}

function InClassRow({
  student,
  onOpenVehicle,
  onOpenCode,
  codeAllowed,
}: { student: TeacherStudent } & StudentActions) {
  const name = fullName(student);
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      role="listitem"
      aria-label={name}
      data-student-id={student.id}
      style={{ borderWidth: 2, borderColor: BORDER }}
    >
      <Group wrap="wrap" gap="xs">
        <StudentOpener student={student} onOpenVehicle={onOpenVehicle}>
          <Text fw={800} fz="lg" lh={1.25} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          {student.vehicle?.parentName && (
            <Text fz="sm" c={MUTED_TEXT} style={{ overflowWrap: 'anywhere' }}>
              {student.vehicle.parentName}
            </Text>
          )}
        </StudentOpener>
        <CodeButton
          student={student}
          name={name}
          onOpenCode={onOpenCode}
          codeAllowed={codeAllowed}
          ml="auto"
          style={{ flexShrink: 0 }}
        />
      </Group>
    </Paper>
  );
}

interface StudentsPanelProps extends StudentActions {
  classroom: Classroom;
  /** The classroom's students whose vehicle is in the queue, the cars being loaded now first. */
  ready: TeacherStudent[];
  /** The classroom's students in class (not in the queue, not picked up). */
  inClass: TeacherStudent[];
  now: number;
}

/**
 * 'Students' of one classroom: 'Ready for Pickup' (the cars being loaded now first, highlighted
 * by wait, each with Release) and 'In Class' with a name search.
 */
export function StudentsPanel({ classroom, ready, inClass, now, ...actions }: StudentsPanelProps) {
  const [search, setSearch] = useState('');
  const found = inClass.filter((student) => matchesStudentSearch(student, search));
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label={`Students: ${classroom.name}`}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={2} fz="xl">
              Students
            </Title>
            <Text fz="md" fw={600} c={MUTED_TEXT}>
              {`${classroom.name} · Grade ${classroom.grade}`}
            </Text>
          </Stack>
          <Badge
            size="xl"
            tt="none"
            color={ready.length > 0 ? 'green.9' : 'gray.7'}
            style={{ flexShrink: 0 }}
          >
            {`Ready: ${ready.length}`}
          </Badge>
        </Group>

        <Stack gap="xs" component="section" aria-label="Ready for Pickup">
          <Title order={3} fz="lg">
            Ready for Pickup
          </Title>
          {ready.length === 0 ? (
            <Text c={MUTED_TEXT} fz="md">
              No students ready for pickup
            </Text>
          ) : (
            <ReadyList students={ready} now={now} {...actions} />
          )}
        </Stack>

        <Stack gap="xs" component="section" aria-label="In Class">
          <Group justify="space-between" gap="xs">
            <Title order={3} fz="lg">
              In Class
            </Title>
            <Badge size="lg" variant="outline" color="var(--mantine-color-text)">
              {inClass.length}
            </Badge>
          </Group>
          <TextInput
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            placeholder="Find student..."
            aria-label={`Find student in ${classroom.name}`}
            rightSectionWidth={56}
            rightSection={
              <CloseButton
                size="xl"
                aria-label="Clear student search"
                disabled={!search}
                onClick={() => setSearch('')}
              />
            }
          />
          {found.length === 0 ? (
            <Text c={MUTED_TEXT} fz="md">
              {inClass.length === 0 ? 'No students in class' : 'No students match your search'}
            </Text>
          ) : (
            <ScrollBox>
              <Stack gap="xs" p={2} role="list" aria-label="Students in class">
                {found.map((student) => (
                  <InClassRow key={student.id} student={student} {...actions} />
                ))}
              </Stack>
            </ScrollBox>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
