import { routes } from '@curbside/api';
import type { LoginInput, passwordChangeSchema, User } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { api } from '../../lib/api';
import { errorMessage, request } from '../../lib/http';
import { authQueries } from './auth.queries';

type PasswordChange = z.output<typeof passwordChangeSchema>;

/** Forgets every cached answer of the previous user, then sets the current one. */
export const switchUser = (queryClient: QueryClient, user: User | null) => {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authQueries.all[0] });
  queryClient.setQueryData(authQueries.me().queryKey, user);
};

/** Staff sign-in with username and password; on success the app goes to `/`, which redirects by role. */
export const useLogin = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (input: LoginInput) => api(routes.login, { body: input }),
    onSuccess: (user) => {
      switchUser(queryClient, user);
      notifications.show({ title: 'Logged in successfully', message: `Welcome back, ${user.name}!` });
      void navigate('/', { replace: true });
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'Login failed',
        message: errorMessage(error) || 'Authentication failed',
      });
    },
  });
};

/** Staff sign-out: `POST /api/logout` with `{}`; the user is cleared either way and the login screen shown. */
export const useLogout = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => request(routes.logout.method, routes.logout.path, {}),
    onSuccess: () => {
      notifications.show({ message: 'Logged out successfully' });
    },
    onError: (error) => {
      console.error('Logout failed:', error);
      notifications.show({ color: 'red', message: 'Error logging out' });
    },
    onSettled: () => {
      switchUser(queryClient, null);
      void queryClient.invalidateQueries({ queryKey: authQueries.all });
      void navigate('/login', { replace: true });
    },
  });
};

/** While a password change is under way (its own live connection closes: see `LiveProvider`). */
export const CHANGE_PASSWORD_KEY = ['auth', 'password'] as const;

/**
 * A signed-in user replaces their (one-time) password: the answer is the
 * user, no longer asked to change it, with a new session cookie.
 */
export const useChangePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: CHANGE_PASSWORD_KEY,
    mutationFn: (input: PasswordChange) => api(routes.changePassword, { body: input }),
    onSuccess: (user) => {
      queryClient.setQueryData(authQueries.me().queryKey, user);
      notifications.show({ color: 'green.9', title: 'Password set', message: `Welcome, ${user.name}!` });
    },
  });
};
