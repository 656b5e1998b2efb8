import { fullName, normalize, phoneDigits, type Student } from '../roster';
import type { RowError } from '../roster-import-basics';
import {
  addOnce,
  emptyPlan,
  groupBy,
  type ParentRecord,
  type PlanOutcome,
  parentIndex,
  repeats,
  Tracker,
  tempIds,
} from './plan';
import type { ImportRow } from './rows';

/** The plan of a parents file. */

export interface ParentImportContext {
  schoolId: number;
  parents: readonly ParentRecord[];
  students: readonly Student[];
}

/** `Ava Martinez (2)` → name `ava martinez`, grade `2`. */
const parseStudentName = (text: string) => {
  const match = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(text);
  return match
    ? { name: normalize(match[1]), grade: normalize(match[2]) }
    : { name: normalize(text), grade: null as string | null };
};

/**
 * A parents file: each row creates or updates a parent account the school
 * made (matched on email, else phone) and links it to the students of `studentNames`
 * (`First Last`, separated by `;`; `First Last (grade)` when two students share
 * a name).
 */
export const planParentImport = (
  rows: ReadonlyArray<ImportRow<'parents'>>,
  context: ParentImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const parents = new Tracker<ParentRecord>();
  const found = parentIndex(context.parents, context.schoolId);
  const byName = groupBy(
    context.students.filter((student) => student.active),
    (student) => normalize(fullName(student)),
  );
  const repeated = repeats();

  for (const row of rows) {
    const earlier = repeated(row.row, [
      row.email && `e:${normalize(row.email)}`,
      row.phone && `p:${phoneDigits(row.phone)}`,
    ]);
    if (earlier !== undefined) {
      errors.push({
        row: row.row,
        column: row.email ? 'email' : 'phone',
        message: `Same parent as row ${earlier}`,
      });
      continue;
    }
    const studentIds: number[] = [];
    let bad = false;
    for (const text of (row.studentNames ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const wanted = parseStudentName(text);
      const candidates = (byName.get(wanted.name) ?? []).filter(
        (student) => wanted.grade === null || normalize(student.grade) === wanted.grade,
      );
      if (candidates.length === 1) addOnce(studentIds, (candidates[0] as Student).id);
      else {
        bad = true;
        errors.push({
          row: row.row,
          column: 'studentNames',
          message:
            candidates.length === 0
              ? `No student named ${text}`
              : `${candidates.length} students are named ${text}; add the grade, e.g. ${text} (${candidates[0]?.grade})`,
        });
      }
    }
    if (bad) continue;
    const fields = {
      firstName: row.firstName,
      lastName: row.lastName,
      name: fullName(row),
      email: row.email,
      phone: row.phone,
      address: row.address,
      emergencyContact: row.emergencyContact,
      emergencyPhone: row.emergencyPhone,
      active: true,
    };
    const existing = found.find(row.email, row.phone);
    if (existing && existing.id < 0) continue; // cannot happen: same keys were refused above
    if (existing) {
      const parent = parents.edit(existing);
      const before = JSON.stringify(parent);
      Object.assign(parent, fields);
      for (const id of studentIds) addOnce(parent.studentIds, id);
      if (JSON.stringify(parent) === before) plan.counts.unchanged++;
      else plan.counts.updated++;
    } else {
      const parent = parents.add({
        id: nextId('user'),
        schoolId: context.schoolId,
        username: '',
        ...fields,
        studentIds,
        madeBySchoolId: context.schoolId,
      });
      found.add(parent);
      plan.counts.created++;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  plan.parents = parents.result();
  return { ok: true, plan };
};
