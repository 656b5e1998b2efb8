import { type StudentRow, studentInputSchema } from '@curbside/domain';
import { Select, SimpleGrid, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { showReplacingToast } from '../../lib/toasts';
import { FormDialog, useRosterForm } from './form';
import { rosterQueries, type SchoolScope, useSaveStudent } from './rosters.queries';
import { StudentDataActions } from './student-data-dialog';

const numbersOf = (student: StudentRow | null, type: 'car' | 'bus') =>
  (student?.vehicles ?? []).filter((ride) => ride.type === type).map((ride) => ride.number);

/** Add or edit a student: name, grade, classroom, parent contact, and the cars and buses that collect them. */
export function StudentForm({
  schoolId,
  student,
  canErase = false,
  onClose,
}: {
  schoolId: SchoolScope;
  /** The student to edit; null adds one. */
  student: StudentRow | null;
  /** May erase the student's data (issue 55): school admins and above, not in a read-only school. */
  canErase?: boolean;
  onClose: () => void;
}) {
  const rooms = useQuery(rosterQueries.classrooms(schoolId));
  const save = useSaveStudent(schoolId);
  const form = useRosterForm(
    studentInputSchema,
    {
      firstName: student?.firstName ?? '',
      lastName: student?.lastName ?? '',
      grade: student?.grade ?? '',
      classroomId: student?.classroomId ?? null,
      parentName: student?.parentName ?? '',
      parentPhone: student?.parentPhone ?? '',
      parentEmail: student?.parentEmail ?? '',
      notes: student?.notes ?? '',
      cars: numbersOf(student, 'car'),
      buses: numbersOf(student, 'bus'),
      vehicles: (student?.vehicles ?? []).map(({ type, number }) => ({ type, number })),
    },
    async (input) => {
      await save.mutateAsync({ id: student?.id ?? null, input });
      showReplacingToast(student ? 'Student updated' : 'Student added', {
        color: 'green.9',
        title: student ? 'Student updated' : 'Student added',
        message: `${input.firstName} ${input.lastName}`,
      });
      onClose();
    },
  );
  // The rides are sent as `vehicles`; the two tag inputs edit them.
  const setRides = (cars: string[], buses: string[]) =>
    form.set('vehicles', [
      ...cars.map((number) => ({ type: 'car' as const, number })),
      ...buses.map((number) => ({ type: 'bus' as const, number })),
    ]);
  return (
    <FormDialog
      title={student ? `Edit ${student.firstName} ${student.lastName}` : 'Add student'}
      opened
      onClose={onClose}
      onSubmit={form.submit}
      saving={form.saving}
      failure={form.failure}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="First name" required {...form.text('firstName')} data-autofocus />
        <TextInput label="Last name" required {...form.text('lastName')} />
        <TextInput label="Grade" required {...form.text('grade')} />
        <Select
          label="Classroom"
          placeholder="No classroom"
          clearable
          data={(rooms.data ?? []).map((room) => ({
            value: String(room.id),
            label: `${room.name} (grade ${room.grade})`,
          }))}
          value={form.values.classroomId === null ? null : String(form.values.classroomId)}
          onChange={(value) => form.set('classroomId', value === null ? null : Number(value))}
          error={form.errors.classroomId}
        />
        <TextInput label="Parent name" {...form.text('parentName')} />
        <TextInput label="Parent phone" type="tel" {...form.text('parentPhone')} />
        <TextInput label="Parent email" type="email" {...form.text('parentEmail')} />
        <TagsInput
          label="Cars (numbers)"
          placeholder="e.g. 101, then Enter"
          value={form.values.cars}
          onChange={(cars) => {
            form.set('cars', cars);
            setRides(cars, form.values.buses);
          }}
          error={form.errors.vehicles}
        />
        <TagsInput
          label="Buses (numbers)"
          placeholder="e.g. 3, then Enter"
          value={form.values.buses}
          onChange={(buses) => {
            form.set('buses', buses);
            setRides(form.values.cars, buses);
          }}
        />
      </SimpleGrid>
      <Textarea label="Notes" autosize minRows={2} {...form.text('notes')} />
      {student && (
        <StudentDataActions schoolId={schoolId} student={student} canErase={canErase} onErased={onClose} />
      )}
    </FormDialog>
  );
}
