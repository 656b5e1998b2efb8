import { PARENT_PASSWORD_MIN } from '@curbside/domain';
import { Alert, Anchor, Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage, HttpError } from '../../lib/http';
import { useParentTexts } from './i18n';
import { useResetPassword } from './parent.mutations';
import { ParentLayout } from './parent-layout';
import { parentPasswordError } from './password-rules';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The link no longer works: say so, and offer a new one. */
function InvalidLink() {
  const { t } = useParentTexts();
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" role="alert">
        {t('reset.invalid')}
      </Alert>
      <Button component={Link} to="/parent/forgot-password" size="lg" fullWidth>
        {t('reset.again')}
      </Button>
    </Stack>
  );
}

/**
 * `/parent/reset-password?t=…` (issue 50), the emailed link's page: a new
 * password twice, held to the same rules as the API (at least 8 characters,
 * not a common one); then the parent signs in with it. A used, expired or
 * unknown link says so and offers a new one.
 */
export function ResetPasswordPage() {
  const { t, serverText } = useParentTexts();
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const reset = useResetPassword();
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const bind = (field: 'password' | 'confirm') => ({
    value: values[field],
    error: errors[field],
    size: 'lg' as const,
    autoComplete: 'new-password',
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    const weak = parentPasswordError(values.password, t);
    if (weak) next.password = weak;
    if (values.confirm !== values.password) next.confirm = t('reset.mismatch');
    setErrors(next);
    if (Object.keys(next).length === 0) reset.mutate({ token, password: values.password });
  };
  // A used, expired or unknown link: 410 (a malformed one is known not to work before asking).
  const gone = !TOKEN.test(token) || (reset.error instanceof HttpError && reset.error.status === 410);
  return (
    <ParentLayout>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {t('reset.title')}
          </Title>
          {gone ? (
            <InvalidLink />
          ) : reset.isSuccess ? (
            <Stack gap="md">
              <Alert color="green" variant="light" role="status">
                {t('reset.done')}
              </Alert>
              <Button component={Link} to="/parent-login" size="lg" fullWidth>
                {t('reset.signIn')}
              </Button>
            </Stack>
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <Text c="dimmed">{t('reset.intro', { min: PARENT_PASSWORD_MIN })}</Text>
                <PasswordInput label={t('reset.password')} {...bind('password')} />
                <PasswordInput label={t('reset.confirm')} {...bind('confirm')} />
                {reset.isError && (
                  <Alert color="red" variant="light" role="alert" title={t('reset.failed')}>
                    {serverText(errorMessage(reset.error))}
                  </Alert>
                )}
                <Button type="submit" size="lg" fullWidth loading={reset.isPending}>
                  {t('reset.submit')}
                </Button>
              </Stack>
            </form>
          )}
          {!reset.isSuccess && (
            <Anchor component={Link} to="/parent-login">
              {t('forgot.back')}
            </Anchor>
          )}
        </Stack>
      </Card>
    </ParentLayout>
  );
}
