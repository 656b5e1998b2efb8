import type { District, School, User } from '@curbside/domain';
import { type AuthSession, authSessionKey, liveSession } from './auth-session';
import type { Db } from './db';
import { districtKey } from './district';
import { stripKeys } from './ids';
import { type FoundItems, itemAt, type KeyedRead, readKeys } from './keyed-read';
import { schoolKey } from './school';
import { toUser, userKey, withoutFlag } from './user';

/** A school and a district to read beside the caller (a change checks their sandbox mode). */
export interface PlaceKeys {
  schoolId: number | null;
  districtId: number | null;
}

export interface CallerRecords {
  /** The token's sign-in, when it is live. */
  session: AuthSession | undefined;
  /** The user the token names (the session says whether it is theirs). */
  user: User | undefined;
  /** The school and district asked for, as read now (undefined when not asked or not found). */
  school: School | undefined;
  district: District | undefined;
  /** Every item the read found, for the reads that went with it (`also`). */
  found: FoundItems;
}

/**
 * What a request reads to know its caller, in one BatchGetItem (issue 33: one
 * call where there were two to four, each a round of SDK work): the token's
 * sign-in, the user the token names and, when `place` is given, that school's
 * and district's items. Eventually consistent, as the single reads were.
 * `also`: the keys of a request's own reads to go in the same BatchGetItem
 * (issue 54: a parent's poll, a release), strongly consistent when they ask
 * (then the whole read is).
 */
export const callerReads = async (
  db: Db,
  token: string,
  userId: number,
  place?: PlaceKeys,
  now = Date.now(),
  also?: Pick<KeyedRead<unknown>, 'keys' | 'consistent'>,
): Promise<CallerRecords> => {
  const wanted = {
    session: authSessionKey(token),
    user: userKey(userId),
    school: place?.schoolId != null ? schoolKey(place.schoolId) : undefined,
    district: place?.districtId != null ? districtKey(place.districtId) : undefined,
  };
  const found = await readKeys(
    db,
    [...Object.values(wanted).filter((key) => key !== undefined), ...(also?.keys ?? [])],
    also?.consistent ?? false,
  );
  const find = (key: { pk: string; sk: string } | undefined) => key && itemAt(found, key);
  const user = find(wanted.user);
  const school = find(wanted.school);
  const district = find(wanted.district);
  return {
    session: liveSession(find(wanted.session), now),
    user: user ? withoutFlag(toUser(user)) : undefined,
    school: school ? stripKeys<School>(school) : undefined,
    district: district ? stripKeys<District>(district) : undefined,
    found,
  };
};
