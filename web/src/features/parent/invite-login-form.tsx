import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useParentTexts } from './i18n';
import { useParentLogin } from './parent.mutations';

type Errors = Partial<Record<string, string>>;

/**
 * Sign in with an existing parent account (specification §5 "Invite login"): on the
 * pickup-code invite and on a school's invite link, which then links the child itself.
 */
export function InviteLoginForm() {
  const { t } = useParentTexts();
  const [fields, setFields] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const login = useParentLogin({ message: t('invite.loginSuccess') }, () => {});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!fields.username.trim()) found.username = t('validation.username');
    if (!fields.password) found.password = t('validation.password');
    setErrors(found);
    if (Object.keys(found).length === 0)
      login.mutate({ username: fields.username.trim(), password: fields.password });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('login.username')}
          size="lg"
          autoComplete="username"
          autoCapitalize="none"
          value={fields.username}
          error={errors.username}
          onChange={(event) => setFields({ ...fields, username: event.currentTarget.value })}
        />
        <PasswordInput
          label={t('login.password')}
          size="lg"
          autoComplete="current-password"
          value={fields.password}
          error={errors.password}
          onChange={(event) => setFields({ ...fields, password: event.currentTarget.value })}
        />
        <Button type="submit" size="lg" fullWidth loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Stack>
    </form>
  );
}
