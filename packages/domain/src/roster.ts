import * as z from 'zod';
import { type StudentSummary, VEHICLE_TYPES, type Vehicle, type VehicleType } from './queue';
import { vehicleNumberSchema } from './queue-schemas';
import type { User } from './schemas';
import type { WeeklyPlan } from './ways';

/**
 * The school's rosters: students, teachers, parents, vehicles and classrooms
 * (specification §2 "School admin screen", §3). Records are deactivated, never
 * deleted: a deactivated record leaves the lists and the car line but stays
 * for history (queue entries keep their own snapshots).
 */

/** A student of a school, as the store keeps them. */
export interface Student extends StudentSummary {
  schoolId: number;
  active: boolean;
  /** Contact on file, from the students template (the parent's account is separate). */
  parentName: string | null;
  parentPhone: string | null;
  parentEmail: string | null;
  notes: string | null;
  /** The student's id in the student-information system (Clever), once imported from it. */
  cleverId?: string;
}

/** A vehicle or bus as a roster row: the vehicle and the students it collects. */
export interface RosterRef {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
}
export interface StudentRow extends Student {
  classroom: { id: number; name: string } | null;
  /** The cars and buses that collect the student. */
  vehicles: Array<{ id: number; type: VehicleType; number: string }>;
  /** Their default weekly way home (issue 51); null: none set, a car rider every day. */
  dismissalPlan: WeeklyPlan | null;
}
/**
 * A person the rosters keep: a teacher's or a parent's account as the lists show it and the
 * imports match it. One type, one mapping from a user (`personOf`), for both kinds.
 */
export interface Person {
  id: number;
  firstName: string;
  lastName: string;
  name: string;
  username: string;
  email: string | null;
  phone: string | null;
  active: boolean;
}
/** What a parent's account keeps besides a person's fields. */
export interface ParentContact {
  address: string | null;
  emergencyContact: string | null;
  emergencyPhone: string | null;
}
/** A user as a person of the rosters (older accounts only have `name`: it is split). */
export const personOf = (user: User): Person => {
  const split = splitName(user.name);
  return {
    id: user.id,
    firstName: user.firstName ?? split.firstName,
    lastName: user.lastName ?? split.lastName,
    name: user.name,
    username: user.username,
    email: user.email,
    phone: user.phone,
    active: user.active,
  };
};
/** A parent's contact fields of a user (absent ones are null). */
export const parentContactOf = (user: User): ParentContact => ({
  address: user.address ?? null,
  emergencyContact: user.emergencyContact ?? null,
  emergencyPhone: user.emergencyPhone ?? null,
});

export interface TeacherRow extends Person {
  classrooms: Array<{ id: number; name: string; grade: string }>;
}
export interface ParentRow extends Person, ParentContact {
  /** Whether the account can sign in yet (imported parents get a password from the school first). */
  canSignIn: boolean;
  students: RosterRef[];
}
export interface VehicleRow extends Vehicle {
  students: RosterRef[];
}

/** One page of a roster list; `next` is the cursor of the following page, null on the last. */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/** A new teacher's or parent's sign-in, shown once. */
export interface OneTimeCredentials {
  username: string;
  password: string;
}

export const ROSTER_PAGE_SIZE = 25;
export const ROSTER_MAX_PAGE_SIZE = 100;

// ---------------------------------------------------------------------------
// Field rules, shared by the forms, the routes and the CSV import.

const tooLong = (label: string, max: number) => `${label} is too long (at most ${max} characters)`;

/** A required text field: trimmed, not blank, at most `max` characters. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, tooLong(label, max));

/** An optional text field: blank or missing becomes null. */
export const optionalText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, tooLong(label, max))
    .nullish()
    .transform((value) => (value ? value : null));

/** Digits of a phone number, for matching (`(555) 010-1234` → `5550101234`). */
export const phoneDigits = (phone: string | null | undefined): string => (phone ?? '').replace(/\D/g, '');

/** An optional phone number: at least 7 digits, and only what phone numbers are written with. */
export const optionalPhone = (label: string) =>
  optionalText(label, 40).refine(
    (value) => value === null || (/^[0-9+()\-.\s/x#]+$/i.test(value) && phoneDigits(value).length >= 7),
    `${label} must be a phone number (at least 7 digits)`,
  );

/** An optional email address. */
export const optionalEmail = (label: string) =>
  optionalText(label, 254).refine(
    (value) => value === null || z.email().safeParse(value).success,
    `${label} must be a valid email address`,
  );

const rosterId = (label: string) =>
  z.coerce
    .number({ message: `Invalid ${label}` })
    .int(`Invalid ${label}`)
    .positive(`Invalid ${label}`);

export const GRADE_MAX = 10;

/**
 * The grades a school's rosters take: K and 1 to 12, and the years around
 * them that a student-information system names (infant/toddler, preschool,
 * pre-K, transitional K, post-graduate; see `gradeFromSis`).
 */
export const GRADES = [
  'IT',
  'PS',
  'PK',
  'TK',
  'K',
  ...Array.from({ length: 12 }, (_, i) => String(i + 1)),
  'PG',
];
export const GRADE_MESSAGE = 'Grade must be K or 1 to 12 (or PK, TK, PS, IT, PG)';

/** A grade as written (`k`, `04`, `Kindergarten`) as the rosters keep it (`K`, `4`), or null if it is none. */
export const normalizeGrade = (text: string): string | null => {
  const value = text.trim();
  const upper = value.toUpperCase();
  const named = upper === 'KINDERGARTEN' ? 'K' : /^\d+$/.test(value) ? String(Number(value)) : upper;
  return GRADES.includes(named) ? named : null;
};

export const gradeSchema = requiredText('Grade', GRADE_MAX)
  .refine((value) => normalizeGrade(value) !== null, GRADE_MESSAGE)
  .transform((value) => normalizeGrade(value) as string);

/** A grade that may be left blank (a teacher's row): blank is null. */
export const optionalGradeSchema = optionalText('Grade', GRADE_MAX)
  .refine((value) => value === null || normalizeGrade(value) !== null, GRADE_MESSAGE)
  .transform((value) => (value === null ? null : (normalizeGrade(value) as string)));

export const usernameSchema = z
  .string({ message: 'Username must be text' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, tooLong('Username', 50))
  .regex(/^[A-Za-z0-9._@-]+$/, 'Username can only contain letters, digits and . _ @ -');

const rideSchema = z.object({
  type: z.enum(VEHICLE_TYPES, { message: 'Vehicle type must be car or bus' }),
  number: vehicleNumberSchema,
});

export const studentInputSchema = z.object({
  firstName: requiredText('First name', 50),
  lastName: requiredText('Last name', 50),
  grade: gradeSchema,
  classroomId: rosterId('classroom')
    .nullish()
    .transform((value) => value ?? null),
  parentName: optionalText('Parent name', 100),
  parentPhone: optionalPhone('Parent phone'),
  parentEmail: optionalEmail('Parent email'),
  notes: optionalText('Notes', 500),
  /** The cars and buses that collect the student; absent leaves them as they are. */
  vehicles: z.array(rideSchema).max(5, 'At most 5 vehicles per student').optional(),
});
export type StudentInput = z.output<typeof studentInputSchema>;

export const teacherInputSchema = z.object({
  firstName: requiredText('First name', 50),
  lastName: requiredText('Last name', 50),
  email: optionalEmail('Email'),
  phone: optionalPhone('Phone'),
  /** Chosen on creation (one is made from the name when blank); fixed afterwards. */
  username: z
    .union([usernameSchema, z.literal('')])
    .nullish()
    .transform((value) => value || null),
  classroomIds: z.array(rosterId('classroom')).max(20, 'At most 20 classrooms per teacher').optional(),
  /** On an update: make a new one-time password (shown once). */
  resetPassword: z.boolean({ message: 'resetPassword must be true or false' }).optional(),
});
export type TeacherInput = z.output<typeof teacherInputSchema>;

export const parentInputSchema = z
  .object({
    firstName: requiredText('First name', 50),
    lastName: requiredText('Last name', 50),
    email: optionalEmail('Email'),
    phone: optionalPhone('Phone'),
    address: optionalText('Address', 200),
    emergencyContact: optionalText('Emergency contact', 100),
    emergencyPhone: optionalPhone('Emergency phone'),
    studentIds: z.array(rosterId('student')).max(20, 'At most 20 children per parent').optional(),
    resetPassword: z.boolean({ message: 'resetPassword must be true or false' }).optional(),
  })
  .refine((parent) => parent.email !== null || parent.phone !== null, {
    message: 'Email or phone is required',
    path: ['email'],
  });
export type ParentInput = z.output<typeof parentInputSchema>;

export const vehicleInputSchema = z.object({
  number: vehicleNumberSchema,
  type: z.enum(VEHICLE_TYPES, { message: 'Vehicle type must be car or bus' }).default('car'),
  make: optionalText('Make', 50),
  model: optionalText('Model', 50),
  color: optionalText('Color', 30),
  licensePlate: optionalText('License plate', 20),
  parentName: optionalText('Parent name', 100),
  parentPhone: optionalPhone('Parent phone'),
  alternateContactName: optionalText('Alternate contact name', 100),
  alternateContactPhone: optionalPhone('Alternate contact phone'),
  notes: optionalText('Notes', 500),
  studentIds: z.array(rosterId('student')).max(40, 'At most 40 students per vehicle').optional(),
});
export type VehicleInput = z.output<typeof vehicleInputSchema>;

export const classroomInputSchema = z.object({
  name: requiredText('Classroom name', 50),
  grade: gradeSchema,
  teacherId: rosterId('teacher')
    .nullish()
    .transform((value) => value ?? null),
});
export type ClassroomInput = z.output<typeof classroomInputSchema>;

/** `?schoolId=` lets district and super admins work on a school they oversee. */
export const schoolScopeSchema = z.object({ schoolId: rosterId('school').optional() });

export const rosterListQuerySchema = schoolScopeSchema.extend({
  search: z.string({ message: 'Search must be text' }).trim().max(100, tooLong('Search', 100)).optional(),
  cursor: z.string({ message: 'Invalid cursor' }).max(1000, 'Invalid cursor').optional(),
  limit: z.coerce
    .number({ message: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(ROSTER_MAX_PAGE_SIZE, `Limit must be at most ${ROSTER_MAX_PAGE_SIZE}`)
    .default(ROSTER_PAGE_SIZE),
});

// ---------------------------------------------------------------------------
// Matching and searching.

/** Lowercased, trimmed, inner spaces collapsed: how names and keys are compared. */
export const normalize = (value: string | null | undefined): string =>
  (value ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

/** What a roster search looks through, lowercased (kept on the record as `search`). */
export const searchText = (...parts: Array<string | null | undefined>): string =>
  parts
    .map(normalize)
    .filter((part) => part.length > 0)
    .join(' | ');

/**
 * The active staff member other than `exceptId` who already uses `email`
 * (compared without case or spaces): a school's staff emails are one person's each.
 */
export const emailHolder = <T extends { id: number; email?: string | null; active: boolean }>(
  staff: readonly T[],
  email: string | null | undefined,
  exceptId: number | null = null,
): T | undefined => {
  const wanted = email?.trim().toLowerCase();
  if (!wanted) return undefined;
  return staff.find(
    (user) => user.active && user.id !== exceptId && user.email?.trim().toLowerCase() === wanted,
  );
};

/** A student's natural key: name and grade. */
export const studentKey = (student: { firstName: string; lastName: string; grade: string }) =>
  `${normalize(student.firstName)} ${normalize(student.lastName)}#${normalize(student.grade)}`;

/** `Jordan Martinez` → first `Jordan`, last `Martinez`; one word is a first name. */
export const splitName = (name: string): { firstName: string; lastName: string } => {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { firstName: words[0] ?? '', lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] as string };
};

export const fullName = (person: { firstName: string; lastName: string }) =>
  [person.firstName, person.lastName].filter(Boolean).join(' ');

/** A username made from a name: `maria.lopez` (letters and digits only). */
export const usernameFromName = (firstName: string, lastName: string): string => {
  const clean = (value: string) =>
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  const base = [clean(firstName), clean(lastName)].filter(Boolean).join('.');
  return (base.length >= 3 ? base : `user.${base}`).slice(0, 40);
};

/**
 * Numbers sort the way people count: 2 before 10, `A2` before `A10`. The
 * collator is made on first use: the first `Intl` object of a process loads
 * ICU's data, tens of milliseconds a function's cold start need not pay.
 */
let collator: Intl.Collator | undefined;
export const compareNumbers = (a: string, b: string): number => {
  collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  return collator.compare(a, b);
};

/** What the roster tabs count. */
export interface RosterCounts {
  students: number;
  teachers: number;
  parents: number;
  vehicles: number;
  classrooms: number;
}

/** The school admin screen's Students card: everyone, and where they are in a session. */
export interface StudentStats {
  total: number;
  inSchool: number;
  waiting: number;
  pickedUp: number;
}

/**
 * Where the students are: waiting (their car or bus is in the queue), picked
 * up (their pickup completed this session and they are not queued again), the
 * rest in school.
 */
export const studentStats = (
  total: number,
  queuedStudentIds: Iterable<number>,
  pickedUpStudentIds: Iterable<number>,
): StudentStats => {
  const waiting = new Set(queuedStudentIds);
  const pickedUp = new Set([...pickedUpStudentIds].filter((id) => !waiting.has(id)));
  const inSchool = Math.max(0, total - waiting.size - pickedUp.size);
  return { total, inSchool, waiting: waiting.size, pickedUp: pickedUp.size };
};
