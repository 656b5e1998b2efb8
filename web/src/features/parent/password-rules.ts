import { PASSWORD_TOO_COMMON, parentPasswordSchema } from '@curbside/domain';
import type { useParentTexts } from './i18n';

/**
 * What is wrong with a parent's new password, in the screen's language, by
 * the same schema the API checks (issue 50: at least 8 characters, not a
 * common password); undefined when it will do.
 */
export const parentPasswordError = (
  password: string,
  t: ReturnType<typeof useParentTexts>['t'],
): string | undefined => {
  const checked = parentPasswordSchema.safeParse(password);
  if (checked.success) return undefined;
  return checked.error.issues.some((issue) => issue.message === PASSWORD_TOO_COMMON)
    ? t('validation.passwordCommon')
    : t('validation.passwordLength');
};
