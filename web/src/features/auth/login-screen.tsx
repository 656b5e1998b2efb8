import {
  Alert,
  Box,
  Button,
  Card,
  Center,
  Container,
  Divider,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CurbsideMark } from '../../components/logo';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { useLogin } from './auth.mutations';

/** The four demo accounts listed on the sandbox form (password `demo1234`). */
export const DEMO_ACCOUNTS = [
  { label: 'Front Queue', username: 'front_demo' },
  { label: 'Teacher', username: 'teacher_demo' },
  { label: 'School Admin', username: 'admin_demo' },
  { label: 'District Admin', username: 'district_demo' },
] as const;
export const DEMO_PASSWORD = 'demo1234';

/** Single sign-on starts with a full-page visit, so the identity provider can redirect back. */
export const PRODUCTION_LOGIN_URL = '/api/auth/login';

/** Why a single sign-on came back without signing in (`/login?sso=…`, set by the server). */
export const SSO_FAILURES: Readonly<Record<string, string>> = {
  unavailable: 'Single sign-on is not set up for this deployment yet. Use the sandbox demo sign-in instead.',
  expired: 'That sign-in link has expired or was already used. Please try again.',
  denied: 'Sign-in was cancelled at Clever. Please try again.',
  unknown:
    'Your Clever account is not linked to a Curbside staff account. Ask your district administrator to add you.',
  inactive: 'Your Curbside account is deactivated. Ask your district administrator to reactivate it.',
  failed: 'Sign-in through Clever failed. Please try again in a moment.',
};

function ChooseMethod({ onDemo, failure }: { onDemo: () => void; failure: string | undefined }) {
  return (
    <Stack gap="lg">
      <Title order={2} ta="center">
        Choose how to sign in
      </Title>
      {failure && (
        <Alert color="red" variant="light" role="alert" title="Not signed in">
          {failure}
        </Alert>
      )}
      <Card>
        <Stack gap="sm">
          <Title order={3}>Production Login</Title>
          <Text>Sign in with your school's single sign-on account. Gives full system permissions.</Text>
          {/* The label wraps on a narrow phone instead of being cut off. */}
          <Button
            fullWidth
            h="auto"
            mih={50}
            py={8}
            styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 } }}
            onClick={() => window.location.assign(PRODUCTION_LOGIN_URL)}
          >
            Continue with Single Sign-On
          </Button>
        </Stack>
      </Card>
      <Card>
        <Stack gap="sm">
          <Title order={3}>Sandbox Demo</Title>
          <Text>Try Curbside with demo accounts and sample data.</Text>
          <Button fullWidth variant="outline" onClick={onDemo}>
            Use Demo Login
          </Button>
        </Stack>
      </Card>
    </Stack>
  );
}

const LOGIN_FIELDS = ['username', 'password'] as const;

/** The form's rules (`login-schema.ts`): asked for when the form is first used, waited for on a send. */
const loadRules = () => import('./login-schema');

function DemoLogin({ onBack }: { onBack: () => void }) {
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { errors, show, reset } = useFieldErrors(LOGIN_FIELDS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { loginSchema } = await loadRules();
    const parsed = loginSchema.safeParse({ username, password });
    if (!parsed.success) {
      show(parsed.error.issues);
      return;
    }
    reset();
    login.mutate(parsed.data);
  };

  const fill = (account: string) => {
    setUsername(account);
    setPassword(DEMO_PASSWORD);
    reset();
    login.reset();
  };

  return (
    <Stack gap="lg">
      <Box>
        <Button variant="subtle" size="md" px="xs" onClick={onBack}>
          ← Back to login options
        </Button>
      </Box>
      <Stack gap={4}>
        <Title order={2}>Sandbox Demo Login</Title>
        <Text c="dimmed">Sign in with a demo account to explore the sandbox.</Text>
      </Stack>
      <form
        onSubmit={(event) => void submit(event)}
        onFocus={() => void loadRules().catch(() => {})}
        noValidate
      >
        <Stack gap="md">
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            error={errors.username}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
          />
          {login.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(login.error) || 'Login failed. Please try again.'}
            </Alert>
          )}
          <Button type="submit" fullWidth loading={false} disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign In to Demo'}
          </Button>
        </Stack>
      </form>
      <Divider />
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={3}>Demo accounts</Title>
          <Text>
            Password:{' '}
            <Text span fw={700} ff="monospace">
              {DEMO_PASSWORD}
            </Text>
          </Text>
        </Group>
        <SimpleGrid cols={2} spacing="sm">
          {DEMO_ACCOUNTS.map((account) => (
            <UnstyledButton
              key={account.username}
              onClick={() => fill(account.username)}
              p="sm"
              mih={56}
              style={{
                border: '1px solid var(--mantine-color-default-border)',
                borderRadius: 'var(--mantine-radius-md)',
              }}
            >
              <Text fw={700}>
                <VisuallyHidden>Use the </VisuallyHidden>
                {account.label}
                <VisuallyHidden> demo account</VisuallyHidden>
              </Text>
              <Text ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {account.username}
              </Text>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}

/**
 * The staff login screen. It opens on the sandbox username and password form;
 * the back link leads to the choice between production single sign-on and the
 * sandbox demo. Back from a single sign-on that failed, it opens on the
 * choice, saying why.
 */
export function LoginScreen() {
  const [params] = useSearchParams();
  const sso = params.get('sso');
  const failure = sso === null ? undefined : (SSO_FAILURES[sso] ?? SSO_FAILURES.failed);
  // Back from a single sign-on that did not sign in: the choice, with the reason.
  const [mode, setMode] = useState<'demo' | 'choose'>(failure ? 'choose' : 'demo');
  return (
    <Center mih="100dvh" p={{ base: 'xs', sm: 'md' }} component="main">
      <Container size={560} w="100%" p={0}>
        <Stack gap="lg">
          <Group justify="center" gap="sm">
            <CurbsideMark size={44} />
            <Title order={1}>Curbside</Title>
          </Group>
          <Card p={{ base: 'md', sm: 'xl' }}>
            {mode === 'demo' ? (
              <DemoLogin onBack={() => setMode('choose')} />
            ) : (
              <ChooseMethod onDemo={() => setMode('demo')} failure={failure} />
            )}
          </Card>
        </Stack>
      </Container>
    </Center>
  );
}
