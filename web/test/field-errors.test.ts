import { describe, expect, it } from 'vitest';
import { fieldErrorsFrom, issuesOf } from '../src/lib/field-errors';
import { HttpError } from '../src/lib/http';

const refused = (issues: unknown, status = 400) =>
  new HttpError(status, `${status}: Invalid input`, { message: 'Invalid input', issues });

describe("a form's field errors", () => {
  it("show the server's 400 under its fields: the first message of each, a dotted path under its first step", () => {
    const errors = fieldErrorsFrom(
      issuesOf(
        refused([
          { path: 'teacherId', message: 'That teacher does not exist' },
          { path: 'teacherId', message: 'A second message' },
          { path: 'vehicles.1.number', message: 'Vehicle number is required' },
        ]),
      ),
    );
    expect(errors).toEqual({
      teacherId: 'That teacher does not exist',
      vehicles: 'Vehicle number is required',
    });
  });

  it("show the form's own check (zod's issues, paths as arrays) the same way", () => {
    expect(
      fieldErrorsFrom([
        { path: ['name'], message: 'Name is required' },
        { path: ['weekdays', 0], message: 'Choose a weekday' },
        { path: [], message: 'Choose a date or a range' },
      ]),
    ).toEqual({ name: 'Name is required', weekdays: 'Choose a weekday', form: 'Choose a date or a range' });
  });

  it("keep an issue of a field the form does not have as the form's, so no message is lost", () => {
    expect(
      fieldErrorsFrom(
        [
          { path: 'phone', message: 'Phone is required' },
          { path: 'language', message: 'Unknown language' },
        ],
        ['name', 'phone'],
      ),
    ).toEqual({ phone: 'Phone is required', form: 'Unknown language' });
  });

  it('come only from a 400 that lists issues', () => {
    expect(issuesOf(refused([{ path: 'name', message: 'Taken' }], 409))).toEqual([]);
    expect(issuesOf(new HttpError(400, '400: Bad', { message: 'Bad' }))).toEqual([]);
    expect(issuesOf(new HttpError(400, '400: Bad', 'plain text'))).toEqual([]);
    expect(issuesOf(new Error('offline'))).toEqual([]);
  });
});
