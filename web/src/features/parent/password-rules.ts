import { PASSWORD_TOO_COMMON, parentPasswordProblem } from '@curbside/domain';
import { useState } from 'react';
import type { useParentTexts } from './i18n';

/**
 * What is wrong with a parent's new password, in the screen's language, by the
 * rule of the schema the API checks (issue 50: at least 8 characters, not a
 * common password; `parentPasswordProblem`, without zod); undefined when it will do.
 */
export const parentPasswordError = (
  password: string,
  t: ReturnType<typeof useParentTexts>['t'],
): string | undefined => {
  const problem = parentPasswordProblem(password);
  if (problem === undefined) return undefined;
  return problem === PASSWORD_TOO_COMMON ? t('validation.passwordCommon') : t('validation.passwordLength');
};

/**
 * The fields of a password form: their values, their errors (a field's
 * error goes as it is edited), and `bind(field)` for its input.
 */
export const usePasswordFields = <F extends string>(fields: readonly F[]) => {
  const [values, setValues] = useState(
    () => Object.fromEntries(fields.map((f) => [f, ''])) as Record<F, string>,
  );
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const bind = (field: F) => ({
    value: values[field],
    error: errors[field],
    size: 'lg' as const,
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
  });
  return { values, errors, setErrors, bind };
};
