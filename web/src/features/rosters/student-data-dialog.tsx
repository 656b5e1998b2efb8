import { confirmsErase, type StudentRow } from '@curbside/domain';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../lib/http';
import { showReplacingToast } from '../../lib/toasts';
import { downloadText } from './download';
import { type SchoolScope, useEraseStudent, useExportStudent } from './rosters.queries';

/**
 * A family's data (issue 55): Export Data saves everything Curbside holds
 * about the student as a JSON file (a parent's request to inspect it); Erase
 * Student removes it everywhere, once the student's first and last name is
 * typed. School admins and above (this screen's rank); a read-only school
 * exports only.
 */
export function StudentDataActions({
  schoolId,
  student,
  canErase,
  onErased,
}: {
  schoolId: SchoolScope;
  student: StudentRow;
  canErase: boolean;
  onErased: () => void;
}) {
  const exporting = useExportStudent(schoolId);
  const [erasing, setErasing] = useState(false);
  const name = `${student.firstName} ${student.lastName}`;
  const exportData = async () => {
    const data = await exporting.mutateAsync(student.id);
    downloadText(`student-${student.id}.json`, JSON.stringify(data, null, 2), 'application/json');
  };
  return (
    <>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          Family data
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" loading={exporting.isPending} onClick={() => void exportData()}>
            Export Data
          </Button>
          <Button
            variant="outline"
            color="red.9"
            size="xs"
            disabled={!canErase}
            onClick={() => setErasing(true)}
          >
            Erase Student…
          </Button>
        </Group>
      </Group>
      {erasing && (
        <EraseStudentDialog
          schoolId={schoolId}
          student={student}
          name={name}
          onClose={() => setErasing(false)}
          onErased={onErased}
        />
      )}
    </>
  );
}

function EraseStudentDialog({
  schoolId,
  student,
  name,
  onClose,
  onErased,
}: {
  schoolId: SchoolScope;
  student: StudentRow;
  name: string;
  onClose: () => void;
  onErased: () => void;
}) {
  const erase = useEraseStudent(schoolId);
  const [typed, setTyped] = useState('');
  const confirmed = confirmsErase(student, typed);
  const submit = async () => {
    await erase.mutateAsync({ id: student.id, confirm: typed });
    showReplacingToast('Student erased', {
      color: 'green.9',
      title: 'Student erased',
      message: `Erased student #${student.id}`,
    });
    onClose();
    onErased();
  };
  return (
    <Modal opened onClose={onClose} title={`Erase ${name}?`} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // React carries the event through the portal to the student's form: it stops here.
          event.stopPropagation();
          if (confirmed) void submit().catch(() => undefined);
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Their roster record, weekly plan, changes, authorized adults, pickup code and invites are deleted;
            the dismissal record keeps each release as “Erased student #{student.id}”. Their parents lose the
            link, and a parent left with no child is deactivated. This cannot be undone: export the data first
            if the family asked for it.
          </Text>
          <TextInput
            label="Type the student's first and last name"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          {erase.error && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(erase.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red.9" disabled={!confirmed} loading={erase.isPending}>
              Erase Student
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
