import { Alert, Anchor, Button, Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/http';
import { useParentTexts } from './i18n';
import { ParentLayout } from './parent-layout';

/**
 * The frame of the "Forgot password?" pages (issue 50): the card and its
 * title, the page, and "Back to sign in" unless the page says otherwise.
 */
export function PasswordHelpCard({
  title,
  back = true,
  children,
}: {
  title: string;
  back?: boolean;
  children: ReactNode;
}) {
  const { t } = useParentTexts();
  return (
    <ParentLayout>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {title}
          </Title>
          {children}
          {back && (
            <Anchor component={Link} to="/parent-login">
              {t('forgot.back')}
            </Anchor>
          )}
        </Stack>
      </Card>
    </ParentLayout>
  );
}

/** A form's submit button, and above it why its last request failed, in the screen's language. */
export function SubmitWithFailure({
  request,
  failedTitle,
  label,
}: {
  request: { isError: boolean; error: unknown; isPending: boolean };
  failedTitle: string;
  label: string;
}) {
  const { serverText } = useParentTexts();
  return (
    <>
      {request.isError && (
        <Alert color="red" variant="light" role="alert" title={failedTitle}>
          {serverText(errorMessage(request.error))}
        </Alert>
      )}
      <Button type="submit" size="lg" fullWidth loading={request.isPending}>
        {label}
      </Button>
    </>
  );
}

/** How it went (done: a status; not: an alert), and the button to what comes next. */
export function NextStep({
  done,
  message,
  to,
  label,
}: {
  done: boolean;
  message: string;
  to?: string;
  label?: string;
}) {
  return (
    <Stack gap="md">
      <Alert color={done ? 'green' : 'red'} variant="light" role={done ? 'status' : 'alert'}>
        <Text>{message}</Text>
      </Alert>
      {to && (
        <Button component={Link} to={to} size="lg" fullWidth>
          {label}
        </Button>
      )}
    </Stack>
  );
}
