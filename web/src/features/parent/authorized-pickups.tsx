import { routes } from '@curbside/api';
import { type AuthorizedPickup, childLabels } from '@curbside/domain';
import { Alert, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../lib/api';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { dateFormat } from './format';
import { useParentTexts } from './i18n';
import { parentQueries } from './parent.queries';
import { RadioChoices } from './radio-choices';
import { useSchoolDay } from './school-day';

type When = 'always' | 'today' | 'day';
type Field = 'name' | 'relationship' | 'phone' | 'onDate' | 'studentId';
const FIELDS: readonly Field[] = ['name', 'relationship', 'phone', 'onDate', 'studentId'];

/** `2026-11-27` as the screen's language writes a day. */
const dayText = (day: string, language: string) =>
  dateFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

const useAddPickup = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      studentId: number;
      name: string;
      relationship: string;
      phone: string;
      onDate: string | null;
    }) => api(routes.addAuthorizedPickup, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: parentQueries.authorizedPickups().queryKey }),
  });
};

const useRemovePickup = () => {
  const queryClient = useQueryClient();
  const { t, serverText } = useParentTexts();
  return useMutation({
    mutationFn: (pickup: AuthorizedPickup) =>
      api(routes.deleteAuthorizedPickup, { params: { id: pickup.id } }),
    onSuccess: (_, pickup) => notifications.show({ message: t('pickups.removed', { name: pickup.name }) }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('pickups.removeFailed'),
        message: serverText(errorMessage(error)),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: parentQueries.authorizedPickups().queryKey }),
  });
};

/** One allowed adult: name, relationship and phone, which days, and Remove. */
function PickupRow({ pickup }: { pickup: AuthorizedPickup }) {
  const { t, language } = useParentTexts();
  const remove = useRemovePickup();
  const today = useSchoolDay(pickup.studentId);
  const when =
    pickup.onDate === null
      ? t('pickups.everyDay')
      : pickup.onDate === today
        ? t('pickups.todayOnly')
        : t('pickups.onDate', { date: dayText(pickup.onDate, language) });
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="sm" py={6}>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
          {pickup.name}
        </Text>
        <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {[pickup.relationship, pickup.phone, when].filter(Boolean).join(' · ')}
        </Text>
      </Stack>
      <Button
        variant="default"
        size="md"
        style={{ flexShrink: 0 }}
        aria-label={t('pickups.removeLabel', { name: pickup.name })}
        loading={remove.isPending}
        onClick={() => remove.mutate(pickup)}
      >
        {t('pickups.remove')}
      </Button>
    </Group>
  );
}

/** The form that adds an adult for one child; the API's 400s show under their fields. */
function AddPickupForm({ studentId, childName }: { studentId: number; childName: string }) {
  const { t, serverText } = useParentTexts();
  const add = useAddPickup();
  const [name, setName] = useState('');
  const [relationship, setRelationship] = useState('');
  const [phone, setPhone] = useState('');
  const [when, setWhen] = useState<When>('always');
  const [date, setDate] = useState('');
  const { errors, showServerError, clear, reset } = useFieldErrors(FIELDS);
  const today = useSchoolDay(studentId);
  const edited = clear;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset();
    const onDate = when === 'always' ? null : when === 'today' ? today : date;
    add.mutate(
      { studentId, name, relationship, phone, onDate },
      {
        onSuccess: (pickup) => {
          notifications.show({
            color: 'green.9',
            message: t('pickups.added', { name: pickup.name, child: childName }),
          });
          setName('');
          setRelationship('');
          setPhone('');
          setWhen('always');
          setDate('');
        },
        onError: (error) => {
          // A 400's field errors under their fields; anything else (the child's too) in a toast.
          const fields = showServerError(error);
          if (fields.studentId || !FIELDS.some((field) => fields[field]))
            notifications.show({
              color: 'red',
              title: t('pickups.addFailed'),
              message: serverText(fields.studentId ?? errorMessage(error)),
            });
        },
      },
    );
  };
  const errorOf = (field: Field) => (errors[field] ? serverText(errors[field]) : undefined);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('pickups.name')}
          size="md"
          autoComplete="off"
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            edited('name');
          }}
          error={errorOf('name')}
        />
        <TextInput
          label={t('pickups.relationship')}
          placeholder={t('pickups.relationshipHint')}
          size="md"
          autoComplete="off"
          value={relationship}
          onChange={(event) => {
            setRelationship(event.currentTarget.value);
            edited('relationship');
          }}
          error={errorOf('relationship')}
        />
        <TextInput
          label={t('pickups.phone')}
          size="md"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={phone}
          onChange={(event) => {
            setPhone(event.currentTarget.value);
            edited('phone');
          }}
          error={errorOf('phone')}
        />
        <RadioChoices
          label={t('pickups.when')}
          value={when}
          onChange={(value) => {
            setWhen(value);
            edited('onDate');
          }}
          choices={[
            { value: 'always', label: t('pickups.always') },
            { value: 'today', label: t('pickups.today') },
            { value: 'day', label: t('pickups.onDay') },
          ]}
          error={when === 'day' ? undefined : errorOf('onDate')}
        />
        {when === 'day' && (
          <TextInput
            label={t('pickups.date')}
            type="date"
            size="md"
            min={today}
            value={date}
            onChange={(event) => {
              setDate(event.currentTarget.value);
              edited('onDate');
            }}
            error={errorOf('onDate')}
          />
        )}
        <Button type="submit" size="lg" fullWidth loading={add.isPending}>
          {t('pickups.add')}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * One child's trusted adults, or a loader while they come: a component of its own (h57m), so that
 * their answer (TanStack Query's `useSyncExternalStore`, drawn synchronously) draws this list
 * again and not the add form below it (on a phone at 4× CPU, each child's form was one long task).
 */
function PickupList({ studentId }: { studentId: number }) {
  const { t } = useParentTexts();
  const pickups = useQuery(parentQueries.authorizedPickups());
  const list = (pickups.data ?? []).filter((pickup) => pickup.studentId === studentId);
  return pickups.isPending ? (
    <Loader size="sm" aria-label="Loading" />
  ) : pickups.isError && !pickups.data ? (
    <Alert color="red">{t('pickups.loadFailed')}</Alert>
  ) : list.length === 0 ? (
    <Text>{t('pickups.none')}</Text>
  ) : (
    <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
      {list.map((pickup) => (
        <PickupRow key={pickup.id} pickup={pickup} />
      ))}
    </Stack>
  );
}

/**
 * For each of the parent's children, the other adults the family allows to
 * collect them (shared by every parent of the child), and a form to add one.
 * The dashboard loads and draws them after its first paint (`pickups-after-paint.tsx`).
 */
export function PickupCards({
  students,
}: {
  students: ReadonlyArray<{ id: number; firstName: string; lastName: string }>;
}) {
  const { t } = useParentTexts();
  // Two children with the same first name: each card names its child in full.
  const names = childLabels(students);
  return (
    <>
      {students.map((child) => {
        const name = names.get(child.id) ?? child.firstName;
        const headingId = `pickups-${child.id}`;
        return (
          <Card key={child.id} component="section" aria-labelledby={headingId} p="md">
            <Stack gap="sm">
              <Stack gap={2}>
                <Title order={2} fz={20} id={headingId}>
                  {t('pickups.title', { name })}
                </Title>
                <Text fz="sm" c="dimmed">
                  {t('pickups.intro')}
                </Text>
              </Stack>
              <PickupList studentId={child.id} />
              <AddPickupForm studentId={child.id} childName={name} />
            </Stack>
          </Card>
        );
      })}
    </>
  );
}
