import { homeOf, PASSWORD_MIN, passwordChangeSchema, type User } from '@curbside/domain';
import {
  Alert,
  Button,
  Card,
  Center,
  Container,
  Group,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { CurbsideMark } from '../../components/logo';
import { fieldErrorsFrom, issuesOf, useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { useChangePassword, useLogout } from './auth.mutations';

type Field = 'currentPassword' | 'newPassword' | 'confirm';
const FIELDS: ReadonlyArray<Field> = ['currentPassword', 'newPassword', 'confirm'];

export const PASSWORDS_DIFFER = 'The two new passwords do not match';

/**
 * Before anything else, a user signed in with a one-time password sets their
 * own: the one-time password, the new one twice. Then they go on to their
 * role's home.
 */
export function SetPasswordScreen({ user }: { user: User }) {
  const change = useChangePassword();
  const logout = useLogout();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    currentPassword: '',
    newPassword: '',
    confirm: '',
  });
  const { errors, set: setErrors, clear, showServerError } = useFieldErrors<Field>(FIELDS);

  // What the server refused that names no field (a dropped connection, too many attempts).
  const failure =
    change.isError && issuesOf(change.error).length === 0 ? errorMessage(change.error) : undefined;

  const bind = (field: Field) => ({
    value: values[field],
    error: errors[field],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
      clear(field);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordChangeSchema.safeParse(values);
    const next = parsed.success ? {} : fieldErrorsFrom<Field>(parsed.error.issues);
    if (values.confirm !== values.newPassword) next.confirm ??= PASSWORDS_DIFFER;
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    change.mutate(parsed.data, {
      onSuccess: (updated) => void navigate(homeOf(updated.role), { replace: true }),
      // A wrong or expired one-time password is the server's, shown under its field.
      onError: (error) => showServerError(error),
    });
  };

  return (
    <Center mih="100dvh" p={{ base: 'xs', sm: 'md' }} component="main">
      <Container size={560} w="100%" p={0}>
        <Stack gap="lg">
          <Group justify="center" gap="sm">
            <CurbsideMark size={44} />
            <Text fz="h2" fw={800}>
              Curbside
            </Text>
          </Group>
          <Card p={{ base: 'md', sm: 'xl' }}>
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                <Stack gap={4}>
                  <Title order={1} fz="h2">
                    Set your password
                  </Title>
                  <Text>
                    Welcome, {user.name}. You signed in with a one-time password: choose your own (at least{' '}
                    {PASSWORD_MIN} characters) to continue.
                  </Text>
                </Stack>
                <PasswordInput
                  label="Current password"
                  description="The one-time password you signed in with"
                  autoComplete="current-password"
                  required
                  {...bind('currentPassword')}
                  data-autofocus
                />
                <PasswordInput
                  label="New password"
                  autoComplete="new-password"
                  required
                  {...bind('newPassword')}
                />
                <PasswordInput
                  label="Confirm new password"
                  autoComplete="new-password"
                  required
                  {...bind('confirm')}
                />
                {(errors.form ?? failure) && (
                  <Alert color="red" variant="light" role="alert">
                    {errors.form ?? failure}
                  </Alert>
                )}
                <Button type="submit" fullWidth loading={change.isPending}>
                  Set Password
                </Button>
                <Button variant="subtle" onClick={() => logout.mutate()} disabled={logout.isPending}>
                  Sign out
                </Button>
              </Stack>
            </form>
          </Card>
        </Stack>
      </Container>
    </Center>
  );
}
