import type { Classroom } from '../pickup';
import { fullName, normalize, usernameFromName } from '../roster';
import type { RowError } from '../roster-import-basics';
import {
  classroomFinder,
  emptyPlan,
  type PlanOutcome,
  repeats,
  sameFields,
  type TeacherRecord,
  Tracker,
  tempIds,
} from './plan';
import type { ImportRow } from './rows';

/** The plan of a teachers file. */

export interface TeacherImportContext {
  schoolId: number;
  teachers: readonly TeacherRecord[];
  classrooms: readonly Classroom[];
  /** Usernames of the file that belong to someone who is not a teacher of this school. */
  takenUsernames: ReadonlySet<string>;
}

/**
 * A teachers file: each row creates or updates a teacher (matched on
 * username, else email) and makes them the teacher of the named classroom
 * (created with the row's grade when missing). New teachers without a
 * username get one made from their name.
 */
export const planTeacherImport = (
  rows: ReadonlyArray<ImportRow<'teachers'>>,
  context: TeacherImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const teachers = new Tracker<TeacherRecord>();
  const classrooms = new Tracker<Classroom>();
  const rooms = classroomFinder(context.classrooms, classrooms, context.schoolId, nextId);
  const byUsername = new Map(context.teachers.map((t) => [normalize(t.username), t]));
  const byEmail = new Map(context.teachers.filter((t) => t.email).map((t) => [normalize(t.email), t]));
  const usernames = new Set([...context.takenUsernames].map(normalize));
  for (const teacher of context.teachers) usernames.add(normalize(teacher.username));
  const repeated = repeats();

  for (const row of rows) {
    const rowErrors: RowError[] = [];
    const earlier = repeated(row.row, [
      row.username && `u:${normalize(row.username)}`,
      row.email && `e:${normalize(row.email)}`,
    ]);
    if (earlier !== undefined) {
      errors.push({
        row: row.row,
        column: row.username ? 'username' : 'email',
        message: `Same teacher as row ${earlier}`,
      });
      continue;
    }
    const existing =
      (row.username ? byUsername.get(normalize(row.username)) : undefined) ??
      (row.email ? byEmail.get(normalize(row.email)) : undefined);
    if (!existing && row.username && context.takenUsernames.has(normalize(row.username))) {
      rowErrors.push({
        row: row.row,
        column: 'username',
        message: `Username ${row.username} is already taken`,
      });
    }
    if (!existing && !row.email && !row.username) {
      // Without either key a second import could not find this teacher again.
      rowErrors.push({ row: row.row, column: 'email', message: 'Email or username is required' });
    }
    const room = row.classroom ? rooms.byName(row.classroom, row.grade, row.row, rowErrors) : null;
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }
    const fields = {
      firstName: row.firstName,
      lastName: row.lastName,
      name: fullName(row),
      email: row.email,
      phone: row.phone,
      active: true,
    };
    let teacher: TeacherRecord;
    if (existing) {
      teacher = teachers.edit(existing);
      const same = sameFields(teacher, { ...teacher, ...fields }, [
        'firstName',
        'lastName',
        'name',
        'email',
        'phone',
        'active',
      ]);
      Object.assign(teacher, fields);
      if (same && (!room || room.teacherId === teacher.id)) plan.counts.unchanged++;
      else plan.counts.updated++;
    } else {
      let username = row.username ?? usernameFromName(row.firstName, row.lastName);
      if (!row.username) {
        const base = username;
        for (let n = 2; usernames.has(normalize(username)); n++) username = `${base}${n}`;
      }
      usernames.add(normalize(username));
      teacher = teachers.add({ id: nextId('user'), username, ...fields });
      byUsername.set(normalize(username), teacher);
      if (row.email) byEmail.set(normalize(row.email), teacher);
      plan.counts.created++;
    }
    if (room && room.teacherId !== teacher.id) {
      (room.id < 0 ? room : classrooms.edit(room)).teacherId = teacher.id;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  plan.teachers = teachers.result();
  plan.classrooms = classrooms.result();
  return { ok: true, plan };
};
