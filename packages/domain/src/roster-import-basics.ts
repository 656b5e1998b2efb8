import type { Vehicle } from './queue';

/**
 * What the screens, the route table and the roster forms share with the CSV
 * import: the kinds of file, their templates and limits, what an import
 * answers, the rule for a student's car. The import's own rules and planning
 * (`roster-import.ts`, `@curbside/domain/roster-import`) are apart, so that a
 * function loads them with the first import, not at its cold start (ADR 0019).
 */
export const IMPORT_KINDS = ['students', 'teachers', 'parents', 'vehicles'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The templates' columns, in order, exactly as the specification lists them. */
export const CSV_TEMPLATES: Readonly<Record<ImportKind, readonly string[]>> = {
  students: [
    'firstName',
    'lastName',
    'grade',
    'parentName',
    'parentPhone',
    'parentEmail',
    'vehicleNumber',
    'busRoute',
    'notes',
  ],
  teachers: ['firstName', 'lastName', 'email', 'phone', 'grade', 'classroom', 'username'],
  parents: [
    'firstName',
    'lastName',
    'email',
    'phone',
    'address',
    'emergencyContact',
    'emergencyPhone',
    'studentNames',
  ],
  vehicles: [
    'number',
    'type',
    'make',
    'model',
    'color',
    'licensePlate',
    'parentName',
    'parentPhone',
    'notes',
  ],
};

/** Columns a file may add to the template (a student's classroom by name, their weekly way home). */
export const OPTIONAL_COLUMNS: Readonly<Record<ImportKind, readonly string[]>> = {
  students: ['classroom', 'dismissal'],
  teachers: [],
  parents: [],
  vehicles: [],
};

/**
 * Optional columns the downloaded template shows after the specification's
 * (issue 51: the students' `dismissal`); a file without them still imports.
 */
export const TEMPLATE_EXTRAS: Readonly<Record<ImportKind, readonly string[]>> = {
  students: ['dismissal'],
  teachers: [],
  parents: [],
  vehicles: [],
};

/** The template a school downloads: the header row, then a line end. */
export const csvTemplate = (kind: ImportKind): string =>
  `${[...CSV_TEMPLATES[kind], ...TEMPLATE_EXTRAS[kind]].join(',')}\r\n`;

/** A bad cell or row; `row` is the spreadsheet's row number (the header is row 1). */
export interface RowError {
  row: number;
  column: string | null;
  message: string;
}

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** What an import did: rows created, updated and unchanged, and what came along. */
export interface ImportResult extends ImportCounts {
  /** Records made or changed besides the file's own (classrooms, cars, parents, links). */
  also: {
    classroomsCreated: number;
    vehiclesCreated: number;
    vehiclesUpdated: number;
    parentsCreated: number;
    parentsUpdated: number;
  };
  /** New teachers' sign-ins, shown once. */
  credentials: Array<{ name: string; username: string; password: string }>;
}

export const NO_SIDE_EFFECTS: ImportResult['also'] = {
  classroomsCreated: 0,
  vehiclesCreated: 0,
  vehiclesUpdated: 0,
  parentsCreated: 0,
  parentsUpdated: 0,
};

/** At most this many rows in one file (one request; see the import dialog for larger schools). */
export const IMPORT_MAX_ROWS = 5000;
/** At most this many characters in one file (the laptop gateway takes 1 MB a request). */
export const IMPORT_MAX_CHARS = 1_000_000;

/**
 * One rule for a student's car, in Add / Edit Student and in the students
 * CSV alike: a car number that is not on the school's list is registered
 * (the student's parent as its contact) and a deactivated one comes back; a
 * bus must be one of the school's (a route, not a family's number).
 */
export const carForStudent = (
  schoolId: number,
  number: string,
  contact: { parentName: string | null; parentPhone: string | null },
  studentIds: number[] = [],
): Omit<Vehicle, 'id'> => ({
  schoolId,
  number,
  type: 'car',
  active: true,
  parentName: contact.parentName,
  parentPhone: contact.parentPhone,
  alternateContactName: null,
  alternateContactPhone: null,
  make: null,
  model: null,
  color: null,
  licensePlate: null,
  notes: null,
  studentIds,
});
