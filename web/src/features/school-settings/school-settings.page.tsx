import { routes } from '@curbside/api';
import {
  clockTimeText,
  SCHOOL_SETTINGS_BOUNDS,
  type SchoolSettings,
  type SchoolSettingsInput,
  schoolSettingsSchema,
} from '@curbside/domain';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Container,
  Group,
  Loader,
  NumberInput,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { useLiveEvent } from '../live/live';
import { useSchoolScope } from '../school-admin/school-admin.page';
import { ArrivalSettingsFields } from './arrival-settings';

type NumberField = keyof typeof SCHOOL_SETTINGS_BOUNDS;
const NUMBER_FIELDS: ReadonlyArray<{ field: NumberField; label: string; unit: string }> = [
  { field: 'carBatchCapacity', label: 'Car batch size', unit: 'cars per batch' },
  { field: 'busBatchCapacity', label: 'Bus batch size', unit: 'buses per batch' },
  { field: 'defaultSessionMinutes', label: 'Usual dismissal length', unit: 'minutes' },
  { field: 'recordRetentionDays', label: 'Keep the dismissal record for', unit: 'days' },
];

/** Every IANA zone the browser knows, for the time zone picker (the school's own kept even if unknown here). */
const timeZoneChoices = (current: string) => {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
};

/**
 * School Settings (issue 32): the school's batch sizes, usual dismissal
 * length, phone (issue 50), languages and record retention, with a clear error per field. A
 * new batch takes the sizes in force when it is made; the car-line screens
 * are told at once. A sandboxed school's are shown read-only (the save is refused).
 */
export function SchoolSettingsPage() {
  const { user } = useMe();
  const scope = useSchoolScope(user);
  const schoolId = scope ?? user?.schoolId ?? null;
  const client = useQueryClient();
  const key = ['school-settings', schoolId] as const;
  const current = useQuery({
    queryKey: key,
    queryFn: () => api(routes.getSchoolSettings, { params: { id: schoolId as number } }),
    enabled: schoolId !== null,
  });
  const [form, setForm] = useState<SchoolSettings | null>(null);
  // The issues of a refused save, by field: from the server's 400, or from the same schema here.
  const { errors, show, showServerError, reset } = useFieldErrors();
  useEffect(() => {
    if (current.data && form === null) setForm(current.data);
  }, [current.data, form]);
  useLiveEvent('SCHOOL_SETTINGS_CHANGED', (event) => {
    if (event.data.schoolId === schoolId) client.setQueryData(key, event.data.settings);
  });
  const save = useMutation({
    mutationFn: (settings: SchoolSettingsInput) =>
      api(routes.putSchoolSettings, { params: { id: schoolId as number }, body: settings }),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setForm(saved);
      reset();
      notifications.show({ color: 'green', title: 'Success', message: 'School settings saved.' });
    },
    onError: (error) => {
      showServerError(error);
      notifications.show({ color: 'red', title: 'Error', message: errorMessage(error) });
    },
  });
  const submit = () => {
    if (!form) return;
    const checked = schoolSettingsSchema.safeParse(form);
    if (!checked.success) {
      show(checked.error.issues);
      return;
    }
    save.mutate(checked.data);
  };
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={scope ? `/school-admin?schoolId=${scope}` : '/school-admin'}>
          Back to School Admin
        </Anchor>
        <Title order={1}>School Settings</Title>
        {current.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(current.error)}
          </Alert>
        )}
        {current.isPending && schoolId !== null && <Loader aria-label="Loading the school settings" />}
        {form && (
          <Card
            withBorder
            p="lg"
            component="form"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <Stack gap="md">
              {NUMBER_FIELDS.map(({ field, label, unit }) => (
                <NumberInput
                  key={field}
                  label={label}
                  description={`${unit}, ${SCHOOL_SETTINGS_BOUNDS[field].min} to ${SCHOOL_SETTINGS_BOUNDS[field].max}`}
                  value={form[field]}
                  allowDecimal={false}
                  onChange={(value) =>
                    setForm({ ...form, [field]: typeof value === 'number' ? value : Number.NaN })
                  }
                  error={errors[field]}
                />
              ))}
              <TextInput
                label="School phone"
                description="The office's number. A bus driver's page offers it to call when an alert cannot be sent."
                type="tel"
                autoComplete="tel"
                value={form.phone ?? ''}
                onChange={(event) => setForm({ ...form, phone: event.currentTarget.value })}
                error={errors.phone}
              />
              <Checkbox.Group
                label="Languages"
                description="English is always on."
                error={errors.languages}
                value={form.languages}
                onChange={(values) =>
                  setForm({
                    ...form,
                    languages: ['en', ...(values.includes('es') ? (['es'] as const) : [])],
                  })
                }
              >
                <Group mt="xs">
                  <Checkbox label="English" value="en" disabled />
                  <Checkbox label="Spanish" value="es" />
                </Group>
              </Checkbox.Group>
              <Title order={2} fz="lg" mt="sm">
                The school's clock
              </Title>
              <Select
                label="Time zone"
                description="Every day of the school — today's plan, changes, reports — is a date in this zone."
                searchable
                allowDeselect={false}
                data={timeZoneChoices(form.timeZone)}
                value={form.timeZone}
                onChange={(value) => value && setForm({ ...form, timeZone: value })}
                error={errors.timeZone}
                nothingFoundMessage="No such time zone"
              />
              <TextInput
                type="time"
                label="Families' change cutoff"
                description={`Families may change today's way home until ${
                  /^\d\d:\d\d$/.test(form.changeCutoff) ? clockTimeText(form.changeCutoff) : '…'
                } (school time); after that they call the office.`}
                value={form.changeCutoff}
                onChange={(event) => setForm({ ...form, changeCutoff: event.currentTarget.value })}
                error={errors.changeCutoff}
              />
              <Radio.Group
                label="Families' changes"
                value={form.changeApproval}
                onChange={(value) =>
                  setForm({ ...form, changeApproval: value === 'office' ? 'office' : 'auto' })
                }
                error={errors.changeApproval}
              >
                <Stack gap="xs" mt="xs">
                  <Radio value="auto" label="Approved at once" />
                  <Radio value="office" label="The office approves each one" />
                </Stack>
              </Radio.Group>
              <ArrivalSettingsFields
                value={form.arrival}
                onChange={(arrival) => setForm({ ...form, arrival })}
                error={errors.arrival}
              />
              <Text c={MUTED_TEXT} fz="sm">
                A new batch takes the batch size in force when it is made; batches already loading keep
                theirs.
              </Text>
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Save Settings
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
