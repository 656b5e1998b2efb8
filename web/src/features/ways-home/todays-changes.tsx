import {
  countByMode,
  type DismissalChangeView,
  type WayMode,
  type WayOptions,
  wayText,
} from '@curbside/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { useLiveEvent } from '../live/live';
import { ChangeDialog } from './change-dialog';
import { changeDaysLabel } from './days-text';
import { patchChanges, patchDayPlan } from './ways-home.cache';
import { type SchoolScope, useCancelChange, useDecide, waysHomeQueries } from './ways-home.queries';

const MODE_LABEL: Record<WayMode, string> = {
  car: 'Car riders',
  bus: 'Bus riders',
  walker: 'Walkers',
  program: 'Programs',
  absent: 'Absent',
};

const NO_OPTIONS: WayOptions = { buses: [], programs: [] };

const nameOf = (change: DismissalChangeView) =>
  change.student ? `${change.student.firstName} ${change.student.lastName}` : 'A student who left the school';

/** One change: who, when, how, the family's note, and what the office may do with it. */
function ChangeRow({
  change,
  today,
  options,
  actions,
}: {
  change: DismissalChangeView;
  today: string | null;
  options: WayOptions;
  actions: React.ReactNode;
}) {
  const days = changeDaysLabel(change, today);
  return (
    <Group
      component="li"
      justify="space-between"
      align="flex-start"
      gap="sm"
      py="xs"
      wrap="wrap"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      aria-label={`${nameOf(change)}: ${wayText(change.way, options)}`}
    >
      <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
        <Text fw={700}>
          {nameOf(change)} · {wayText(change.way, options)}
        </Text>
        <Text fz="sm" c={MUTED_TEXT}>
          {days} · asked by {change.requestedBy.name}
          {change.requestedBy.role === 'parent' ? ' (family)' : ''}
        </Text>
        {change.note && (
          <Text fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            “{change.note}”
          </Text>
        )}
      </Stack>
      <Group gap="xs" wrap="nowrap">
        {actions}
      </Group>
    </Group>
  );
}

/** A titled list of changes, each with its actions (or a loader, or the empty text). */
function ChangeList({
  id,
  title,
  loading,
  loadingLabel,
  emptyText,
  changes,
  today,
  options,
  actions,
}: {
  id: string;
  title: string;
  loading: boolean;
  loadingLabel: string;
  emptyText: string;
  changes: readonly DismissalChangeView[];
  today: string | null;
  options: WayOptions;
  actions: (change: DismissalChangeView) => React.ReactNode;
}) {
  return (
    <Stack gap={4} component="section" aria-labelledby={id}>
      <Title order={3} fz="lg" id={id}>
        {title}
      </Title>
      {loading ? (
        <Loader size="sm" aria-label={loadingLabel} />
      ) : changes.length === 0 ? (
        <Text c={MUTED_TEXT}>{emptyText}</Text>
      ) : (
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          {changes.map((change) => (
            <ChangeRow
              key={change.id}
              change={change}
              today={today}
              options={options}
              actions={actions(change)}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The reason a request is denied, asked before the denial is sent. */
function DenyDialog({
  change,
  onClose,
  onDeny,
}: {
  change: DismissalChangeView;
  onClose: () => void;
  onDeny: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Modal opened onClose={onClose} title={`Deny the change for ${nameOf(change)}?`} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onDeny(reason);
        }}
      >
        <Stack gap="sm">
          <Text>The child goes home the usual way. The family is told, with your reason.</Text>
          <TextInput
            label="Reason (optional)"
            maxLength={300}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button type="submit" color="red.8">
              Deny
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The school admin's "Today's changes" (issue 51): the families' requests
 * waiting for a decision first (Approve / Deny), then today's approved
 * changes, and today's counts by way home; all live. The office enters a
 * change from a phone call here too.
 */
export function TodaysChanges({ schoolId, readOnly }: { schoolId: SchoolScope; readOnly: boolean }) {
  const client = useQueryClient();
  const plan = useQuery(waysHomeQueries.dayPlan(schoolId, null));
  const today = plan.data?.date ?? null;
  const pending = useQuery(waysHomeQueries.pending(schoolId));
  const dayChanges = useQuery({
    ...waysHomeQueries.dayChanges(schoolId, today ?? ''),
    enabled: today !== null,
  });
  const options = useQuery(waysHomeQueries.options(schoolId)).data ?? NO_OPTIONS;
  const decide = useDecide();
  const cancel = useCancelChange();
  const [denying, setDenying] = useState<DismissalChangeView | null>(null);
  const [entering, setEntering] = useState(false);

  useLiveEvent('DISMISSAL_CHANGE_UPDATED', ({ data }) => {
    client.setQueryData(waysHomeQueries.pending(schoolId).queryKey, (current) =>
      patchChanges(current, data.change, { kind: 'pending' }),
    );
    if (today)
      client.setQueryData(waysHomeQueries.dayChanges(schoolId, today).queryKey, (current) =>
        patchChanges(current, data.change, { kind: 'day', date: today }),
      );
  });
  useLiveEvent('DISMISSAL_PLAN_CHANGED', ({ data }) => {
    client.setQueryData(waysHomeQueries.dayPlan(schoolId, null).queryKey, (current) =>
      patchDayPlan(current, data),
    );
  });

  const counts = countByMode(plan.data?.students ?? []);
  const waiting = pending.data?.changes ?? [];
  const approvedToday = (dayChanges.data?.changes ?? []).filter((change) => change.status === 'approved');
  const busy = (change: DismissalChangeView) =>
    (decide.isPending && decide.variables?.change.id === change.id) ||
    (cancel.isPending && cancel.variables?.id === change.id);

  return (
    <Card component="section" aria-labelledby="todays-changes" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} id="todays-changes">
            Today's changes
          </Title>
          <Button variant="light" disabled={readOnly} onClick={() => setEntering(true)}>
            Enter a change
          </Button>
        </Group>
        {plan.isError && (
          <Alert color="red" role="alert">
            {plan.error.message}
          </Alert>
        )}
        {plan.isPending ? (
          <Loader aria-label="Loading today's plan" />
        ) : (
          <Group gap="xs" aria-label="Today by way home" role="list">
            {(Object.keys(MODE_LABEL) as WayMode[]).map((mode) => (
              <Badge
                key={mode}
                size="lg"
                variant="light"
                color={mode === 'absent' ? 'gray' : 'blue'}
                role="listitem"
              >
                {MODE_LABEL[mode]}: {counts[mode]}
              </Badge>
            ))}
          </Group>
        )}
        <ChangeList
          id="changes-waiting"
          title={`Waiting for a decision (${waiting.length})`}
          loading={pending.isPending}
          loadingLabel="Loading the requests"
          emptyText="No requests are waiting."
          changes={waiting}
          today={today}
          options={options}
          actions={(change) => (
            <>
              <Button
                size="sm"
                color="green.9"
                disabled={readOnly}
                loading={busy(change) && decide.variables?.decision === 'approve'}
                onClick={() => decide.mutate({ change, decision: 'approve' })}
                aria-label={`Approve the change for ${nameOf(change)}`}
              >
                Approve
              </Button>
              <Button
                size="sm"
                variant="outline"
                color="red.8"
                disabled={readOnly || busy(change)}
                onClick={() => setDenying(change)}
                aria-label={`Deny the change for ${nameOf(change)}`}
              >
                Deny
              </Button>
            </>
          )}
        />
        <ChangeList
          id="changes-today"
          title={`Today (${approvedToday.length})`}
          loading={dayChanges.isPending && today !== null}
          loadingLabel="Loading today's changes"
          emptyText="No changes for today: every child goes home the usual way."
          changes={approvedToday}
          today={today}
          options={options}
          actions={(change) => (
            <Button
              size="sm"
              variant="subtle"
              disabled={readOnly}
              loading={busy(change)}
              onClick={() => cancel.mutate(change)}
              aria-label={`Cancel the change for ${nameOf(change)}`}
            >
              Cancel
            </Button>
          )}
        />
      </Stack>
      {denying && (
        <DenyDialog
          change={denying}
          onClose={() => setDenying(null)}
          onDeny={(reason) => {
            decide.mutate({ change: denying, decision: 'deny', reason });
            setDenying(null);
          }}
        />
      )}
      {entering && (
        <ChangeDialog
          schoolId={schoolId}
          options={options}
          today={today}
          onClose={() => setEntering(false)}
        />
      )}
    </Card>
  );
}
