import { useCallback, useState } from 'react';
import { HttpError } from './http';

/**
 * A form's errors by field name: the first message for each field. An issue that names no field
 * is under `form` (a form may show it above its buttons).
 */
export type FieldErrors<F extends string = string> = Partial<Record<F | 'form', string>>;

/**
 * An issue with a value: zod's (`path` an array, `['name']`) or the server's 400
 * (`{ issues: [{ path: 'name', message }] }`, a dotted path: `items.0.name`).
 */
export interface FieldIssue {
  path?: string | ReadonlyArray<PropertyKey>;
  message?: string;
}

const fieldOf = (path: FieldIssue['path'], fields?: ReadonlyArray<string>): string => {
  const first = typeof path === 'string' ? path.split('.')[0] : path?.[0];
  const field = first === undefined ? '' : String(first);
  return field === '' || (fields && !fields.includes(field)) ? 'form' : field;
};

/**
 * The first message of each field (the path's first step) among `issues`. Given the form's
 * `fields`, an issue of any other field is the form's (`form`): a message is never dropped.
 */
export const fieldErrorsFrom = <F extends string = string>(
  issues: ReadonlyArray<FieldIssue>,
  fields?: ReadonlyArray<F>,
): FieldErrors<F> => {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.message) errors[fieldOf(issue.path, fields)] ??= issue.message;
  }
  return errors as FieldErrors<F>;
};

/** The issues of a refused input (a 400 whose body lists `issues`); none for any other error. */
export const issuesOf = (error: unknown): FieldIssue[] => {
  if (!(error instanceof HttpError) || error.status !== 400) return [];
  const issues = (error.body as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? (issues as FieldIssue[]) : [];
};

/**
 * A form's field errors, each shown under its field: from the form's own check (zod's issues,
 * `show`) or from the server's 400 (`showServerError`, which returns what it found so the form
 * can tell of the rest otherwise). Typing in a field clears its error (`clear`). Given the form's
 * `fields` (a constant), an issue of another field is the form's.
 */
export const useFieldErrors = <F extends string = string>(fields?: ReadonlyArray<F>) => {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  /** Shows these errors, replacing any shown; returns them. */
  const show = useCallback(
    (issues: ReadonlyArray<FieldIssue>) => {
      const next = fieldErrorsFrom(issues, fields);
      setErrors(next);
      return next;
    },
    [fields],
  );
  const showServerError = useCallback((error: unknown) => show(issuesOf(error)), [show]);
  const clear = useCallback(
    (field: F | 'form') =>
      setErrors((current) => (current[field] === undefined ? current : { ...current, [field]: undefined })),
    [],
  );
  const reset = useCallback(() => setErrors({}), []);
  return { errors, show, showServerError, clear, reset, set: setErrors };
};
