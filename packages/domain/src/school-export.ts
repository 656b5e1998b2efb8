import { type Program, type WayOptions, weeklyPlanText } from './dismissal-plans';
import type { Classroom } from './pickup';
import type { Vehicle } from './queue';
import type { SessionSummary } from './record';
import type { ParentContact, Person, Student } from './roster';
import { addDays, dateIn, instantIn } from './school-clock';
import type { PickupSession } from './session-schemas';
import type { WeeklyPlan } from './ways';

/**
 * A school's data export (Export Data, issue 50 item 13): its rosters and its
 * dismissals as CSV files, one set per school (the district's export is one
 * set per school of the district). Rows are built here, from the records;
 * the service writes them as CSV and the browser zips them.
 */
export interface SchoolExportInput {
  timeZone: string;
  students: readonly Student[];
  classrooms: readonly Classroom[];
  teachers: readonly Person[];
  parents: ReadonlyArray<Person & ParentContact & { studentIds: readonly number[] }>;
  vehicles: readonly Vehicle[];
  programs: readonly Program[];
  plans: ReadonlyMap<number, WeeklyPlan>;
  options: WayOptions;
  sessions: ReadonlyArray<PickupSession & { summary: SessionSummary | null }>;
}

export interface ExportFile {
  name: string;
  rows: string[][];
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const join = (list: readonly string[]) => list.join('; ');

/** A wait in whole seconds as `m:ss` (blank when unknown). */
const wait = (seconds: number | null) =>
  seconds === null ? '' : `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** A moment as the school's wall clock reads it: `2026-11-24 15:00`. */
const schoolTime = (iso: string | null, timeZone: string) => {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${dateIn(timeZone, at)} ${parts}`;
};

export const schoolExportFiles = (input: SchoolExportInput): ExportFile[] => {
  const rooms = new Map(input.classrooms.map((room) => [room.id, room]));
  const teachers = new Map(input.teachers.map((teacher) => [teacher.id, teacher]));
  const students = new Map(input.students.map((student) => [student.id, student]));
  const nameOf = (id: number) => {
    const student = students.get(id);
    return student ? `${student.firstName} ${student.lastName}` : null;
  };
  const ridesOf = (studentId: number) =>
    input.vehicles
      .filter((vehicle) => vehicle.active && vehicle.studentIds.includes(studentId))
      .map((vehicle) => (vehicle.type === 'bus' ? `Bus B${vehicle.number}` : `Car ${vehicle.number}`));
  const byName = <T extends { firstName: string; lastName: string }>(a: T, b: T) =>
    a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName);

  return [
    {
      name: 'students.csv',
      rows: [
        [
          'Student ID',
          'First Name',
          'Last Name',
          'Grade',
          'Classroom',
          'Teacher',
          'Way Home',
          'Vehicles',
          'Parent Name',
          'Parent Phone',
          'Parent Email',
          'Notes',
        ],
        ...[...input.students].sort(byName).map((student) => {
          const room = student.classroomId === null ? undefined : rooms.get(student.classroomId);
          const teacher = room?.teacherId ? teachers.get(room.teacherId) : undefined;
          return [
            text(student.id),
            student.firstName,
            student.lastName,
            student.grade,
            text(room?.name),
            text(teacher?.name),
            weeklyPlanText(input.plans.get(student.id) ?? null, input.options),
            join(ridesOf(student.id)),
            text(student.parentName),
            text(student.parentPhone),
            text(student.parentEmail),
            text(student.notes),
          ];
        }),
      ],
    },
    {
      name: 'classrooms.csv',
      rows: [
        ['Classroom ID', 'Name', 'Grade', 'Teacher', 'Students'],
        ...input.classrooms
          .filter((room) => room.active)
          .map((room) => [
            text(room.id),
            room.name,
            room.grade,
            text(room.teacherId ? teachers.get(room.teacherId)?.name : null),
            text(input.students.filter((student) => student.classroomId === room.id).length),
          ]),
      ],
    },
    {
      name: 'teachers.csv',
      rows: [
        ['Teacher ID', 'First Name', 'Last Name', 'Username', 'Email', 'Phone', 'Classrooms'],
        ...[...input.teachers]
          .filter((teacher) => teacher.active)
          .sort(byName)
          .map((teacher) => [
            text(teacher.id),
            teacher.firstName,
            teacher.lastName,
            teacher.username,
            text(teacher.email),
            text(teacher.phone),
            join(
              input.classrooms
                .filter((room) => room.active && room.teacherId === teacher.id)
                .map((room) => room.name),
            ),
          ]),
      ],
    },
    {
      name: 'parents.csv',
      rows: [
        [
          'Parent ID',
          'First Name',
          'Last Name',
          'Email',
          'Phone',
          'Address',
          'Emergency Contact',
          'Emergency Phone',
          'Children',
        ],
        ...[...input.parents]
          .filter((parent) => parent.active)
          .sort(byName)
          .map((parent) => [
            text(parent.id),
            parent.firstName,
            parent.lastName,
            text(parent.email),
            text(parent.phone),
            text(parent.address),
            text(parent.emergencyContact),
            text(parent.emergencyPhone),
            join(parent.studentIds.map(nameOf).filter((name): name is string => name !== null)),
          ]),
      ],
    },
    {
      name: 'vehicles.csv',
      rows: [
        [
          'Vehicle ID',
          'Type',
          'Number',
          'Make',
          'Model',
          'Color',
          'License Plate',
          'Family/Route',
          'Phone',
          'Students',
        ],
        ...input.vehicles
          .filter((vehicle) => vehicle.active)
          .map((vehicle) => [
            text(vehicle.id),
            vehicle.type === 'bus' ? 'Bus' : 'Car',
            vehicle.number,
            text(vehicle.make),
            text(vehicle.model),
            text(vehicle.color),
            text(vehicle.licensePlate),
            text(vehicle.parentName),
            text(vehicle.parentPhone),
            join(vehicle.studentIds.map(nameOf).filter((name): name is string => name !== null)),
          ]),
      ],
    },
    {
      name: 'programs.csv',
      rows: [
        ['Program ID', 'Name', 'Kind', 'Location', 'Offered'],
        ...input.programs.map((program) => [
          text(program.id),
          program.name,
          program.kind === 'after_care' ? 'After-care' : 'Activity',
          text(program.location),
          program.active ? 'Yes' : 'No',
        ]),
      ],
    },
    {
      name: 'dismissals.csv',
      rows: [
        [
          'Session ID',
          'Date',
          'Session',
          'Type',
          `Start (${input.timeZone})`,
          `End (${input.timeZone})`,
          'Vehicles',
          'Students Picked Up',
          'Median Wait',
          '90% Waited Under',
        ],
        ...[...input.sessions]
          .sort((a, b) => a.startTime.localeCompare(b.startTime))
          .map((session) => [
            text(session.id),
            dateIn(input.timeZone, Date.parse(session.startTime)),
            session.name,
            session.type === 'morning_dropoff' ? 'Morning Dropoff' : 'Afternoon Pickup',
            schoolTime(session.startTime, input.timeZone),
            schoolTime(session.endedAt ?? session.endTime, input.timeZone),
            text(session.summary?.cars ?? null),
            text(session.summary?.studentsPickedUp ?? null),
            wait(session.summary?.medianWaitSeconds ?? null),
            wait(session.summary?.p90WaitSeconds ?? null),
          ]),
      ],
    },
  ];
};

/** The instants that bound an export's dismissals: `from` to `to` inclusive, days of the school. */
export const exportRange = (timeZone: string, from: string, to: string) => ({
  from: new Date(instantIn(timeZone, from)).toISOString(),
  to: new Date(instantIn(timeZone, addDays(to, 1))).toISOString(),
});

/** What `GET /api/schools/{id}/export` answers: the school and its files as CSV text. */
export interface SchoolExport {
  schoolId: number;
  schoolName: string;
  timeZone: string;
  from: string;
  to: string;
  files: Array<{ name: string; csv: string }>;
}
