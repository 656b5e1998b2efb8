import * as z from 'zod';

/**
 * The student-information-system (Clever) import: what the import page shows
 * and sends (specification §3 "Import service", §7 "Import service"), and the
 * import jobs that do the work.
 */

/** A Clever district the app may read: id, name, state (spec §3: Clever's sync status, `success` when its data is current). */
export interface SisDistrict {
  id: string;
  name: string;
  state: string;
}

/**
 * A Clever district that shares its data with the app, as the super admin
 * assigns it: with the Curbside district it is assigned to (null: none yet;
 * a district admin sees only the one assigned to their district).
 */
export interface SisDistrictAssignment extends SisDistrict {
  districtId: number | null;
}

/** A Clever school: id, name (spec §3). */
export interface SisSchool {
  id: string;
  name: string;
}

export interface SisStudentPreviewRow {
  cleverId: string;
  firstName: string;
  lastName: string;
  grade: string;
  studentNumber: string;
  email?: string;
}

/** Student preview: the first 10 students and how many the school has (spec §3, §9). */
export interface SisStudentPreview {
  totalCount: number;
  preview: SisStudentPreviewRow[];
}

export const SIS_PREVIEW_SIZE = 10;

const cleverIdSchema = z
  .string({ message: 'A Clever id is required' })
  .trim()
  .min(1, 'A Clever id is required')
  .max(64, 'That is not a Clever id')
  .regex(/^[A-Za-z0-9_-]+$/, 'That is not a Clever id');

const localIdSchema = (message: string) =>
  z.coerce
    .number({ message })
    .int({ message })
    .min(1, message)
    .max(2 ** 31, message);

export const sisSchoolsQuerySchema = z.object({ districtId: cleverIdSchema });
export const sisPreviewQuerySchema = z.object({ cleverSchoolId: cleverIdSchema });
export const sisImportDistrictSchema = z.object({ cleverDistrictId: cleverIdSchema });
/** The super admin assigns a Clever district to a Curbside district (`PUT /api/districts/{id}/clever`). */
export const sisAssignDistrictSchema = z.object({ cleverDistrictId: cleverIdSchema });
export const sisImportSchoolSchema = z.object({
  cleverSchoolId: cleverIdSchema,
  localDistrictId: localIdSchema('A district is required'),
});
export const sisImportStudentsSchema = z.object({
  cleverSchoolId: cleverIdSchema,
  localSchoolId: localIdSchema('A school is required'),
  createMissingClassrooms: z.boolean().default(true),
});

export const IMPORT_JOB_KINDS = ['district', 'school', 'students', 'sync'] as const;
export type ImportJobKind = (typeof IMPORT_JOB_KINDS)[number];
export type ImportJobStatus = 'running' | 'succeeded' | 'failed';

/** What an import did to one kind of record. */
export interface ImportTally {
  created: number;
  updated: number;
  unchanged: number;
  deactivated: number;
}
export const SIS_RECORD_KINDS = ['schools', 'teachers', 'classrooms', 'students', 'parents'] as const;
export type SisRecordKind = (typeof SIS_RECORD_KINDS)[number];
export type SisCounts = Record<SisRecordKind, ImportTally>;

export const emptyCounts = (): SisCounts => ({
  schools: { created: 0, updated: 0, unchanged: 0, deactivated: 0 },
  teachers: { created: 0, updated: 0, unchanged: 0, deactivated: 0 },
  classrooms: { created: 0, updated: 0, unchanged: 0, deactivated: 0 },
  students: { created: 0, updated: 0, unchanged: 0, deactivated: 0 },
  parents: { created: 0, updated: 0, unchanged: 0, deactivated: 0 },
});

/** An import job, as `GET /api/import-jobs/{id}` answers it. */
export interface ImportJob {
  id: string;
  kind: ImportJobKind;
  status: ImportJobStatus;
  /** What it is doing now, or what it did ('Imported 512 students, 25 teachers…'). */
  message: string;
  /** 0–100. */
  percent: number;
  /** Students read so far and the school's total (once known). */
  done: number;
  total: number | null;
  counts: SisCounts;
  /** The local district and school it imports into. */
  districtId: number | null;
  schoolId: number | null;
  /** Why it stopped (failed jobs keep what they finished and can be resumed). */
  error: string | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/**
 * A running import whose run saved nothing for this long has lost its run
 * (its runtime stopped: a restart, a crash): it is stalled, and may be
 * resumed from its checkpoint. A run saves after every page it reads.
 */
export const IMPORT_RUN_STALE_MS = 5 * 60_000;

/** Whether `job` says running but has not moved for `IMPORT_RUN_STALE_MS` (at `now`, epoch ms). */
export const isStalledImport = (job: Pick<ImportJob, 'status' | 'updatedAt'>, now = Date.now()): boolean =>
  job.status === 'running' && now - Date.parse(job.updatedAt) > IMPORT_RUN_STALE_MS;

/** Whole minutes a stalled job has not moved (at least the stale limit's). */
export const stalledMinutes = (job: Pick<ImportJob, 'updatedAt'>, now = Date.now()): number =>
  Math.max(IMPORT_RUN_STALE_MS / 60_000, Math.floor((now - Date.parse(job.updatedAt)) / 60_000));

/** The answer of an import request: a message for the toast and the job that does the work. */
export interface ImportStarted {
  message: string;
  job: ImportJob;
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

const KIND_NAMES: Record<SisRecordKind, [string, string]> = {
  schools: ['school', 'schools'],
  teachers: ['teacher', 'teachers'],
  classrooms: ['classroom', 'classrooms'],
  students: ['student', 'students'],
  parents: ['parent', 'parents'],
};

/**
 * The final message of an import: what it created, updated and deactivated,
 * kind by kind ('Imported 512 students: 500 new, 12 updated; 25 teachers…'),
 * or 'Nothing changed' when all was already up to date.
 */
export const summarizeCounts = (counts: SisCounts): string => {
  const parts = SIS_RECORD_KINDS.flatMap((kind) => {
    const tally = counts[kind];
    const seen = tally.created + tally.updated + tally.unchanged;
    if (seen === 0 && tally.deactivated === 0) return [];
    const changes = [
      tally.created > 0 ? `${tally.created.toLocaleString('en-US')} new` : '',
      tally.updated > 0 ? `${tally.updated.toLocaleString('en-US')} updated` : '',
      tally.deactivated > 0 ? `${tally.deactivated.toLocaleString('en-US')} deactivated` : '',
    ].filter(Boolean);
    const [one, many] = KIND_NAMES[kind];
    return [`${plural(seen, one, many)}${changes.length > 0 ? ` (${changes.join(', ')})` : ''}`];
  });
  const changed = SIS_RECORD_KINDS.some(
    (kind) => counts[kind].created + counts[kind].updated + counts[kind].deactivated > 0,
  );
  if (parts.length === 0) return 'Nothing to import';
  return `${changed ? 'Imported' : 'Up to date, nothing changed:'} ${parts.join(', ')}`;
};

/** Clever's grade names (v3.0) as the rosters write grades: 'Kindergarten' → 'K', '3' → '3'. */
const GRADES: Record<string, string> = {
  InfantToddler: 'IT',
  Preschool: 'PS',
  PreKindergarten: 'PK',
  TransitionalKindergarten: 'TK',
  Kindergarten: 'K',
  PostGraduate: 'PG',
  Ungraded: '',
  Other: '',
};
export const gradeFromSis = (grade: string | undefined | null): string => {
  if (!grade) return '';
  const known = GRADES[grade];
  if (known !== undefined) return known;
  return /^\d+$/.test(grade) ? String(Number(grade)) : grade.slice(0, 20);
};

/** A person's name from the SIS, trimmed and bounded as the rosters keep it; a missing part is ''. */
export const namesFromSis = (name: { first?: string; last?: string } | undefined) => {
  const firstName = (name?.first ?? '').trim().slice(0, 100);
  const lastName = (name?.last ?? '').trim().slice(0, 100);
  return { firstName, lastName, name: `${firstName} ${lastName}`.trim() };
};

/** The fields an import keeps in sync; equal when nothing changed (so a repeat import writes nothing). */
export const sameFields = <T extends object>(current: T, wanted: Partial<T>): boolean =>
  Object.entries(wanted).every(([key, value]) => {
    const had = (current as Record<string, unknown>)[key];
    if (Array.isArray(value) && Array.isArray(had)) {
      return value.length === had.length && [...value].sort().join() === [...had].sort().join();
    }
    return (had ?? null) === (value ?? null);
  });

/** A school's import, step by step: each step reads Clever's pages of one kind of record. */
export const SIS_SCHOOL_STEPS = ['teachers', 'sections', 'students', 'contacts', 'retire'] as const;
export type SisSchoolStep = (typeof SIS_SCHOOL_STEPS)[number];

/** Where an import job is: the school (index into its list), the step, and the page within it. */
export interface SisCheckpoint {
  school: number;
  step: string;
  /** The Clever id to read after (`starting_after`); null: from the start. */
  after: string | null;
  /** Pages of this step done so far. */
  page: number;
  /** The last school whose students were counted (for the total). */
  counted?: number;
}

/**
 * Where a school's import goes after a page: the same step's next page (Clever named
 * one: `next`), else the school's next step, else the first step of the next school.
 */
export const nextCheckpoint = (checkpoint: SisCheckpoint, next: string | null): SisCheckpoint => {
  const { counted } = checkpoint;
  if (next) return { ...checkpoint, after: next, page: checkpoint.page + 1 };
  const following = SIS_SCHOOL_STEPS[SIS_SCHOOL_STEPS.indexOf(checkpoint.step as SisSchoolStep) + 1];
  return following
    ? { school: checkpoint.school, step: following, after: null, page: 0, counted }
    : { school: checkpoint.school + 1, step: 'teachers', after: null, page: 0, counted };
};

/** How much of a school's import each step is, in percent. */
const STEP_SHARE: Record<SisSchoolStep, number> = {
  teachers: 5,
  sections: 5,
  students: 55,
  contacts: 30,
  retire: 5,
};
const STEP_MESSAGE: Record<SisSchoolStep, string> = {
  teachers: 'Importing teachers…',
  sections: 'Importing classrooms…',
  students: 'Importing students…',
  contacts: 'Importing parents…',
  retire: 'Deactivating what the student-information system no longer lists…',
};

/** How far a job of `schoolCount` schools is at `checkpoint`, `fraction` of the way through its step (never 100 before it is done). */
export const importPercent = (checkpoint: SisCheckpoint, schoolCount: number, fraction: number): number => {
  if (schoolCount === 0) return 0;
  const index = SIS_SCHOOL_STEPS.indexOf(checkpoint.step as SisSchoolStep);
  const before = SIS_SCHOOL_STEPS.slice(0, Math.max(0, index)).reduce(
    (sum, step) => sum + STEP_SHARE[step],
    0,
  );
  const within = index >= 0 ? STEP_SHARE[checkpoint.step as SisSchoolStep] * Math.min(1, fraction) : 0;
  return Math.min(99, Math.floor(((checkpoint.school + (before + within) / 100) / schoolCount) * 100));
};

/**
 * The progress a job shows after a page: students by how many were read of the total
 * ('Importing students: 1,200 of 1,500'); other steps by pages (a guess) with the step's message.
 */
export const importProgress = (
  checkpoint: SisCheckpoint,
  job: Pick<ImportJob, 'done' | 'total' | 'message'>,
  schoolCount: number,
): { message: string; percent: number } => {
  const step = checkpoint.step as SisSchoolStep;
  const pages = checkpoint.page / (checkpoint.page + 2);
  const fraction = step === 'students' && job.total ? job.done / job.total : pages;
  const message =
    step === 'students' && job.done > 0 && job.total
      ? `Importing students: ${job.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')}`
      : (STEP_MESSAGE[step] ?? job.message);
  return { message, percent: importPercent(checkpoint, schoolCount, fraction) };
};
