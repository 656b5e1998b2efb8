import { routes } from '@curbside/api';
import type { SessionInput } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { sessionQueries } from './sessions.queries';

/** Starts a pickup or dropoff session for the user's school. */
export const useCreateSession = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SessionInput) => api(routes.createSession, { body: input }),
    onSuccess: () => {
      notifications.show({
        color: 'green',
        title: 'Session created',
        message: 'The new session has been started successfully',
      });
    },
    onError: (error) => {
      notifications.show({ color: 'red', title: 'Failed to create session', message: errorMessage(error) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionQueries.all }),
  });
};

/** Ends the running session (`PUT /api/sessions/{id}/end`, no body). */
export const useEndSession = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(routes.endSession, { params: { id } }),
    onSuccess: () => {
      notifications.show({ title: 'Session ended', message: 'The session has been ended successfully' });
    },
    onError: (error) => {
      notifications.show({ color: 'red', title: 'Failed to end session', message: errorMessage(error) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionQueries.all }),
  });
};
