import {
  formatDuration,
  type PickupSession,
  SESSION_TYPE_NAME,
  SESSION_TYPES,
  type SessionType,
  schoolSettingsOf,
  sessionDefaults,
  sessionInputSchema,
} from '@curbside/domain';
import {
  Alert,
  Button,
  Group,
  Input,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { type FieldErrors, fieldErrorsFrom } from '../../lib/field-errors';
import { useMe } from '../auth/auth.queries';
import { schoolQueries } from '../schools/schools.queries';
import { useCreateSession } from './sessions.mutations';
import { useActiveSession } from './sessions.queries';
import { useCountdown } from './use-countdown';

/** `2025-03-04T15:30` in local time, the value of a `datetime-local` input. */
export const toLocalInput = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

/** A `datetime-local` value (local time) as ISO; empty stays empty, unreadable stays as typed. */
export const fromLocalInput = (value: string): string => {
  if (!value.trim()) return '';
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? value : new Date(time).toISOString();
};

interface SessionForm {
  name: string;
  type: SessionType;
  start: string;
  end: string;
  notes: string;
}
const FIELDS = ['name', 'type', 'startTime', 'endTime', 'notes'] as const;
type Field = (typeof FIELDS)[number];

/** Defaults of a type: its name, start now (to the minute), end after the school's usual length. */
const formFor = (type: SessionType, minutes: number, notes = ''): SessionForm => {
  const now = new Date();
  now.setSeconds(0, 0);
  const defaults = sessionDefaults(type, now, minutes * 60_000);
  return {
    name: defaults.name,
    type,
    start: toLocalInput(defaults.startTime),
    end: toLocalInput(defaults.endTime),
    notes,
  };
};

const inputOf = (form: SessionForm) => ({
  name: form.name,
  type: form.type,
  startTime: fromLocalInput(form.start),
  endTime: fromLocalInput(form.end),
  notes: form.notes,
});

const validate = (form: SessionForm) => {
  const parsed = sessionInputSchema.safeParse(inputOf(form));
  if (parsed.success) return { data: parsed.data, errors: {} as FieldErrors<Field> };
  return { data: null, errors: fieldErrorsFrom(parsed.error.issues, FIELDS) };
};

/** New Session while one runs: the server refuses a second one, so the dialog says so up front. */
function AlreadyRunning({ session }: { session: PickupSession }) {
  const countdown = formatDuration(useCountdown(session.endTime));
  return (
    <Alert color="orange.9" variant="light" role="status" title="A session is already running">
      <Text fz="md" c="var(--mantine-color-text)">
        {`${session.name} ends in ${countdown}. End it (tap the session in the header) before starting a new one.`}
      </Text>
    </Alert>
  );
}

/**
 * The school's usual dismissal length in minutes (its School Settings; two
 * hours when it has none), read fresh as the dialog opens.
 */
const useUsualMinutes = () => {
  const { user } = useMe();
  const schoolId = user?.schoolId ?? null;
  const school = useQuery({
    ...schoolQueries.detail(schoolId ?? 0),
    enabled: schoolId !== null,
    staleTime: 0,
  });
  return schoolSettingsOf(school.data ?? {}).defaultSessionMinutes;
};

function SessionFormBody({ onDone, phone }: { onDone: () => void; phone: boolean }) {
  const create = useCreateSession();
  const { session: running } = useActiveSession();
  const minutes = useUsualMinutes();
  const [form, setForm] = useState<SessionForm>(() => formFor('afternoon_pickup', minutes));
  const [edited, setEdited] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? validate(form).errors : {};
  // The school's length arrives after the dialog opened: the untouched defaults follow it.
  useEffect(() => {
    if (!edited) setForm((current) => formFor(current.type, minutes, current.notes));
  }, [minutes, edited]);

  const change = (patch: Partial<SessionForm>) => {
    setEdited(true);
    setForm((current) => ({ ...current, ...patch }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { data } = validate(form);
    if (!data) return;
    create.mutate(data, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {running && <AlreadyRunning session={running} />}
        <Input.Wrapper label="Session type" error={errors.type}>
          <SegmentedControl
            fullWidth
            orientation={phone ? 'vertical' : 'horizontal'}
            data={SESSION_TYPES.map((type) => ({ value: type, label: SESSION_TYPE_NAME[type] }))}
            value={form.type}
            onChange={(value) => setForm((current) => formFor(value as SessionType, minutes, current.notes))}
            aria-label="Session type"
          />
        </Input.Wrapper>
        <TextInput
          label="Session name"
          value={form.name}
          onChange={(event) => change({ name: event.currentTarget.value })}
          error={errors.name}
          data-autofocus
        />
        <SimpleGrid cols={phone ? 1 : 2} spacing="md">
          <TextInput
            type="datetime-local"
            label="Start time"
            value={form.start}
            onChange={(event) => change({ start: event.currentTarget.value })}
            error={errors.startTime}
          />
          <TextInput
            type="datetime-local"
            label="End time"
            value={form.end}
            onChange={(event) => change({ end: event.currentTarget.value })}
            error={errors.endTime}
          />
        </SimpleGrid>
        <Textarea
          label="Notes"
          placeholder="Optional"
          autosize
          minRows={2}
          maxRows={5}
          value={form.notes}
          onChange={(event) => change({ notes: event.currentTarget.value })}
          error={errors.notes}
        />
        {/* Phones: the main action on top, full width. */}
        <Group
          justify="flex-end"
          gap="sm"
          style={phone ? { flexDirection: 'column-reverse', alignItems: 'stretch' } : undefined}
        >
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || running !== null}>
            {create.isPending ? 'Starting...' : 'Start Session'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The session creation dialog behind Start Session and New Session: type,
 * name, start and end time, notes. Defaults: afternoon pickup from now for the
 * school's usual dismissal length (School Settings; two hours when unset);
 * choosing another type resets the name and the times.
 */
export function SessionDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Start New Session"
      size={700}
      centered
      fullScreen={phone}
      styles={{ title: { fontSize: 'var(--mantine-font-size-xl)', fontWeight: 800 } }}
    >
      {/* Mounted only while open, so each opening starts from fresh defaults. */}
      {opened && <SessionFormBody onDone={onClose} phone={phone} />}
    </Modal>
  );
}
