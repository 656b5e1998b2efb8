import { localDateTime } from '../district-report';
import type { ReleasesByWay, ReportActor, ReportPickup, ReportStudent, ReportWayRelease } from '../record';
import type { ReleasedWay } from '../way-calls';
import { actorDisplayName } from './actors';
import { pickupWaitSeconds } from './waits';

/** The report's CSV: its columns, its rows, the labels it shares with the screen. */

const actorLabel = (actor: ReportActor | null): string =>
  actor === null
    ? ''
    : 'kind' in actor
      ? actorDisplayName(actor)
      : `${actorDisplayName(actor)} (${actor.role.replaceAll('_', ' ')})`;

/** What the report and its CSV say of a child completed while not released. */
export const COMPLETED_WITHOUT_RELEASE = "Completed without a teacher's release";

/** The CSV's columns; the times are the school's (`timeZone`), named in their headers. */
export const sessionReportHeader = (timeZone: string) => [
  'Vehicle',
  'Type',
  'Outcome',
  'Student ID',
  'First Name',
  'Last Name',
  'Grade',
  'Classroom',
  `Queued At (${timeZone})`,
  'Queued By',
  `Released At (${timeZone})`,
  'Released By',
  `Picked Up At (${timeZone})`,
  'Completed By',
  'Wait Seconds',
  'Way Home',
];

/** A way as the report's Way Home column names it: `Car`, `Bus B3`, `Walker`, `Kids Club`. */
const wayHomeLabel = (way: ReleasedWay | { mode: 'car' | 'bus'; name: string }) =>
  way.mode === 'walker' ? 'Walker' : way.name;

/** The Releases by way home lines of a report (issue 52): `Car riders 12`, … */
export const RELEASES_BY_WAY_LABELS: ReadonlyArray<[keyof ReleasesByWay, string]> = [
  ['car', 'Car riders'],
  ['bus', 'Bus riders'],
  ['walker', 'Walkers'],
  ['program', 'Programs'],
];

/**
 * The report's CSV rows (header first): one row per student of each pickup
 * (with that child's own release, or "Completed without a teacher's
 * release"), a vehicle without students on one row; then one row per student
 * released by way home outside any visit (walkers, programs: outcome
 * `released`); each row names the way home (`Way Home`), so a spreadsheet
 * counts the releases by way home. Times in `timeZone` (`2026-11-24 15:02:07`).
 */
export const sessionReportCsvRows = (
  pickups: readonly ReportPickup[],
  timeZone: string,
  wayReleases: readonly ReportWayRelease[] = [],
): Array<Array<string | number | null>> => {
  const local = (iso: string | null) =>
    iso === null ? null : localDateTime(iso, timeZone, { seconds: true, zoneName: false });
  return [
    sessionReportHeader(timeZone),
    ...pickups.flatMap((pickup) => {
      const students: Array<ReportStudent | null> = pickup.students.length > 0 ? pickup.students : [null];
      return students.map((student) => [
        pickup.vehicleNumber,
        pickup.vehicleType,
        pickup.outcome ?? 'in_queue',
        student?.id ?? null,
        student?.firstName ?? null,
        student?.lastName ?? null,
        student?.grade ?? null,
        student?.classroom ?? null,
        local(pickup.queuedAt),
        actorLabel(pickup.queuedBy),
        local(student?.releasedAt ?? null),
        student?.completedWithoutRelease
          ? COMPLETED_WITHOUT_RELEASE
          : actorLabel(student?.releasedBy ?? null),
        local(pickup.pickedUpAt),
        actorLabel(pickup.completedBy),
        pickupWaitSeconds(pickup),
        wayHomeLabel({
          mode: pickup.vehicleType,
          name: pickup.vehicleType === 'bus' ? `Bus B${pickup.vehicleNumber}` : 'Car',
        }),
      ]);
    }),
    ...wayReleases.flatMap((release) =>
      release.students.map((student) => [
        release.way.mode === 'bus' ? release.way.name.replace(/^Bus B/, '') : null,
        release.way.mode,
        'released',
        student.id,
        student.firstName,
        student.lastName,
        student.grade,
        student.classroom,
        null,
        null,
        local(release.at),
        actorLabel(release.by),
        null,
        null,
        null,
        wayHomeLabel(release.way),
      ]),
    ),
  ];
};
