import type { OneTimeCredentials, User } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import { type NewUser, users } from '@curbside/store';
import { db } from '../../lib/context';
import { hashPassword, oneTimePassword } from '../../lib/passwords';

/** A new password for an account, and what to show once. */
export const newCredentials = async (username: string) => {
  const password = oneTimePassword();
  return {
    credentials: { username, password } satisfies OneTimeCredentials,
    passwordHash: await hashPassword(password),
  };
};

/**
 * Creates an account under the first free username of `base`, `base2`,
 * `base3`, … (the claim decides; a taken one is tried no further). With
 * `exact`, only `base` itself: a taken username is a 409.
 */
export const createWithFreeUsername = async (
  input: Omit<NewUser, 'username'>,
  base: string,
  options: { id?: number; exact?: boolean } = {},
): Promise<User> => {
  for (let n = 1; n <= 50; n++) {
    const username = n === 1 ? base : `${base}${n}`;
    try {
      return await users.create(db, { ...input, username }, options.id);
    } catch (error) {
      if (!(error instanceof ConflictError) || options.exact) throw error;
    }
  }
  throw new ConflictError(`No free username like ${base}; choose one`);
};
