import {
  DISTRICT_STAFF_ROLES,
  districtInputSchema,
  type OneTimeCredentials,
  ROLE_LABEL,
  type School,
  schoolInputSchema,
  staffInputSchema,
} from '@curbside/domain';
import { NativeSelect, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FormDialog, useRosterForm } from '../rosters/form';
import { useCreateDistrict, useCreateSchool, useCreateStaff } from './districts.queries';

/** The Active and Sandbox switches of a new district or school. */
function ModeSwitches({
  form,
}: {
  form: {
    values: { active: boolean; sandbox: boolean };
    set: (field: 'active' | 'sandbox', value: boolean) => void;
  };
}) {
  const { active, sandbox } = form.values;
  return (
    <Stack gap="sm">
      <Switch
        size="md"
        label="Active"
        checked={active}
        onChange={(event) => form.set('active', event.currentTarget.checked)}
      />
      <Switch
        size="md"
        label="Sandbox mode"
        description="Read-only for everyone but super admins"
        checked={sandbox}
        onChange={(event) => form.set('sandbox', event.currentTarget.checked)}
      />
    </Stack>
  );
}

/** Create District (super admin): name, active (on) and sandbox (off). */
export function CreateDistrictDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateDistrict();
  const form = useRosterForm(
    districtInputSchema,
    { name: '', active: true, sandbox: false },
    async (input) => {
      await create.mutateAsync(input);
      onClose();
    },
  );
  return (
    <FormDialog
      title="Create District"
      opened
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      saving={form.saving}
      failure={form.failure}
      submitLabel="Create District"
    >
      <TextInput label="District name" required {...form.text('name')} data-autofocus />
      <ModeSwitches form={form} />
    </FormDialog>
  );
}

/**
 * Create School: name, district (chosen by a super admin; a district admin's
 * own), active (on) and sandbox (off).
 */
export function CreateSchoolDialog({
  districts,
  districtId,
  onClose,
}: {
  /** The districts to choose from; one district (a district admin's) shows no choice. */
  districts: ReadonlyArray<{ id: number; name: string }>;
  districtId: number | null;
  onClose: () => void;
}) {
  const create = useCreateSchool();
  const form = useRosterForm(
    schoolInputSchema,
    { name: '', districtId: districtId === null ? '' : String(districtId), active: true, sandbox: false },
    async (input) => {
      await create.mutateAsync(input);
      onClose();
    },
  );
  return (
    <FormDialog
      title="Create School"
      opened
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      saving={form.saving}
      failure={form.failure}
      submitLabel="Create School"
    >
      <TextInput label="School name" required {...form.text('name')} data-autofocus />
      {districts.length > 1 || districtId === null ? (
        <NativeSelect
          label="District"
          required
          data={[
            { value: '', label: 'Choose a district' },
            ...districts.map((district) => ({ value: String(district.id), label: district.name })),
          ]}
          {...form.text('districtId')}
        />
      ) : (
        <TextInput label="District" value={districts[0]?.name ?? ''} readOnly />
      )}
      <ModeSwitches form={form} />
    </FormDialog>
  );
}

/**
 * Add Staff (district admin): a staff user of one of the district's schools,
 * with a role at or below school admin. The one-time sign-in goes to
 * `onCredentials`, to be shown once.
 */
export function StaffDialog({
  districtId,
  schools,
  onClose,
  onCredentials,
}: {
  districtId: number;
  schools: readonly School[];
  onClose: () => void;
  onCredentials: (who: string, credentials: OneTimeCredentials) => void;
}) {
  const create = useCreateStaff(districtId);
  const only = schools.length === 1 ? String(schools[0]?.id) : '';
  const form = useRosterForm(
    staffInputSchema,
    { firstName: '', lastName: '', email: '', phone: '', username: '', role: '', schoolId: only },
    async (input) => {
      const answer = await create.mutateAsync(input);
      notifications.show({ color: 'green.9', title: 'Staff added', message: answer.user.name });
      onClose();
      onCredentials(answer.user.name, answer.credentials);
    },
  );
  return (
    <FormDialog
      title="Add Staff"
      opened
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      saving={form.saving}
      failure={form.failure}
      submitLabel="Add Staff"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First name" required {...form.text('firstName')} data-autofocus />
        <TextInput label="Last name" required {...form.text('lastName')} />
        <TextInput label="Email" type="email" {...form.text('email')} />
        <TextInput label="Phone" type="tel" {...form.text('phone')} />
        <TextInput
          label="Username"
          description="Made from the name when left blank"
          autoCapitalize="none"
          spellCheck={false}
          {...form.text('username')}
        />
        <NativeSelect
          label="Role"
          required
          data={[
            { value: '', label: 'Choose a role' },
            ...DISTRICT_STAFF_ROLES.map((role) => ({ value: role, label: ROLE_LABEL[role] })),
          ]}
          {...form.text('role')}
        />
        <NativeSelect
          label="School"
          required
          data={[
            { value: '', label: 'Choose a school' },
            ...schools.map((school) => ({ value: String(school.id), label: school.name })),
          ]}
          {...form.text('schoolId')}
        />
      </SimpleGrid>
    </FormDialog>
  );
}
