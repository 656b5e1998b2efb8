import { z } from 'zod';
import type { DismissalChange, WayEvent } from './dismissal-changes';
import type { AuthorizedPickup, ParentInvite } from './parent-invites';
import type { PickupCode } from './pickup';
import type { Vehicle } from './queue';
import type { DismissalEvent } from './record';
import type { ParentContact, Person, Student } from './roster';
import type { WeeklyPlan } from './ways';

/**
 * A family's data, kept and erased as the law says (issue 55): a student's
 * export (`GET /api/students/{id}/export`) for a parent's request to inspect,
 * and their erasure (`POST /api/students/{id}/erase`), confirmed by typing
 * the student's first and last name.
 */

/** What the record says instead of an erased student's name. */
export const erasedStudentName = (id: number): string => `Erased student #${id}`;

export const eraseStudentSchema = z
  .object({
    confirm: z
      .string({ message: "Type the student's first and last name to erase them" })
      .max(200, { message: "Type the student's first and last name to erase them" }),
  })
  .strict();
export type EraseStudentInput = z.infer<typeof eraseStudentSchema>;

const plain = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether the typed text is the student's first and last name (spacing and case aside). */
export const confirmsErase = (student: { firstName: string; lastName: string }, confirm: string): boolean =>
  plain(confirm) !== '' && plain(confirm) === plain(`${student.firstName} ${student.lastName}`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites a stored item so it no longer names the student: a student object
 * of theirs (`{ id, firstName, lastName }`, or with `studentId`) says
 * "Erased student #id", and their full name, or first name and last initial,
 * in any text (a search field, a message) is replaced the same way. Anything
 * else is kept as it was.
 */
export const scrubStudent = <T>(
  value: T,
  student: { id: number; firstName: string; lastName: string },
): T => {
  const erased = erasedStudentName(student.id);
  const first = student.firstName.trim();
  const last = student.lastName.trim();
  const [f, l] = [escapeRegExp(first), escapeRegExp(last)];
  const patterns =
    first === ''
      ? []
      : last === ''
        ? [`\\b${f}\\b`]
        : [`${f}\\s+${l}`, `${l},?\\s+${f}`, `${f}\\s+${escapeRegExp(last.charAt(0))}\\.`];
  const names = patterns.length > 0 ? new RegExp(patterns.join('|'), 'gi') : null;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return names ? node.replace(names, erased) : node;
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(node)) out[key] = walk(inner);
    const theirs = out.studentId === student.id || (out.id === student.id && 'firstName' in out);
    if (theirs) {
      if ('firstName' in out) out.firstName = erased;
      if ('lastName' in out) out.lastName = '';
      if ('lastInitial' in out) out.lastInitial = '';
      if ('studentName' in out) out.studentName = erased;
    }
    return out;
  };
  return walk(value) as T;
};

/** Whether a stored event or entry names the student (by id, in a student object or a child's release). */
export const namesStudent = (value: unknown, studentId: number): boolean => {
  if (Array.isArray(value)) return value.some((inner) => namesStudent(inner, studentId));
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (record.studentId === studentId) return true;
  if (record.id === studentId && 'firstName' in record) return true;
  return Object.values(record).some((inner) => namesStudent(inner, studentId));
};

/**
 * Everything Curbside holds about a student (`GET /api/students/{id}/export`):
 * the roster's fields (with the guardians' contacts the school keeps), their
 * parents' accounts, the vehicles that carry them, who may pick them up,
 * their pickup code, invites, weekly plan and dated changes, the record of
 * their ways home, and every event of the dismissal record that names them
 * (kept for the school's retention days).
 */
export interface StudentExport {
  exportedAt: string;
  school: { id: number; name: string };
  student: Student;
  classroom: { id: number; name: string; grade: string } | null;
  parents: Array<Person & ParentContact>;
  vehicles: Array<Omit<Vehicle, 'schoolId'>>;
  authorizedPickups: AuthorizedPickup[];
  pickupCode: PickupCode | null;
  invites: ParentInvite[];
  plan: WeeklyPlan | null;
  changes: DismissalChange[];
  wayEvents: WayEvent[];
  dismissalEvents: DismissalEvent[];
}

/** `POST /api/students/{id}/erase`'s answer. */
export interface StudentErased {
  studentId: number;
  erasedAt: string;
  /** Parents who lost the link; those left with no child were deactivated. */
  parentsUnlinked: number;
  parentsDeactivated: number;
  /** Stored events, visits and marks of the record that named the student, now naming "Erased student #id". */
  recordItemsRewritten: number;
}
