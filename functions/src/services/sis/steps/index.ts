import type { SisSchoolStep } from '@curbside/domain';
import { contactsStep } from './contacts';
import { retireStep } from './retire';
import { sectionsStep } from './sections';
import type { SchoolStep } from './step';
import { studentsStep } from './students';
import { teachersStep } from './teachers';

export type { SchoolStep, StepContext } from './step';

/**
 * A school's import as a table of steps, in the order of `SIS_SCHOOL_STEPS`: its teachers
 * (staff accounts, by Clever id, else by email among the school's teachers), its sections
 * (classrooms: by Clever id, else by name; made when missing if asked), its students (by
 * Clever id; their classroom from their section), the district's contacts (parent accounts
 * by Clever id, else by email among the accounts the school made; linked to their children of this school), then retiring
 * what the SIS no longer lists (records with a Clever id that no page of this job saw).
 */
export const SCHOOL_STEPS: Record<SisSchoolStep, SchoolStep<unknown>> = {
  teachers: teachersStep,
  sections: sectionsStep,
  students: studentsStep,
  contacts: contactsStep,
  retire: retireStep,
};
