import { Alert, Anchor, Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/http';
import { useParentTexts } from './i18n';
import { useForgotPassword } from './parent.mutations';
import { ParentLayout } from './parent-layout';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * `/parent/forgot-password` (issue 50): the parent's email address, then the
 * same answer whether or not an account has it: a link to choose a new
 * password is on its way if one does, good for an hour.
 */
export function ForgotPasswordPage() {
  const { t, serverText } = useParentTexts();
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
    <ParentLayout>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {t('forgot.title')}
          </Title>
          {forgot.isSuccess ? (
            <Alert color="green" variant="light" role="status">
              <Text>{t('forgot.sent')}</Text>
            </Alert>
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
                {forgot.isError && (
                  <Alert color="red" variant="light" role="alert" title={t('forgot.failed')}>
                    {serverText(errorMessage(forgot.error))}
                  </Alert>
                )}
                <Button type="submit" size="lg" fullWidth loading={forgot.isPending}>
                  {t('forgot.submit')}
                </Button>
              </Stack>
            </form>
          )}
          <Anchor component={Link} to="/parent-login">
            {t('forgot.back')}
          </Anchor>
        </Stack>
      </Card>
    </ParentLayout>
  );
}
