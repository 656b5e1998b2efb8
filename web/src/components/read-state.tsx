import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { errorMessage } from '../lib/http';

/** A read in progress, named for screen readers. */
export function Loading({ label }: { label: string }) {
  return (
    <Center py="lg">
      <Loader aria-label={label} />
    </Center>
  );
}

/** Errors already toasted: going back to a step does not toast its failed read again. */
const toasted = new WeakSet<object>();

/**
 * A read that failed: its toast once (specification §8, the title with the
 * server's message), and on the page until it works, with Try again.
 */
export function QueryError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  useEffect(() => {
    if (typeof error === 'object' && error !== null) {
      if (toasted.has(error)) return;
      toasted.add(error);
    }
    notifications.show({ color: 'red', title, message: errorMessage(error) });
  }, [title, error]);
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text>{errorMessage(error)}</Text>
        <Button variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

/** A read without its data yet: loading while it runs, its error (with Try again) when it failed. */
export function ReadState(props: { query: UseQueryResult<unknown>; loading: string; failed: string }) {
  const { query } = props;
  if (query.isPending) return <Loading label={props.loading} />;
  if (query.isError)
    return <QueryError title={props.failed} error={query.error} onRetry={() => void query.refetch()} />;
  return null;
}
