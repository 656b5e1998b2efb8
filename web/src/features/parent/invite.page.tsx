import { pickupCodeSchema } from '@curbside/domain';
import {
  Alert,
  Button,
  Card,
  Loader,
  PasswordInput,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, type LoaderFunctionArgs, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../lib/http';
import { appQueryClient } from '../../lib/query-client';
import { useMe } from '../auth/auth.queries';
import { useParentTexts } from './i18n';
import { InviteLoginForm } from './invite-login-form';
import { useLinkStudent, useParentRegister } from './parent.mutations';
import { parentQueries } from './parent.queries';
import { ParentLayout } from './parent-layout';
import { ParentSetPassword } from './parent-set-password';
import { parentPasswordError } from './password-rules';

/** After linking, the page goes on to the dashboard after this long (specification §9). */
export const INVITE_REDIRECT_MS = 2000;

type Errors = Partial<Record<string, string>>;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Create a parent account (specification §5 "Invite signup"). */
function SignupTab() {
  const { t } = useParentTexts();
  const [fields, setFields] = useState({ name: '', username: '', password: '', email: '', phone: '' });
  const [errors, setErrors] = useState<Errors>({});
  const register = useParentRegister();
  const set = (name: keyof typeof fields) => (event: { currentTarget: { value: string } }) =>
    setFields({ ...fields, [name]: event.currentTarget.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!fields.name.trim()) found.name = t('validation.name');
    if (!fields.username.trim()) found.username = t('validation.username');
    const password = parentPasswordError(fields.password, t);
    if (password) found.password = password;
    if (!EMAIL.test(fields.email.trim())) found.email = t('validation.email');
    if (!fields.phone.trim()) found.phone = t('validation.phone');
    setErrors(found);
    if (Object.keys(found).length === 0) register.mutate(fields);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('invite.name')}
          size="lg"
          autoComplete="name"
          value={fields.name}
          error={errors.name}
          onChange={set('name')}
        />
        <TextInput
          label={t('login.username')}
          size="lg"
          autoComplete="username"
          autoCapitalize="none"
          value={fields.username}
          error={errors.username}
          onChange={set('username')}
        />
        <PasswordInput
          label={t('login.password')}
          size="lg"
          autoComplete="new-password"
          value={fields.password}
          error={errors.password}
          onChange={set('password')}
        />
        <TextInput
          label={t('invite.email')}
          type="email"
          size="lg"
          autoComplete="email"
          value={fields.email}
          error={errors.email}
          onChange={set('email')}
        />
        <TextInput
          label={t('invite.phone')}
          type="tel"
          size="lg"
          autoComplete="tel"
          value={fields.phone}
          error={errors.phone}
          onChange={set('phone')}
        />
        <Button type="submit" size="lg" fullWidth loading={register.isPending}>
          {t('invite.createAccount')}
        </Button>
      </Stack>
    </form>
  );
}

/** Once signed in as a parent: links the child once, then goes on to the dashboard after 2 s. */
function Linking({ code }: { code: string }) {
  const { t, serverText } = useParentTexts();
  const navigate = useNavigate();
  const link = useLinkStudent({ message: t('invite.linked') }, t('invite.linkingFailed'));
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    link.mutate(code);
  }, [code, link]);
  useEffect(() => {
    if (!link.isSuccess) return;
    const timer = setTimeout(() => navigate('/parent-dashboard', { replace: true }), INVITE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [link.isSuccess, navigate]);
  if (link.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" title={t('invite.linkingFailed')}>
          {serverText(errorMessage(link.error))}
        </Alert>
        <Button component={Link} to="/parent-dashboard" size="lg">
          {t('invite.toDashboard')}
        </Button>
      </Stack>
    );
  }
  if (link.isSuccess) {
    return (
      <Stack gap="xs" role="status">
        <Text fw={800} fz="xl">
          {t('invite.linked')}
        </Text>
        <Text>{t('invite.redirecting')}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" align="center" role="status">
      <Loader aria-hidden />
      <Text>{t('invite.linking')}</Text>
    </Stack>
  );
}

/** A page that says what is wrong with the link. */
function Problem({ title, text }: { title: string; text: string }) {
  return (
    <Card p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="sm">
        <Title order={1}>{title}</Title>
        <Text fz="lg">{text}</Text>
      </Stack>
    </Card>
  );
}

/** The code's lookup, kept for the page's life (a refused one is not asked again: failures count against the address). */
const lookupOf = (code: string) => ({
  ...parentQueries.invite(code),
  staleTime: Number.POSITIVE_INFINITY,
  retryOnMount: false,
});

const codeOf = (param: string | undefined) => (param ?? '').toUpperCase();

/**
 * The route's loader: the code is looked up as the page's code arrives, beside who is signed
 * in, not once the page has drawn. It does not wait for the answer.
 */
export const inviteLoader = ({ params }: LoaderFunctionArgs) => {
  const code = codeOf(params.code);
  if (pickupCodeSchema.safeParse(code).success) void appQueryClient.prefetchQuery(lookupOf(code));
  return null;
};

/**
 * `/invite/:code`: the link in a pickup-code QR. Looks the code up, offers
 * sign-in or sign-up, then links the child once and goes on to the dashboard.
 */
export function InvitePage() {
  const { t, serverText } = useParentTexts();
  const code = codeOf(useParams().code);
  const valid = pickupCodeSchema.safeParse(code).success;
  const { user, isLoading } = useMe();
  const lookup = useQuery({ ...lookupOf(code), enabled: valid });
  const [linkStarted, setLinkStarted] = useState(false);
  // A parent signed in with a one-time password chooses their own first; then the child is linked.
  const parent = user?.role === 'parent' && !user.mustChangePassword;
  useEffect(() => {
    if (parent && lookup.isSuccess) setLinkStarted(true);
  }, [parent, lookup.isSuccess]);
  if (user?.role === 'parent' && user.mustChangePassword) return <ParentSetPassword user={user} />;

  let body: React.ReactNode;
  if (!valid) body = <Problem title={t('invite.missingTitle')} text={t('invite.missing')} />;
  else if (lookup.isError && !linkStarted) {
    body = (
      <Problem
        title={t('invite.invalidTitle')}
        text={`${serverText(errorMessage(lookup.error))}. ${t('invite.invalidHint')}`}
      />
    );
  } else if (lookup.isPending || isLoading) {
    body = (
      <Stack align="center" gap="xs" role="status">
        <Loader aria-hidden />
        <Text>{t('invite.loading')}</Text>
      </Stack>
    );
  } else {
    const student = lookup.data?.student;
    const name = student ? `${student.firstName} ${student.lastInitial}.` : '';
    body = (
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={1}>{t('invite.title', { name })}</Title>
            {lookup.data?.schoolName && (
              <Text c="dimmed" fz="lg">
                {t('invite.atSchool', { school: lookup.data.schoolName })}
              </Text>
            )}
          </Stack>
          {linkStarted ? (
            <Linking code={code} />
          ) : (
            <Tabs defaultValue="signup" keepMounted={false}>
              <Tabs.List grow mb="md">
                <Tabs.Tab value="signup" fz="md">
                  {t('invite.signUpTab')}
                </Tabs.Tab>
                <Tabs.Tab value="login" fz="md">
                  {t('invite.signInTab')}
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="signup">
                <SignupTab />
              </Tabs.Panel>
              <Tabs.Panel value="login">
                <InviteLoginForm />
              </Tabs.Panel>
            </Tabs>
          )}
        </Stack>
      </Card>
    );
  }
  return <ParentLayout>{body}</ParentLayout>;
}
