import { Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useParentTexts } from './i18n';
import { useForgotPassword } from './parent.mutations';
import { NextStep, PasswordHelpCard, SubmitWithFailure } from './password-help';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * `/parent/forgot-password` (issue 50): the parent's email address, then the
 * same answer whether or not an account has it: a link to choose a new
 * password is on its way if one does, good for an hour.
 */
export function ForgotPasswordPage() {
  const { t } = useParentTexts();
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL.test(email.trim())) {
      setError(t('validation.email'));
      return;
    }
    setError(undefined);
    forgot.mutate(email.trim());
  };
  return (
    <PasswordHelpCard title={t('forgot.title')}>
      {forgot.isSuccess ? (
        <NextStep done message={t('forgot.sent')} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text>{t('forgot.intro')}</Text>
            <TextInput
              label={t('forgot.email')}
              type="email"
              size="lg"
              autoComplete="email"
              autoCapitalize="none"
              value={email}
              error={error}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                setError(undefined);
              }}
            />
            <SubmitWithFailure request={forgot} failedTitle={t('forgot.failed')} label={t('forgot.submit')} />
          </Stack>
        </form>
      )}
    </PasswordHelpCard>
  );
}
