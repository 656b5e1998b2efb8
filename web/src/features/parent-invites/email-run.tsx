import {
  type CreateInvitesInput,
  type EmailRunProgress,
  type EmailRunStarted,
  plural,
} from '@curbside/domain';
import { Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { emailRunQuery, useEmailInvites } from './parent-invites.queries';

const count = (n: number) => n.toLocaleString('en-US');

/** What the office is told when an emailing is done: sent, skipped and (if any) failed. */
export const emailedSummary = ({
  sent,
  skipped,
  failed,
}: Pick<EmailRunProgress, 'sent' | 'skipped' | 'failed'>) =>
  `${plural(sent, 'email')} sent; ${plural(skipped, 'family', 'families')} without an email address skipped.` +
  (failed > 0 ? ` ${plural(failed, 'email')} could not be sent.` : '');

/**
 * Emailing invites: the request answers at once with a mail run; its progress
 * is read every second until done (also with the dialog closed), then a toast
 * says how it went.
 */
export const useEmailRun = () => {
  const email = useEmailInvites();
  const [run, setRun] = useState<EmailRunStarted | null>(null);
  const progress = useQuery({ ...emailRunQuery(run?.runId ?? ''), enabled: run !== null });
  const told = useRef<string | null>(null);
  const done = progress.data?.done === true;

  useEffect(() => {
    if (!run || !done || !progress.data || told.current === run.runId) return;
    told.current = run.runId;
    notifications.show({
      color: progress.data.failed > 0 ? 'yellow' : 'green',
      title: 'Invites emailed',
      message: emailedSummary(progress.data),
    });
  }, [run, done, progress.data]);

  const send = (selector: CreateInvitesInput) =>
    email.mutate(selector, {
      onSuccess: (started) => setRun(started),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Failed to email invites', message: errorMessage(error) }),
    });
  return {
    send,
    run,
    progress: progress.data,
    /** The request is on its way, or its messages are still being sent. */
    sending: email.isPending || (run !== null && !done),
  };
};

/** "Sent 120 of 2,000" with a bar, while an emailing sends and once it is done. */
export function EmailRunStatus({
  run,
  progress,
}: {
  run: EmailRunStarted;
  progress: EmailRunProgress | undefined;
}) {
  const sent = progress?.sent ?? 0;
  const failed = progress?.failed ?? 0;
  const done = progress?.done === true;
  const settled = sent + failed;
  const percent = run.queued === 0 ? 100 : Math.round((settled / run.queued) * 100);
  const headline =
    run.queued === 0
      ? 'No family in this choice has an email address: nothing to send.'
      : `${done ? 'Emailed.' : 'Sending invites…'} Sent ${count(sent)} of ${count(run.queued)}`;
  return (
    <Stack gap={6} component="section" aria-label="Email progress">
      <Text fw={600} aria-live="polite">
        {headline}
      </Text>
      {run.queued > 0 && (
        <Progress
          value={percent}
          color={failed > 0 ? 'yellow' : 'green'}
          size="lg"
          striped={!done}
          animated={!done}
          aria-label="Emails sent"
        />
      )}
      {failed > 0 && (
        <Text c="red.8">
          {plural(failed, 'email')} could not be sent: print those families a letter, or invite them again.
        </Text>
      )}
      {run.skipped > 0 && (
        <Text c={MUTED_TEXT}>
          {plural(run.skipped, 'family', 'families')} without an email address: print them a letter.
        </Text>
      )}
      {!done && run.queued > 0 && (
        <Text c={MUTED_TEXT}>The emails keep going out if you close this window.</Text>
      )}
    </Stack>
  );
}
