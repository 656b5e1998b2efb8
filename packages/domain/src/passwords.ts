/*
 * The parent's password rule and the password pages' messages on their own, without zod (issue
 * 57): the parent portal's forms use them on a phone whose first load carries no zod;
 * `parentPasswordSchema` (auth.ts) is made of the rule.
 */

/**
 * A parent's password (issue 50, NIST SP 800-63B §5.1.1.2): at least 8
 * characters (the specification's signup said 6; the issue overrides it for
 * parents), at most 200, and none of the passwords attackers try first.
 */
export const PARENT_PASSWORD_MIN = 8;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PARENT_PASSWORD_MIN} characters`;
export const PASSWORD_TOO_COMMON = 'This password is too common. Choose one that is harder to guess.';

/**
 * A small list of the passwords seen most in breaches (8 characters or more:
 * shorter ones are refused for their length), and this product's own name,
 * compared without regard to case.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12341234',
  '11111111',
  '00000000',
  '87654321',
  '88888888',
  '12344321',
  '123123123',
  '1q2w3e4r',
  '1q2w3e4r5t',
  '1qaz2wsx',
  'zaq12wsx',
  'qwertyui',
  'qwertyuiop',
  'qwerty123',
  'qwerty12',
  'asdfghjk',
  'asdfasdf',
  'password',
  'password1',
  'password12',
  'password123',
  'password!',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'basketball',
  'superman',
  'starwars',
  'whatever',
  'trustno1',
  'letmein1',
  'welcome1',
  'welcome123',
  'abc12345',
  'abcd1234',
  'admin123',
  'administrator',
  'changeme',
  'computer',
  'internet',
  'michelle',
  'jennifer',
  'jessica1',
  'charlie1',
  'shadow12',
  'monkey123',
  'dragon123',
  'master123',
  'mustang1',
  'liverpool',
  'chocolate',
  'butterfly',
  'elizabeth',
  'samantha',
  'midnight',
  'babygirl',
  'iloveyou2',
  'school123',
  'teacher1',
  'curbside',
  'curbside1',
  'curbside123',
]);

/** Whether a password is on the list of common ones (any case). */
export const isCommonPassword = (password: string): boolean => COMMON_PASSWORDS.has(password.toLowerCase());

export const PARENT_PASSWORD_MAX = 200;
export const PASSWORD_TOO_LONG = 'Password is too long';

/**
 * What is wrong with a parent's new password (the schema's message), or undefined when it will
 * do: the schema's rule without zod, for the parent's forms (a phone's first load carries no zod).
 */
export const parentPasswordProblem = (password: string): string | undefined => {
  if (password.length < PARENT_PASSWORD_MIN) return PASSWORD_TOO_SHORT;
  if (password.length > PARENT_PASSWORD_MAX) return PASSWORD_TOO_LONG;
  return isCommonPassword(password) ? PASSWORD_TOO_COMMON : undefined;
};

/**
 * What "Forgot password?" answers, whether or not a parent account has that
 * address (so the page tells no one which addresses have accounts).
 */
export const PASSWORD_RESET_SENT =
  'If a parent account uses that email address, we sent it a link to choose a new password. The link works for 1 hour.';
/** A reset link that is unknown, used or older than an hour. */
export const PASSWORD_RESET_INVALID = 'This link does not work any more. Ask for a new one.';
