import { ConflictError, NotFoundError, type Program, type ProgramInput, type User } from '@curbside/domain';
import { dismissalPlans, programs } from '@curbside/store';
import { db } from '../lib/context';
import { rosterSchool } from './roster/scope';

/**
 * After-school programs (issue 51): every staff role of the school reads
 * them; school admins and above write (the route's data permission). Another
 * school's program answers 404.
 */

export const listPrograms = async (user: User, schoolId?: number): Promise<Program[]> => {
  const school = await rosterSchool(user, schoolId, 'read');
  return (await programs.ofSchool(db, school.id)).sort(
    (a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name),
  );
};

/** A program's name is the school's own (the students CSV names programs by it): 409 when another has it. */
const assertNameFree = async (schoolId: number, name: string, id: number | null) => {
  const taken = (await programs.ofSchool(db, schoolId)).some(
    (program) => program.id !== id && program.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw new ConflictError(`A program named ${name} already exists`);
};

export const createProgram = async (user: User, input: ProgramInput, schoolId?: number): Promise<Program> => {
  const school = await rosterSchool(user, schoolId, 'write');
  await assertNameFree(school.id, input.name, null);
  return programs.create(db, school.id, input);
};

const existing = async (schoolId: number, id: number) => {
  const program = await programs.get(db, schoolId, id);
  if (!program) throw new NotFoundError('Program not found');
  return program;
};

export const updateProgram = async (
  user: User,
  id: number,
  input: ProgramInput,
  schoolId?: number,
): Promise<Program> => {
  const school = await rosterSchool(user, schoolId, 'write');
  const program = await existing(school.id, id);
  await assertNameFree(school.id, input.name, id);
  const saved = await programs.update(db, school.id, id, {
    name: input.name,
    kind: input.kind,
    location: input.location,
    active: input.active ?? program.active,
  });
  if (!saved) throw new NotFoundError('Program not found');
  return saved;
};

/**
 * Removes a program: deleted when no student's weekly plan names it,
 * otherwise deactivated (plans and the record keep its name; it is offered
 * no more). It is deactivated first: a plan can name only an active program
 * (a condition of the plan's write), so the plans read after it are all there
 * will be.
 */
export const deleteProgram = async (
  user: User,
  id: number,
  schoolId?: number,
): Promise<{ program: Program; deleted: boolean }> => {
  const school = await rosterSchool(user, schoolId, 'write');
  const program = await existing(school.id, id);
  const inactive = { ...program, active: false };
  if (program.active) await programs.update(db, school.id, id, inactive);
  const plans = await dismissalPlans.ofSchool(db, school.id);
  const planned = [...plans.values()].some((stored) =>
    Object.values(stored.plan).some((way) => way.mode === 'program' && way.programId === id),
  );
  if (planned) return { program: inactive, deleted: false };
  await programs.deleteInactive(db, school.id, id);
  return { program: inactive, deleted: true };
};
