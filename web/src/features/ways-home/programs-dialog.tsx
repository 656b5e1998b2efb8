import { PROGRAM_KINDS, type Program, type ProgramKind, programInputSchema } from '@curbside/domain';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { type SchoolScope, useRemoveProgram, useSaveProgram, waysHomeQueries } from './ways-home.queries';

const KIND_LABEL: Record<ProgramKind, string> = { after_care: 'After-care', activity: 'Activity' };

function ProgramEditor({
  schoolId,
  program,
  onDone,
}: {
  schoolId: SchoolScope;
  program: Program | null;
  onDone: () => void;
}) {
  const save = useSaveProgram(schoolId);
  const [name, setName] = useState(program?.name ?? '');
  const [kind, setKind] = useState<ProgramKind>(program?.kind ?? 'after_care');
  const [location, setLocation] = useState(program?.location ?? '');
  const { errors, show, showServerError, clear } = useFieldErrors();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = programInputSchema.safeParse({ name, kind, location, active: program?.active ?? true });
    if (!parsed.success) {
      show(parsed.error.issues);
      return;
    }
    save.mutate(
      { id: program?.id ?? null, input: parsed.data },
      { onSuccess: onDone, onError: showServerError },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={program ? `Edit ${program.name}` : 'Add program'}>
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Program name"
            required
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              clear('name');
            }}
            error={errors.name}
          />
          <TextInput
            label="Location"
            placeholder="Gym, Room 12…"
            value={location}
            onChange={(event) => {
              setLocation(event.currentTarget.value);
              clear('location');
            }}
            error={errors.location}
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text fw={500} id="program-kind">
            Kind
          </Text>
          <SegmentedControl
            aria-labelledby="program-kind"
            value={kind}
            onChange={(value) => setKind(value as ProgramKind)}
            data={PROGRAM_KINDS.map((value) => ({ value, label: KIND_LABEL[value] }))}
          />
        </Stack>
        {save.isError && (
          <Text c="red" role="alert">
            {errorMessage(save.error)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The school's after-school programs (issue 51): a child's way home may be
 * one. The office adds, renames and removes them; one that students are
 * planned into is kept and no longer offered, and can be offered again.
 */
export function ProgramsDialog({
  schoolId,
  opened,
  canChange,
  onClose,
}: {
  schoolId: SchoolScope;
  opened: boolean;
  canChange: boolean;
  onClose: () => void;
}) {
  const list = useQuery({ ...waysHomeQueries.programs(schoolId), enabled: opened });
  const remove = useRemoveProgram(schoolId);
  const save = useSaveProgram(schoolId);
  const [editing, setEditing] = useState<Program | 'new' | null>(null);
  return (
    <Modal opened={opened} onClose={onClose} title="Programs" size="xl" centered>
      <Stack gap="md">
        <Text c={MUTED_TEXT} fz="sm">
          After-care and activities a child can be dismissed to. Their names show on the teacher screen and to
          families.
        </Text>
        {editing ? (
          <ProgramEditor
            schoolId={schoolId}
            program={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : (
          <Group>
            <Button disabled={!canChange} onClick={() => setEditing('new')}>
              Add Program
            </Button>
          </Group>
        )}
        {list.isPending ? (
          <Loader aria-label="Loading the programs" />
        ) : list.isError ? (
          <Alert color="red">{errorMessage(list.error)}</Alert>
        ) : list.data.length === 0 ? (
          <Text>No programs yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table striped aria-label="Programs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Location</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((program) => (
                  <Table.Tr key={program.id}>
                    <Table.Td fw={600}>
                      {program.name}{' '}
                      {!program.active && (
                        <Badge color="gray" variant="light">
                          Not offered
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{KIND_LABEL[program.kind]}</Table.Td>
                    <Table.Td>{program.location ?? '—'}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!canChange}
                          onClick={() => setEditing(program)}
                          aria-label={`Edit ${program.name}`}
                        >
                          Edit
                        </Button>
                        {program.active ? (
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red.8"
                            style={canChange ? { color: DANGER_TEXT } : undefined}
                            disabled={!canChange}
                            loading={remove.isPending && remove.variables === program.id}
                            onClick={() => remove.mutate(program.id)}
                            aria-label={`Remove ${program.name}`}
                          >
                            Remove
                          </Button>
                        ) : (
                          <Button
                            size="xs"
                            variant="subtle"
                            disabled={!canChange}
                            onClick={() =>
                              save.mutate({
                                id: program.id,
                                input: {
                                  name: program.name,
                                  kind: program.kind,
                                  location: program.location,
                                  active: true,
                                },
                              })
                            }
                            aria-label={`Offer ${program.name} again`}
                          >
                            Offer again
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Modal>
  );
}
