import { type OneTimeCredentials, type TeacherRow, teacherInputSchema } from '@curbside/domain';
import { Button, MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { showReplacingToast } from '../../lib/toasts';
import { useMe } from '../auth/auth.queries';
import { FormDialog, useRosterForm } from './form';
import { rosterQueries, type SchoolScope, useSaveTeacher } from './rosters.queries';

/**
 * Add or edit a teacher: name, contact, username (on creation; made from the
 * name when blank), classrooms. A new teacher's one-time password, or a new
 * one made from Edit, goes to `onCredentials` to be shown once.
 */
export function TeacherForm({
  schoolId,
  teacher,
  canResetPassword,
  onClose,
  onCredentials,
}: {
  schoolId: SchoolScope;
  teacher: TeacherRow | null;
  canResetPassword: boolean;
  onClose: () => void;
  onCredentials: (who: string, credentials: OneTimeCredentials) => void;
}) {
  const rooms = useQuery(rosterQueries.classrooms(schoolId));
  const { user } = useMe();
  // A Clever sign-in lands on an account by its email: a teacher changes only their own (the server holds to it).
  const emailLocked = teacher !== null && !canResetPassword && teacher.id !== user?.id;
  const save = useSaveTeacher(schoolId);
  const form = useRosterForm(
    teacherInputSchema,
    {
      firstName: teacher?.firstName ?? '',
      lastName: teacher?.lastName ?? '',
      email: teacher?.email ?? '',
      phone: teacher?.phone ?? '',
      username: '',
      classroomIds: (teacher?.classrooms ?? []).map((room) => room.id),
      resetPassword: false,
    },
    async (input) => {
      const answer = await save.mutateAsync({ id: teacher?.id ?? null, input });
      showReplacingToast(teacher ? 'Teacher updated' : 'Teacher added', {
        color: 'green.9',
        title: teacher ? 'Teacher updated' : 'Teacher added',
        message: answer.teacher.name,
      });
      onClose();
      if (answer.credentials) onCredentials(answer.teacher.name, answer.credentials);
    },
  );
  return (
    <FormDialog
      title={teacher ? `Edit ${teacher.name}` : 'Add teacher'}
      opened
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      saving={form.saving}
      failure={form.failure}
      extra={
        teacher && canResetPassword ? (
          <Button
            variant="light"
            color="orange"
            onClick={() => void form.submit(undefined, { resetPassword: true })}
            disabled={form.saving}
          >
            Save and make a new password
          </Button>
        ) : undefined
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First name" required {...form.text('firstName')} data-autofocus />
        <TextInput label="Last name" required {...form.text('lastName')} />
        <TextInput
          label="Email"
          type="email"
          {...form.text('email')}
          readOnly={emailLocked}
          description={emailLocked ? 'Only they (or an admin) can change it' : undefined}
        />
        <TextInput label="Phone" type="tel" {...form.text('phone')} />
        {teacher ? (
          <TextInput label="Username" value={teacher.username} readOnly disabled />
        ) : (
          <TextInput
            label="Username"
            description="Made from the name when left blank"
            {...form.text('username')}
          />
        )}
        <MultiSelect
          label="Classrooms"
          placeholder="None"
          searchable
          data={(rooms.data ?? []).map((room) => ({
            value: String(room.id),
            label: `${room.name} (grade ${room.grade})`,
          }))}
          value={form.values.classroomIds.map(String)}
          onChange={(ids) => form.set('classroomIds', ids.map(Number))}
          error={form.errors.classroomIds}
        />
      </SimpleGrid>
    </FormDialog>
  );
}
