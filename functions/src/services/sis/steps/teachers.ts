import { ConflictError, namesFromSis, normalize, sameFields, usernameFromName } from '@curbside/domain';
import { cleverLinks, NO_PASSWORD, users } from '@curbside/store';
import { db } from '../../../lib/context';
import { log } from '../../../lib/log';
import { createWithFreeUsername } from '../../roster/credentials';
import type { CleverUser } from '../clever';
import { activeAfterImport, lower, type SchoolState, type Tally } from '../school-state';
import type { SchoolStep } from './step';

/** Teachers: staff accounts (role teacher) that sign in through Clever; no password of ours. */
const importTeachers = async (state: SchoolState, page: CleverUser[], tally: Tally) => {
  for (const person of page) {
    const names = namesFromSis(person.name);
    const email = person.email?.trim() || null;
    const existing =
      state.teachers.get(person.id) ?? (email ? state.teachersByEmail.get(lower(email)) : undefined);
    const wanted = {
      ...names,
      email,
      active: activeAfterImport(existing),
      ...(existing?.retiredBySis ? { retiredBySis: false } : {}),
    };
    if (existing) {
      if (!sameFields(existing, wanted)) {
        const changed = await users.updateProfile(db, existing, wanted);
        state.teachers.set(person.id, changed);
        tally('teachers', 'updated');
      } else tally('teachers', 'unchanged');
      if (existing.cleverId !== person.id) await linkTeacher(existing.id, person.id, state);
      continue;
    }
    const base = email ? normalize(email.split('@')[0]) : usernameFromName(names.firstName, names.lastName);
    const created = await createWithFreeUsername(
      {
        ...names,
        email,
        phone: null,
        role: 'teacher',
        active: true,
        schoolId: state.school.id,
        districtId: state.school.districtId,
        passwordHash: NO_PASSWORD,
      },
      base || 'teacher',
    );
    await linkTeacher(created.id, person.id, state);
    state.teachers.set(person.id, { ...created, cleverId: person.id });
    tally('teachers', 'created');
  }
};

const linkTeacher = async (userId: number, cleverId: string, state: SchoolState) => {
  try {
    await cleverLinks.linkUser(db, userId, cleverId);
  } catch (error) {
    // The Clever id belongs to an account of another school (a teacher who moved): left as it is.
    if (!(error instanceof ConflictError)) throw error;
    log('warn', 'clever teacher linked to another account', { userId, schoolId: state.school.id });
  }
};

export const teachersStep: SchoolStep<CleverUser> = {
  read: ({ client, target, checkpoint }) =>
    client.page<CleverUser>(`/v3.0/schools/${target.cleverSchoolId}/users`, checkpoint.after, {
      role: 'teacher',
    }),
  apply: async ({ state, tally }, records) => {
    await importTeachers(state, records, tally);
    return undefined;
  },
  seenIds: (records) => ({ ids: records.map((user) => user.id) }),
};
