import { PARENT_PASSWORD_MIN } from '@curbside/domain';
import { PasswordInput, Stack, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { HttpError } from '../../lib/http';
import { useParentTexts } from './i18n';
import { useResetPassword } from './parent.mutations';
import { NextStep, PasswordHelpCard, SubmitWithFailure } from './password-help';
import { parentPasswordError, usePasswordFields } from './password-rules';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * `/parent/reset-password?t=…` (issue 50), the emailed link's page: a new
 * password twice, held to the same rules as the API (at least 8 characters,
 * not a common one); then the parent signs in with it. A used, expired or
 * unknown link says so and offers a new one.
 */
export function ResetPasswordPage() {
  const { t } = useParentTexts();
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const reset = useResetPassword();
  const { values, setErrors, bind } = usePasswordFields(['password', 'confirm'] as const);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: { password?: string; confirm?: string } = {};
    const weak = parentPasswordError(values.password, t);
    if (weak) next.password = weak;
    if (values.confirm !== values.password) next.confirm = t('reset.mismatch');
    setErrors(next);
    if (Object.keys(next).length === 0) reset.mutate({ token, password: values.password });
  };
  // A used, expired or unknown link: 410 (a malformed one is known not to work before asking).
  const gone = !TOKEN.test(token) || (reset.error instanceof HttpError && reset.error.status === 410);
  return (
    <PasswordHelpCard title={t('reset.title')} back={!reset.isSuccess}>
      {gone ? (
        <NextStep
          done={false}
          message={t('reset.invalid')}
          to="/parent/forgot-password"
          label={t('reset.again')}
        />
      ) : reset.isSuccess ? (
        <NextStep done message={t('reset.done')} to="/parent-login" label={t('reset.signIn')} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text c="dimmed">{t('reset.intro', { min: PARENT_PASSWORD_MIN })}</Text>
            <PasswordInput label={t('reset.password')} autoComplete="new-password" {...bind('password')} />
            <PasswordInput label={t('reset.confirm')} autoComplete="new-password" {...bind('confirm')} />
            <SubmitWithFailure request={reset} failedTitle={t('reset.failed')} label={t('reset.submit')} />
          </Stack>
        </form>
      )}
    </PasswordHelpCard>
  );
}
