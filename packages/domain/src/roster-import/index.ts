/**
 * CSV import of the rosters (specification §3 "CSV templates"): the
 * templates' columns, the rules of each row, and the plan of what a file
 * changes. A file with any invalid row changes nothing; a valid one creates
 * what is new, updates what changed and leaves the rest, so importing the
 * same file twice changes nothing the second time. Rows are matched on a
 * natural key: student name + grade, teacher username or email, parent email
 * or phone (of accounts the school made), vehicle type + number. Links are only ever added by an import
 * (a child is never unlinked because a row leaves a column blank).
 *
 * One file per step, as `functions/src/services/sis/steps`: the columns, the
 * rows' rules, the plan and its bookkeeping, one planner per kind of file, the ids.
 */
export * from '../roster-import-basics';
export { columnKey, matchColumns } from './columns';
export { newIdCounts, remapIds } from './ids';
export { type ParentImportContext, planParentImport } from './parents';
export type { ImportPlan, ParentRecord, PlanOutcome, TeacherRecord } from './plan';
export {
  FIRST_DATA_ROW,
  type ImportRow,
  parentRowSchema,
  ROW_SCHEMAS,
  studentRowSchema,
  teacherRowSchema,
  validateRows,
  vehicleRowSchema,
} from './rows';
export { busForRoute, planStudentImport, type StudentImportContext } from './students';
export { planTeacherImport, type TeacherImportContext } from './teachers';
export { planVehicleImport, type VehicleImportContext } from './vehicles';
