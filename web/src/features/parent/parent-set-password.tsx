import { PASSWORD_MIN, type User } from '@curbside/domain';
import { Alert, Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { errorMessage } from '../../lib/http';
import { useParentTexts } from './i18n';
import { useParentChangePassword, useParentLogout } from './parent.mutations';
import { ParentLayout } from './parent-layout';
import { parentPasswordError, usePasswordFields } from './password-rules';

type Field = 'currentPassword' | 'newPassword' | 'confirm';

/**
 * A parent signed in with the one-time password the school gave chooses
 * their own before anything else (the server answers nothing else until
 * then); then the dashboard shows.
 */
export function ParentSetPassword({ user }: { user: User }) {
  const { t, serverText } = useParentTexts();
  const change = useParentChangePassword();
  const logout = useParentLogout();
  const { values, setErrors, bind } = usePasswordFields<Field>(['currentPassword', 'newPassword', 'confirm']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    if (values.currentPassword === '') next.currentPassword = t('validation.password');
    const weak = parentPasswordError(values.newPassword, t);
    if (weak) next.newPassword = weak;
    else if (values.newPassword === values.currentPassword) next.newPassword = t('password.same');
    if (values.confirm !== values.newPassword) next.confirm = t('password.mismatch');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    change.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword });
  };
  return (
    <ParentLayout>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Stack gap={4}>
              <Title order={1} fz={{ base: 26, sm: 32 }}>
                {t('password.title')}
              </Title>
              <Text>{user.name}</Text>
              <Text c="dimmed">{t('password.intro', { min: PASSWORD_MIN })}</Text>
            </Stack>
            <PasswordInput
              label={t('password.current')}
              autoComplete="current-password"
              {...bind('currentPassword')}
            />
            <PasswordInput label={t('password.new')} autoComplete="new-password" {...bind('newPassword')} />
            <PasswordInput label={t('password.confirm')} autoComplete="new-password" {...bind('confirm')} />
            {change.isError && (
              <Alert color="red" variant="light" role="alert">
                {serverText(errorMessage(change.error))}
              </Alert>
            )}
            <Button type="submit" size="lg" fullWidth loading={change.isPending}>
              {t('password.submit')}
            </Button>
            <Button variant="subtle" onClick={() => logout.mutate()} disabled={logout.isPending}>
              {t('dashboard.signOut')}
            </Button>
          </Stack>
        </form>
      </Card>
    </ParentLayout>
  );
}
