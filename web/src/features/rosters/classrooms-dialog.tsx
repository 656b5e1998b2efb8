import { type Classroom, classroomInputSchema, type TeacherRow } from '@curbside/domain';
import {
  Button,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
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
            error={form.errors.teacherId}
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

/**
 * Deactivating a classroom asks first, naming how many students are in it
 * (read fresh as the question opens). A classroom with students is not
 * deactivated (the server refuses it: they would lose their classroom), so
 * the question says to move them first; Cancel leaves it as it was.
 */
function DeactivateClassroom({
  schoolId,
  classroom,
  onCancel,
  onConfirm,
}: {
  schoolId: SchoolScope;
  classroom: Classroom | null;
  onCancel: () => void;
  onConfirm: (classroom: Classroom) => void;
}) {
  const count = useQuery({
    ...rosterQueries.classroomStudentCount(schoolId, classroom?.id ?? 0),
    enabled: classroom !== null,
  });
  const students = count.data?.count;
  return (
    <Modal
      opened={classroom !== null}
      onClose={onCancel}
      title={classroom ? `Deactivate ${classroom.name}?` : ''}
      centered
      zIndex={300}
    >
      <Stack>
        {count.isPending ? (
          <Group gap="sm">
            <Loader size="sm" aria-label="Counting its students" />
            <Text>Counting its students…</Text>
          </Group>
        ) : count.isError ? (
          <Text c="red" role="alert">
            Could not count its students. Try again.
          </Text>
        ) : students === 0 ? (
          <Text>
            No students are in {classroom?.name}. It leaves the lists and the teacher screens; its history
            stays.
          </Text>
        ) : (
          <Text>
            {`${classroom?.name} has ${students} ${students === 1 ? 'student' : 'students'}. They would lose their classroom: move ${students === 1 ? 'them' : 'them all'} to another classroom first (Students tab, Edit), then deactivate it.`}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={students !== 0}
            onClick={() => {
              if (classroom) onConfirm(classroom);
            }}
          >
            Deactivate
          </Button>
        </Group>
      </Stack>
    </Modal>
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
  const [confirming, setConfirming] = useState<Classroom | null>(null);
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
                      onClick={() => setConfirming(room)}
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
      <DeactivateClassroom
        schoolId={schoolId}
        classroom={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={(room) => {
          deactivate.mutate({ kind: 'classrooms', id: room.id, label: room.name });
          setConfirming(null);
        }}
      />
    </Modal>
  );
}
