import { type Classroom, classroomInputSchema, type TeacherRow } from '@curbside/domain';
import { Button, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useRosterForm } from './form';
import { rosterQueries, type SchoolScope, useDeactivate, useSaveClassroom } from './rosters.queries';

function ClassroomEditor({
  schoolId,
  classroom,
  teachers,
  onDone,
}: {
  schoolId: SchoolScope;
  classroom: Classroom | null;
  teachers: TeacherRow[];
  onDone: () => void;
}) {
  const save = useSaveClassroom(schoolId);
  const form = useRosterForm(
    classroomInputSchema,
    { name: classroom?.name ?? '', grade: classroom?.grade ?? '', teacherId: classroom?.teacherId ?? null },
    async (input) => {
      await save.mutateAsync({ id: classroom?.id ?? null, input });
      onDone();
    },
  );
  return (
    <form
      onSubmit={(event) => void form.submit(event)}
      noValidate
      aria-label={classroom ? `Edit ${classroom.name}` : 'Add classroom'}
    >
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Classroom name" required {...form.text('name')} />
          <TextInput label="Grade" required {...form.text('grade')} />
          <Select
            label="Teacher"
            placeholder="No teacher assigned"
            clearable
            data={teachers.map((teacher) => ({ value: String(teacher.id), label: teacher.name }))}
            value={form.values.teacherId === null ? null : String(form.values.teacherId)}
            onChange={(value) => form.set('teacherId', value === null ? null : Number(value))}
            error={form.errors.teacherId || undefined}
          />
        </SimpleGrid>
        {form.failure && (
          <Text c="red" role="alert">
            {form.failure}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={form.saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The school's classrooms: name, grade and teacher; add, edit and deactivate (when allowed). */
export function ClassroomsDialog({
  schoolId,
  opened,
  onClose,
  canCreate,
  canUpdate,
  canDelete,
}: {
  schoolId: SchoolScope;
  opened: boolean;
  onClose: () => void;
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
}) {
  const rooms = useQuery({ ...rosterQueries.classrooms(schoolId), enabled: opened });
  const teachers = useQuery({
    ...rosterQueries.teachers({ schoolId, search: '', cursor: null }),
    enabled: opened,
  });
  const deactivate = useDeactivate(schoolId);
  const [editing, setEditing] = useState<Classroom | 'new' | null>(null);
  const teacherList = teachers.data?.items ?? [];
  const nameOf = (id: number | null) => teacherList.find((t) => t.id === id)?.name ?? 'No teacher assigned';
  return (
    <Modal opened={opened} onClose={onClose} title="Classrooms" size="xl" centered>
      <Stack gap="md">
        {editing !== null ? (
          <ClassroomEditor
            schoolId={schoolId}
            classroom={editing === 'new' ? null : editing}
            teachers={teacherList}
            onDone={() => setEditing(null)}
          />
        ) : (
          <Group justify="flex-end">
            <Button onClick={() => setEditing('new')} disabled={!canCreate}>
              Add classroom
            </Button>
          </Group>
        )}
        <Table striped withTableBorder aria-label="Classrooms">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Classroom</Table.Th>
              <Table.Th>Grade</Table.Th>
              <Table.Th>Teacher</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(rooms.data ?? []).map((room) => (
              <Table.Tr key={room.id}>
                <Table.Td>{room.name}</Table.Td>
                <Table.Td>{room.grade}</Table.Td>
                <Table.Td>{nameOf(room.teacherId)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => setEditing(room)} disabled={!canUpdate}>
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      disabled={!canDelete}
                      onClick={() => deactivate.mutate({ kind: 'classrooms', id: room.id, label: room.name })}
                    >
                      Deactivate
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}
