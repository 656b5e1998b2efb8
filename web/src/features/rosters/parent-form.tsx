import { type OneTimeCredentials, type ParentRow, parentInputSchema, type RosterRef } from '@curbside/domain';
import { Button, SimpleGrid, Text, TextInput } from '@mantine/core';
import { showReplacingToast } from '../../lib/toasts';
import { FormDialog, useRosterForm } from './form';
import { type SchoolScope, useSaveParent } from './rosters.queries';
import { StudentPicker } from './student-picker';

/** Add or edit a parent account: name, contact, emergency contact and children. */
export function ParentForm({
  schoolId,
  parent,
  canResetPassword,
  onClose,
  onCredentials,
}: {
  schoolId: SchoolScope;
  parent: ParentRow | null;
  canResetPassword: boolean;
  onClose: () => void;
  onCredentials: (who: string, credentials: OneTimeCredentials) => void;
}) {
  const save = useSaveParent(schoolId);
  const form = useRosterForm(
    parentInputSchema,
    {
      firstName: parent?.firstName ?? '',
      lastName: parent?.lastName ?? '',
      email: parent?.email ?? '',
      phone: parent?.phone ?? '',
      address: parent?.address ?? '',
      emergencyContact: parent?.emergencyContact ?? '',
      emergencyPhone: parent?.emergencyPhone ?? '',
      children: (parent?.students ?? []) as RosterRef[],
      studentIds: (parent?.students ?? []).map((student) => student.id),
      resetPassword: false,
    },
    async (input) => {
      const answer = await save.mutateAsync({ id: parent?.id ?? null, input });
      showReplacingToast(parent ? 'Parent updated' : 'Parent added', {
        color: 'green.9',
        title: parent ? 'Parent updated' : 'Parent added',
        message: answer.parent.name,
      });
      onClose();
      if (answer.credentials) onCredentials(answer.parent.name, answer.credentials);
    },
  );
  return (
    <FormDialog
      title={parent ? `Edit ${parent.name}` : 'Add parent'}
      opened
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      saving={form.saving}
      failure={form.failure}
      extra={
        parent && canResetPassword ? (
          <Button
            variant="light"
            color="orange"
            onClick={() => void form.submit(undefined, { resetPassword: true })}
            disabled={form.saving}
          >
            {parent.canSignIn ? 'Save and make a new password' : 'Save and give a sign-in'}
          </Button>
        ) : undefined
      }
    >
      {parent && !parent.canSignIn && (
        <Text c="dimmed" fz="sm">
          This account was imported and cannot sign in yet.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First name" required {...form.text('firstName')} data-autofocus />
        <TextInput label="Last name" required {...form.text('lastName')} />
        <TextInput label="Email" type="email" {...form.text('email')} />
        <TextInput label="Phone" type="tel" {...form.text('phone')} />
        <TextInput label="Address" {...form.text('address')} />
        <TextInput label="Emergency contact" {...form.text('emergencyContact')} />
        <TextInput label="Emergency phone" type="tel" {...form.text('emergencyPhone')} />
      </SimpleGrid>
      <StudentPicker
        schoolId={schoolId}
        label="Children"
        value={form.values.children}
        onChange={(children) => {
          form.set('children', children);
          form.set(
            'studentIds',
            children.map((child) => child.id),
          );
        }}
        error={form.errors.studentIds}
      />
    </FormDialog>
  );
}
