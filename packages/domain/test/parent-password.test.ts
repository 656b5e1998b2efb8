import { describe, expect, it } from 'vitest';
import { parentPasswordSchema } from '../src/auth';
import {
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  parentPasswordProblem,
} from '../src/passwords';

/** The message the API's schema answers for `password`, or undefined when it takes it. */
const schemaSays = (password: string) => {
  const checked = parentPasswordSchema.safeParse(password);
  return checked.success ? undefined : checked.error.issues[0]?.message;
};

describe("a parent's new password on the phone's forms (issue 50's rule without zod, issue 57)", () => {
  it.each([
    ['', PASSWORD_TOO_SHORT],
    ['short12', PASSWORD_TOO_SHORT],
    ['ok-pass1', undefined],
    ['PASSWORD1', PASSWORD_TOO_COMMON],
    ['password1', PASSWORD_TOO_COMMON],
    ['Curbside123', PASSWORD_TOO_COMMON],
    ['a'.repeat(200), undefined],
    ['a'.repeat(201), PASSWORD_TOO_LONG],
    ['horse battery staple', undefined],
  ])('%j: %s', (password, problem) => {
    expect(parentPasswordProblem(password)).toBe(problem);
    expect(schemaSays(password)).toBe(problem);
  });
});
