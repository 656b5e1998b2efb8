import { routes } from '@curbside/api';
import type { ParentRegisterInput, passwordChangeSchema } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { CHANGE_PASSWORD_KEY, switchUser } from '../auth/auth.mutations';
import { authQueries } from '../auth/auth.queries';
import { useParentTexts } from './i18n';
import { parentQueries } from './parent.queries';

/** The toast of a failed parent action: its title, and the server's message in the screen's language. */
const useFailure = () => {
  const { serverText } = useParentTexts();
  return (title: string, error: unknown) =>
    notifications.show({ color: 'red', title, message: serverText(errorMessage(error)) });
};

/** Parent sign-in (`POST /api/auth/parent/login`); the caller says where to go next. */
export const useParentLogin = (toast: { title?: string; message: string }, onDone: () => void) => {
  const queryClient = useQueryClient();
  const { t } = useParentTexts();
  const failed = useFailure();
  return useMutation({
    mutationFn: (input: { username: string; password: string }) => api(routes.parentLogin, { body: input }),
    onSuccess: (user) => {
      switchUser(queryClient, user);
      notifications.show(toast);
      onDone();
    },
    onError: (error) => failed(t('login.failed'), error),
  });
};

/**
 * A parent signed in with the one-time password the school gave replaces it
 * (`POST /api/auth/password`): the answer is the parent, no longer asked to.
 */
export const useParentChangePassword = () => {
  const queryClient = useQueryClient();
  const { t } = useParentTexts();
  return useMutation({
    mutationKey: CHANGE_PASSWORD_KEY,
    mutationFn: (input: z.output<typeof passwordChangeSchema>) => api(routes.changePassword, { body: input }),
    onSuccess: (user) => {
      queryClient.setQueryData(authQueries.me().queryKey, user);
      notifications.show({ color: 'green.9', message: t('password.done') });
    },
  });
};

/** Parent sign-up from an invite (`POST /api/auth/parent/register`, role parent): signed in at once. */
export const useParentRegister = () => {
  const queryClient = useQueryClient();
  const { t } = useParentTexts();
  const failed = useFailure();
  return useMutation({
    mutationFn: (input: Omit<ParentRegisterInput, 'role'>) =>
      api(routes.parentRegister, { body: { ...input, role: 'parent' } }),
    onSuccess: (user) => {
      switchUser(queryClient, user);
      notifications.show({ message: t('invite.accountCreated') });
    },
    onError: (error) => failed(t('invite.registrationFailed'), error),
  });
};

/** Links a child by pickup code (`POST /api/parent/link-student`); the children are read again. */
export const useLinkStudent = (texts: { title?: string; message: string }, failure: string) => {
  const queryClient = useQueryClient();
  const failed = useFailure();
  return useMutation({
    mutationFn: (pickupCode: string) => api(routes.linkStudent, { body: { pickupCode } }),
    onSuccess: () => {
      notifications.show(texts);
      void queryClient.invalidateQueries({ queryKey: parentQueries.students().queryKey });
      void queryClient.invalidateQueries({ queryKey: parentQueries.status().queryKey });
    },
    onError: (error) => failed(failure, error),
  });
};

/** Parent sign-out (`POST /api/auth/logout`), then `/parent-login` whatever the answer. */
export const useParentLogout = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useParentTexts();
  return useMutation({
    mutationFn: () => api(routes.authLogout),
    onSuccess: () => notifications.show({ message: t('dashboard.loggedOut') }),
    onError: (error) => {
      console.error('Logout failed:', error);
      notifications.show({ color: 'red', message: t('dashboard.logoutFailed') });
    },
    onSettled: () => {
      switchUser(queryClient, null);
      void queryClient.invalidateQueries({ queryKey: authQueries.all });
      void navigate('/parent-login', { replace: true });
    },
  });
};

/** "Forgot password?" (`POST /api/auth/parent/forgot-password`): the answer is the same whether or not the address has an account. */
export const useForgotPassword = () =>
  useMutation({
    mutationFn: (email: string) => api(routes.forgotParentPassword, { body: { email } }),
  });

/** A reset link's new password (`POST /api/auth/parent/reset-password`). */
export const useResetPassword = () =>
  useMutation({
    mutationFn: (body: { token: string; password: string }) => api(routes.resetParentPassword, { body }),
  });
