import { Alert, Anchor, Button, Card, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useMe } from '../auth/auth.queries';
import { healthQueries } from '../health/health.queries';
import { useParentTexts } from './i18n';
import { useParentLogin } from './parent.mutations';
import { ParentLayout } from './parent-layout';

/** The demo parent account, listed only where the demo seed ran. */
const DEMO = { username: 'parent_demo', password: 'demo1234' };

/** `/parent-login`: username and password; Sign In is enabled once both are filled in. */
export function ParentLoginPage() {
  const { t } = useParentTexts();
  const navigate = useNavigate();
  const { user, isLoading } = useMe();
  const demo = useQuery(healthQueries.status()).data?.demo === true;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useParentLogin({ title: t('login.success'), message: t('login.welcome') }, () =>
    navigate('/parent-dashboard', { replace: true }),
  );
  if (isLoading) return null;
  if (user?.role === 'parent' && !login.isSuccess) return <Navigate to="/parent-dashboard" replace />;
  const ready = username.trim() !== '' && password.trim() !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) login.mutate({ username: username.trim(), password });
  };
  return (
    <ParentLayout>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1}>{t('login.title')}</Title>
            <TextInput
              label={t('login.username')}
              size="lg"
              autoComplete="username"
              autoCapitalize="none"
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
            />
            <PasswordInput
              label={t('login.password')}
              size="lg"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Button type="submit" size="lg" fullWidth disabled={!ready} loading={login.isPending}>
              {t('login.submit')}
            </Button>
            <Anchor component={Link} to="/parent/forgot-password" fw={600}>
              {t('login.forgot')}
            </Anchor>
            {demo && (
              <Alert variant="light" title={t('login.demo')}>
                <Text>{t('login.demoCredentials', DEMO)}</Text>
              </Alert>
            )}
            <Anchor component={Link} to="/parent">
              {t('login.back')}
            </Anchor>
          </Stack>
        </form>
      </Card>
    </ParentLayout>
  );
}
