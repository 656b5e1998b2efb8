import { Button, Group, ScrollArea, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReadState } from '../../components/read-state';
import { sisQueries } from './sis.queries';

/** The third step: a school's first students and total, then their import (teachers, classrooms and parents with them). */
export function StudentsStep(props: {
  schoolId: string;
  localSchool: string;
  onLocalSchool: (value: string) => void;
  createClassrooms: boolean;
  onCreateClassrooms: (value: boolean) => void;
  importing: boolean;
  onImport: () => void;
  onBack: () => void;
}) {
  const preview = useQuery(sisQueries.preview(props.schoolId));
  const localSchoolId = Number.parseInt(props.localSchool, 10);
  return (
    <Stack gap="md" pt="md">
      <ReadState query={preview} loading="Loading students" failed="Failed to preview students" />
      {preview.data ? (
        <>
          <Text fw={700}>
            {preview.data.totalCount.toLocaleString('en-US')}{' '}
            {preview.data.totalCount === 1 ? 'student' : 'students'} in this school; the first{' '}
            {preview.data.preview.length}:
          </Text>
          {/* Wider than a phone: the table scrolls sideways, from the keyboard too. */}
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
            <Table striped verticalSpacing="xs" aria-label="Student preview" miw={640}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>First name</Table.Th>
                  <Table.Th>Last name</Table.Th>
                  <Table.Th>Grade</Table.Th>
                  <Table.Th>Student number</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Clever ID</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.data.preview.map((student) => (
                  <Table.Tr key={student.cleverId}>
                    <Table.Td>{student.firstName}</Table.Td>
                    <Table.Td>{student.lastName}</Table.Td>
                    <Table.Td>{student.grade}</Table.Td>
                    <Table.Td>{student.studentNumber}</Table.Td>
                    <Table.Td>{student.email ?? ''}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {student.cleverId}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      ) : null}
      <TextInput
        label="Local school ID"
        description="The Curbside school the students join"
        value={props.localSchool}
        onChange={(event) => props.onLocalSchool(event.currentTarget.value)}
        inputMode="numeric"
        maw={280}
      />
      <Switch
        label="Create missing classrooms"
        description="A classroom for each Clever section the school does not have yet"
        checked={props.createClassrooms}
        onChange={(event) => props.onCreateClassrooms(event.currentTarget.checked)}
      />
      <Group>
        <Button variant="default" onClick={props.onBack}>
          Back
        </Button>
        <Button
          disabled={!Number.isInteger(localSchoolId) || localSchoolId < 1}
          loading={props.importing}
          onClick={props.onImport}
        >
          Import Students
        </Button>
      </Group>
    </Stack>
  );
}
