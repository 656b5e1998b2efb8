import { routes } from '@curbside/api';
import type { AcceptInviteInput } from '@curbside/domain';
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
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type LoaderFunctionArgs, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { appQueryClient } from '../../lib/query-client';
import { switchUser } from '../auth/auth.mutations';
import { useMe } from '../auth/auth.queries';
import { useParentTexts } from './i18n';
import { InviteLoginForm } from './invite-login-form';
import { parentQueries } from './parent.queries';
import { ParentLayout } from './parent-layout';
import { parentPasswordError } from './password-rules';

type Errors = Partial<Record<string, string>>;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Accepts the invite (`POST /api/parent-invites/accept`), then goes on to the child's live status. */
const useAcceptInvite = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (body: AcceptInviteInput) => api(routes.acceptParentInvite, { body }),
    onSuccess: (answer) => {
      switchUser(queryClient, answer.user);
      // The children and their status are read again; the used link is not looked up again (it would answer 410).
      void queryClient.invalidateQueries({ queryKey: parentQueries.students().queryKey });
      void queryClient.invalidateQueries({ queryKey: parentQueries.status().queryKey });
      navigate('/parent-dashboard', { replace: true });
    },
  });
};

function SignupForm({
  token,
  accept,
  pending,
}: {
  token: string;
  accept: (body: AcceptInviteInput) => void;
  pending: boolean;
}) {
  const { t } = useParentTexts();
  const [fields, setFields] = useState({
    firstName: '',
    lastName: '',
    username: '',
    password: '',
    phone: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (name: keyof typeof fields) => (event: { currentTarget: { value: string } }) =>
    setFields({ ...fields, [name]: event.currentTarget.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!fields.firstName.trim()) found.firstName = t('inviteLink.firstNameRequired');
    if (!fields.lastName.trim()) found.lastName = t('inviteLink.lastNameRequired');
    if (!fields.username.trim()) found.username = t('validation.username');
    const password = parentPasswordError(fields.password, t);
    if (password) found.password = password;
    if (!fields.phone.trim()) found.phone = t('validation.phone');
    setErrors(found);
    if (Object.keys(found).length === 0) accept({ token, ...fields });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('inviteLink.firstName')}
          size="lg"
          autoComplete="given-name"
          value={fields.firstName}
          error={errors.firstName}
          onChange={set('firstName')}
        />
        <TextInput
          label={t('inviteLink.lastName')}
          size="lg"
          autoComplete="family-name"
          value={fields.lastName}
          error={errors.lastName}
          onChange={set('lastName')}
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
          label={t('invite.phone')}
          type="tel"
          size="lg"
          autoComplete="tel"
          value={fields.phone}
          error={errors.phone}
          onChange={set('phone')}
        />
        <Button type="submit" size="lg" fullWidth loading={pending}>
          {t('invite.createAccount')}
        </Button>
      </Stack>
    </form>
  );
}

function Problem({ text }: { text: string }) {
  const { t } = useParentTexts();
  return (
    <Card p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="sm">
        <Title order={1}>{t('inviteLink.problemTitle')}</Title>
        <Text fz="lg">{text}</Text>
      </Stack>
    </Card>
  );
}

/** The link's lookup, kept for the page's life (a refused one is not asked again: failures count against the address). */
const lookupOf = (token: string) => ({
  ...parentQueries.inviteLink(token),
  staleTime: Number.POSITIVE_INFINITY,
  retryOnMount: false,
});

/**
 * The route's loader: the link is looked up as the page's code arrives, beside who is signed
 * in, not once the page has drawn. It does not wait for the answer.
 */
export const inviteLinkLoader = ({ request }: LoaderFunctionArgs) => {
  const token = new URL(request.url).searchParams.get('t') ?? '';
  if (TOKEN.test(token)) void appQueryClient.prefetchQuery(lookupOf(token));
  return null;
};

/**
 * `/parent/invite?t=`: the link of a school's invite letter or email. Names the
 * school and the child (first name, last initial), offers an account or a
 * sign-in, accepts the invite and opens the child's live status.
 */
export function InviteLinkPage() {
  const { t, serverText } = useParentTexts();
  const token = useSearchParams()[0].get('t') ?? '';
  const valid = TOKEN.test(token);
  const { user, isLoading } = useMe();
  const accept = useAcceptInvite();
  // Looked up until accepted: signing in forgets cached answers, and the used link would answer 410.
  const lookup = useQuery({ ...lookupOf(token), enabled: valid && accept.isIdle });
  const started = useRef(false);
  const parent = user?.role === 'parent' && !user.mustChangePassword;
  // Accepted once: by the new account's form, or by itself once a parent is signed in.
  const acceptOnce = (body: AcceptInviteInput) => {
    if (started.current) return;
    started.current = true;
    // A refused account (a username taken) may be corrected and sent again.
    accept.mutate(body, {
      onError: () => {
        started.current = false;
      },
    });
  };
  useEffect(() => {
    if (!parent || !lookup.isSuccess || started.current) return;
    started.current = true;
    accept.mutate({ token });
  }, [parent, lookup.isSuccess, accept, token]);
  useEffect(() => {
    if (accept.isError) {
      notifications.show({
        color: 'red',
        title: t('invite.linkingFailed'),
        message: serverText(errorMessage(accept.error)),
      });
    }
  }, [accept.isError, accept.error, serverText, t]);

  let body: React.ReactNode;
  if (!valid) body = <Problem text={t('inviteLink.missing')} />;
  else if (lookup.isError) body = <Problem text={serverText(errorMessage(lookup.error))} />;
  else if (lookup.isPending || isLoading) {
    body = (
      <Stack align="center" gap="xs" role="status">
        <Loader aria-hidden />
        <Text>{t('invite.loading')}</Text>
      </Stack>
    );
  } else {
    const student = lookup.data.student;
    const name = student ? `${student.firstName} ${student.lastInitial}.` : '';
    body = (
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={1}>{t('inviteLink.title', { name })}</Title>
            {lookup.data.schoolName && (
              <Text c="dimmed" fz="lg">
                {t('inviteLink.atSchool', { school: lookup.data.schoolName })}
              </Text>
            )}
          </Stack>
          {accept.isError && (
            <Alert color="red" title={t('invite.linkingFailed')}>
              {serverText(errorMessage(accept.error))}
            </Alert>
          )}
          {parent ? (
            <Stack gap="xs" align="center" role="status">
              <Loader aria-hidden />
              <Text>{t('invite.linking')}</Text>
            </Stack>
          ) : (
            <>
              <Text>{t('inviteLink.intro')}</Text>
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
                  <SignupForm token={token} accept={acceptOnce} pending={accept.isPending} />
                </Tabs.Panel>
                <Tabs.Panel value="login">
                  <InviteLoginForm />
                </Tabs.Panel>
              </Tabs>
            </>
          )}
        </Stack>
      </Card>
    );
  }
  return <ParentLayout>{body}</ParentLayout>;
}
