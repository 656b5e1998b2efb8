import {
  addDays,
  dismissalChangeInputSchema,
  isSchoolDay,
  SCHOOL_DAYS,
  type SchoolDay,
  type WayOptions,
  wayText,
} from '@curbside/domain';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { fieldErrorsFrom, useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { wayChoices, wayOfValue } from './way-choices';
import { type SchoolScope, useEnterChange, waysHomeQueries } from './ways-home.queries';

const DAY_LABEL: Record<SchoolDay, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri' };

/**
 * The office enters a change from a phone call (issue 51): a student, a day
 * (or a repeating range on some weekdays), how they go home or that they are
 * absent, a note. Approved at once, at any time of day.
 */
export function ChangeDialog({
  schoolId,
  options,
  today,
  onClose,
}: {
  schoolId: SchoolScope;
  options: WayOptions;
  today: string | null;
  onClose: () => void;
}) {
  const enter = useEnterChange(schoolId);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const found = useQuery(waysHomeQueries.studentSearch(schoolId, debounced));
  const [studentId, setStudentId] = useState<string | null>(null);
  const [date, setDate] = useState('');
  // The first school day from the school's today (known once the day's plan is read).
  useEffect(() => {
    if (!today || date) return;
    let day = today;
    while (!isSchoolDay(day)) day = addDays(day, 1);
    setDate(day);
  }, [today, date]);
  const [way, setWay] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [repeats, setRepeats] = useState(false);
  const [until, setUntil] = useState('');
  const [weekdays, setWeekdays] = useState<string[]>([]);
  const { errors, set: setErrors, showServerError } = useFieldErrors();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = dismissalChangeInputSchema.safeParse({
      studentId: studentId ?? undefined,
      date,
      way: way ? wayOfValue(way) : undefined,
      note,
      ...(repeats ? { until, ...(weekdays.length > 0 ? { weekdays } : {}) } : {}),
    });
    if (!parsed.success) {
      const next = fieldErrorsFrom(parsed.error.issues);
      if (next.studentId) next.studentId = 'Choose a student';
      if (next.way) next.way = 'Choose how they go home';
      if (repeats && !until) next.until = 'Choose the last day';
      setErrors(next);
      return;
    }
    enter.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({
          color: 'green.9',
          title: 'Change saved',
          message: 'The teacher sees it at once.',
        });
        onClose();
      },
      onError: (error) => {
        showServerError(error);
        setFailure(errorMessage(error));
      },
    });
  };

  const studentChoices = (found.data?.items ?? []).map((student) => ({
    value: String(student.id),
    label: `${student.firstName} ${student.lastName} (grade ${student.grade})`,
  }));
  return (
    <Modal opened onClose={onClose} title="Enter a change" centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Select
            label="Student"
            placeholder="Type a name"
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: shown }) => shown}
            nothingFoundMessage={found.isFetching ? 'Searching…' : 'No students found'}
            data={studentChoices}
            value={studentId}
            onChange={setStudentId}
            error={errors.studentId}
            comboboxProps={{ withinPortal: false }}
            required
          />
          <TextInput
            type="date"
            label={repeats ? 'From' : 'Day'}
            min={today ?? undefined}
            value={date}
            onChange={(event) => setDate(event.currentTarget.value)}
            error={errors.date}
            required
          />
          <Checkbox
            label="Repeats"
            checked={repeats}
            onChange={(event) => setRepeats(event.currentTarget.checked)}
          />
          {repeats && (
            <>
              <TextInput
                type="date"
                label="Until"
                min={date || undefined}
                value={until}
                onChange={(event) => setUntil(event.currentTarget.value)}
                error={errors.until}
              />
              <Checkbox.Group
                label="On"
                description="None chosen: every school day"
                value={weekdays}
                onChange={setWeekdays}
                error={errors.weekdays}
              >
                <Group gap="sm" mt={4}>
                  {SCHOOL_DAYS.map((day) => (
                    <Checkbox key={day} value={day} label={DAY_LABEL[day]} />
                  ))}
                </Group>
              </Checkbox.Group>
            </>
          )}
          <Select
            label="Goes home"
            placeholder="Choose"
            data={wayChoices(options, (choice) => wayText(choice, options), { absent: true })}
            value={way}
            onChange={setWay}
            error={errors.way}
            comboboxProps={{ withinPortal: false }}
            required
          />
          <Textarea
            label="Note"
            maxLength={500}
            autosize
            minRows={2}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            error={errors.note}
          />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={enter.isPending}>
              Save change
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
