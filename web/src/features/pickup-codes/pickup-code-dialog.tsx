import {
  canGenerateCode,
  countdownSeconds,
  formatClockTime,
  formatDuration,
  PICKUP_CODE_TTL_MS,
  pickupCodeState,
} from '@curbside/domain';
import { Alert, Button, Center, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { useNow } from '../queue/use-now';
import {
  type CodeStudent,
  inviteUrl,
  NO_STUDENT_SELECTED,
  pickupCodeQueries,
  useCreateCode,
  useGenerateCode,
} from './pickup-codes.queries';
import { QrImage } from './qr-image';

/** The copied indicator resets after 2 seconds. */
export const COPIED_RESET_MS = 2000;

/** Copies text to the clipboard; `copied` is true for 2 s after a copy, a failure shows a toast. */
const useCopy = () => {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (text: string) => {
    try {
      if (!navigator.clipboard) throw new Error('The clipboard is not available');
      await navigator.clipboard.writeText(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
    } catch (error) {
      console.warn('Copy failed:', error);
      notifications.show({ color: 'red', title: 'Copy failed', message: 'Could not copy code to clipboard' });
    }
  };
  return { copied, copy };
};

interface PickupCodeDialogProps {
  /** The student the code is for; null shows 'No student selected'. */
  student: CodeStudent | null;
  opened: boolean;
  onClose: () => void;
  /**
   * `generate` (the teacher screen) uses `POST /api/pickup-codes/generate`
   * and announces the new code; `student` uses `POST /api/students/{id}/pickup-code`.
   */
  via?: 'generate' | 'student';
}

/**
 * A student's pickup code: the code, a copy action, the QR image of the
 * invite link and the expiry. A new code can be generated when none exists
 * or the current one is used or expired; an active code can only be
 * refreshed for its status.
 */
export function PickupCodeDialog({
  student: open,
  opened,
  onClose,
  via = 'generate',
}: PickupCodeDialogProps) {
  // Keep showing the last student while the dialog fades out.
  const last = useRef(open);
  if (opened) last.current = open;
  const student = opened ? open : last.current;
  const name = student ? `${student.firstName} ${student.lastName}` : '';

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      size="md"
      radius="lg"
      closeButtonProps={{ size: 'xl', 'aria-label': 'Close' }}
      title={
        <>
          <Text component="span" display="block" fz={26} fw={800} lh={1.2}>
            Pickup Code
          </Text>
          {student && (
            <Text component="span" display="block" fz="lg" fw={600} c={MUTED_TEXT}>
              {name}
            </Text>
          )}
        </>
      }
    >
      {student ? (
        <CodeBody student={student} via={via} />
      ) : (
        <Text fz="lg" fw={700} py="md" ta="center">
          {NO_STUDENT_SELECTED}
        </Text>
      )}
    </Modal>
  );
}

function CodeBody({ student, via }: { student: CodeStudent; via: 'generate' | 'student' }) {
  const query = useQuery(pickupCodeQueries.student(student.id));
  const generate = useGenerateCode();
  const create = useCreateCode();
  const make = via === 'generate' ? generate : create;
  const now = useNow(1000);
  const { copied, copy } = useCopy();

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader size="lg" aria-label="Loading code" />
      </Center>
    );
  }

  const code = query.data ?? null;
  const state = code ? pickupCodeState(code, now) : null;
  const canMake = canGenerateCode(code, now);
  const url = code ? inviteUrl(code.code) : '';

  return (
    <Stack gap="md" align="stretch">
      {code === null && (
        <Alert
          color="yellow"
          variant="light"
          styles={{ message: { fontSize: 'var(--mantine-font-size-md)' } }}
        >
          No active pickup code found. Generate one for parent linking.
        </Alert>
      )}
      {state === 'expired' && (
        <Alert color="red" variant="light" styles={{ message: { fontSize: 'var(--mantine-font-size-md)' } }}>
          Code has expired. Generate a new one for parent linking.
        </Alert>
      )}
      {code && state === 'used' && (
        <Alert
          color="green"
          variant="light"
          styles={{ message: { fontSize: 'var(--mantine-font-size-md)' } }}
        >
          {`Code ${code.code} was used at ${formatClockTime(code.usedAt as string)}: a parent is linked.`}
        </Alert>
      )}
      {code && state === 'active' && (
        <Stack gap="sm" align="center">
          <Text
            aria-label="Pickup code"
            data-code={code.code}
            fz={56}
            fw={900}
            lh={1}
            ff="monospace"
            style={{ letterSpacing: '0.2em', paddingLeft: '0.2em' }}
          >
            {code.code}
          </Text>
          <Button
            size="lg"
            variant={copied ? 'filled' : 'outline'}
            color={copied ? 'green.9' : undefined}
            onClick={() => void copy(code.code)}
            miw={200}
          >
            {copied ? 'Copied!' : 'Copy Code'}
          </Button>
          <QrImage text={url} label={`QR code for ${url}`} />
          <Text fz="sm" c={MUTED_TEXT} ta="center" style={{ wordBreak: 'break-all' }}>
            {url}
          </Text>
          <Text fz="lg" fw={700} ta="center">
            {`Expires at ${formatClockTime(code.expiresAt)} (${formatDuration(Math.min(countdownSeconds(code.expiresAt, now), PICKUP_CODE_TTL_MS / 1000))} left)`}
          </Text>
        </Stack>
      )}
      {canMake ? (
        <Button size="xl" fullWidth loading={make.isPending} onClick={() => make.mutate(student)}>
          {code === null ? 'Generate Pickup Code' : 'Generate New Code'}
        </Button>
      ) : (
        <Button
          size="xl"
          fullWidth
          variant="default"
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        >
          Refresh Status
        </Button>
      )}
    </Stack>
  );
}
