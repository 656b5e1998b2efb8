import * as z from 'zod';
import { VEHICLE_TYPES } from '../queue';
import { vehicleNumberSchema } from '../queue-schemas';
import {
  gradeSchema,
  optionalEmail,
  optionalGradeSchema,
  optionalPhone,
  optionalText,
  requiredText,
  usernameSchema,
} from '../roster';
import type { ImportKind, RowError } from '../roster-import-basics';

/** Row rules: each template's cells as a zod schema, and the check of every row of a file. */

const cell = optionalText;
const required = requiredText;
const phone = optionalPhone;
const email = optionalEmail;
const optionalNumber = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : null))
  .pipe(vehicleNumberSchema.nullable());

export const studentRowSchema = z.object({
  firstName: required('First name', 50),
  lastName: required('Last name', 50),
  grade: gradeSchema,
  parentName: cell('Parent name', 100),
  parentPhone: phone('Parent phone'),
  parentEmail: email('Parent email'),
  vehicleNumber: optionalNumber,
  busRoute: cell('Bus route', 30),
  notes: cell('Notes', 500),
  classroom: cell('Classroom', 50),
  /** The student's weekly way home (issue 51): `car`, `walker`, `bus:<number>`, `program:<name>`, or five with `|`. */
  dismissal: cell('Dismissal', 300),
});
export const teacherRowSchema = z.object({
  firstName: required('First name', 50),
  lastName: required('Last name', 50),
  email: email('Email'),
  phone: phone('Phone'),
  grade: optionalGradeSchema,
  classroom: cell('Classroom', 50),
  username: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .pipe(usernameSchema.nullable()),
});
export const parentRowSchema = z
  .object({
    firstName: required('First name', 50),
    lastName: required('Last name', 50),
    email: email('Email'),
    phone: phone('Phone'),
    address: cell('Address', 200),
    emergencyContact: cell('Emergency contact', 100),
    emergencyPhone: phone('Emergency phone'),
    studentNames: cell('Student names', 1000),
  })
  .refine((row) => row.email !== null || row.phone !== null, {
    message: 'Email or phone is required',
    path: ['email'],
  });
export const vehicleRowSchema = z.object({
  number: vehicleNumberSchema,
  type: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value) => value || 'car')
    .pipe(z.enum(VEHICLE_TYPES, { message: 'Type must be car or bus' })),
  make: cell('Make', 50),
  model: cell('Model', 50),
  color: cell('Color', 30),
  licensePlate: cell('License plate', 20),
  parentName: cell('Parent name', 100),
  parentPhone: phone('Parent phone'),
  notes: cell('Notes', 500),
});

export const ROW_SCHEMAS = {
  students: studentRowSchema,
  teachers: teacherRowSchema,
  parents: parentRowSchema,
  vehicles: vehicleRowSchema,
} as const;
export type ImportRow<K extends ImportKind> = z.output<(typeof ROW_SCHEMAS)[K]> & { row: number };

/** The first row of a file is its header: data rows start at spreadsheet row 2. */
export const FIRST_DATA_ROW = 2;

/**
 * Checks every row of a parsed file; answers the valid rows (with their
 * spreadsheet row numbers) and an error for every bad cell.
 */
export const validateRows = <K extends ImportKind>(
  kind: K,
  records: ReadonlyArray<Record<string, string | undefined>>,
): { rows: Array<ImportRow<K>>; errors: RowError[] } => {
  const schema = ROW_SCHEMAS[kind];
  const rows: Array<ImportRow<K>> = [];
  const errors: RowError[] = [];
  records.forEach((record, index) => {
    const row = index + FIRST_DATA_ROW;
    const result = schema.safeParse(record);
    if (result.success) {
      rows.push({ ...(result.data as z.output<(typeof ROW_SCHEMAS)[K]>), row });
      return;
    }
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const column = typeof issue.path[0] === 'string' ? issue.path[0] : null;
      const key = `${column}`;
      if (seen.has(key)) continue; // one message per cell
      seen.add(key);
      errors.push({ row, column, message: issue.message });
    }
  });
  return { rows, errors };
};
