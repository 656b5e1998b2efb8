import { namesFromSis, sameFields, type User } from '@curbside/domain';
import { NO_PASSWORD, nextIds, parentLinks, parents, users } from '@curbside/store';
import { db } from '../../../lib/context';
import { stopHearingOf } from '../../live-connections';
import { parentUsername } from '../../roster/parents';
import type { CleverUser } from '../clever';
import { activeAfterImport, lower, type SchoolState, type Tally } from '../school-state';
import type { SchoolStep } from './step';

/** Contacts of the school's students: parent accounts (no password until the school gives one), linked to their children. */
const importContacts = async (state: SchoolState, page: CleverUser[], tally: Tally): Promise<string[]> => {
  const seen: string[] = [];
  const fresh: User[] = [];
  const rewrites: Array<{ user: User; passwordHash: string; before: User }> = [];
  for (const person of page) {
    const children = (person.roles?.contact?.student_relationships ?? []).flatMap((relation) => {
      const child = state.students.get(relation.student);
      return child?.active ? [child.id] : [];
    });
    if (children.length === 0) continue;
    seen.push(person.id);
    const names = namesFromSis(person.name);
    const email = person.email?.trim() || null;
    const existing =
      state.parents.get(person.id) ?? (email ? state.parentsByEmail.get(lower(email)) : undefined);
    const wanted = {
      ...names,
      email,
      phone: person.roles?.contact?.phone?.trim() || null,
      studentIds: [...new Set(children)],
      active: activeAfterImport(existing?.user),
      ...(existing?.user.retiredBySis ? { retiredBySis: false } : {}),
      cleverId: person.id,
    };
    if (existing) {
      if (!sameFields(existing.user, wanted)) {
        rewrites.push({
          user: { ...existing.user, ...wanted },
          passwordHash: existing.passwordHash,
          before: existing.user,
        });
        tally('parents', 'updated');
      } else tally('parents', 'unchanged');
      state.parents.set(person.id, { ...existing, user: { ...existing.user, ...wanted } });
      continue;
    }
    fresh.push({
      id: 0,
      ...wanted,
      username: parentUsername(wanted),
      role: 'parent',
      schoolId: state.school.id,
      districtId: null,
      madeBySchoolId: state.school.id,
    });
    tally('parents', 'created');
  }
  const ids = await nextIds(db, 'user', fresh.length);
  const made = fresh.map((user, i) => ({ ...user, id: ids[i] as number }));
  await users.createMany(db, made);
  await parentLinks.linkMany(
    db,
    made.flatMap((user) =>
      (user.studentIds ?? []).map((studentId) => ({
        parentId: user.id,
        schoolId: state.school.id,
        studentId,
      })),
    ),
  );
  for (const user of made) state.parents.set(user.cleverId as string, { user, passwordHash: NO_PASSWORD });
  await users.putMany(db, rewrites);
  for (const { user, before } of rewrites) {
    const had = [...(before.studentIds ?? [])].sort().join();
    if (had === [...(user.studentIds ?? [])].sort().join()) continue;
    const { removed } = await parents.setChildren(db, before, state.school.id, user.studentIds ?? []);
    await stopHearingOf(before.id, state.school.id, removed);
  }
  return seen;
};

export const contactsStep: SchoolStep<CleverUser> = {
  read: ({ client, checkpoint }) =>
    client.page<CleverUser>('/v3.0/users', checkpoint.after, { role: 'contact' }),
  apply: ({ state, tally }, records) => importContacts(state, records, tally),
  // Only the contacts of this school's students: the district's others are not this school's to retire.
  seenIds: (_records, kept) => ({ ids: kept ?? [] }),
};
