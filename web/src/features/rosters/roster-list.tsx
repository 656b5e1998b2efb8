import type { Page } from '@curbside/domain';
import {
  Button,
  Center,
  CloseButton,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { SchoolScope } from './rosters.queries';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

export interface RosterListProps<T extends { id: number }, K extends readonly unknown[]> {
  /** `students`: names the search box, the table and the empty text. */
  noun: string;
  schoolId: SchoolScope;
  query: (args: {
    schoolId: SchoolScope;
    search: string;
    cursor: string | null;
  }) => UseQueryOptions<Page<T>, Error, Page<T>, K>;
  columns: Column<T>[];
  /** What a row is called in the deactivation question. */
  labelOf: (row: T) => string;
  emptyText: string;
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: (row: T) => void;
  onDeactivate: (row: T) => void;
  toolbar: ReactNode;
  /** One more action per row (a student's pickup history). */
  rowAction?: (row: T) => ReactNode;
}

/**
 * A roster list: search, a page of rows with Edit and Deactivate, and
 * Previous / Next over the pages (cursors from the server).
 */
export function RosterList<T extends { id: number }, K extends readonly unknown[]>({
  noun,
  schoolId,
  query,
  columns,
  labelOf,
  emptyText,
  canUpdate,
  canDelete,
  onEdit,
  onDeactivate,
  toolbar,
  rowAction,
}: RosterListProps<T, K>) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  // Cursors of the pages before this one (the first page has none).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useQuery(query({ schoolId, search: debounced, cursor }));
  const [confirming, setConfirming] = useState<T | null>(null);
  const rows = page.data?.items ?? [];

  const onSearch = (value: string) => {
    setSearch(value);
    setCursors([null]);
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <TextInput
          placeholder={`Search ${noun}…`}
          aria-label={`Search ${noun}`}
          value={search}
          onChange={(event) => onSearch(event.currentTarget.value)}
          rightSection={
            search ? <CloseButton aria-label="Clear search" onClick={() => onSearch('')} /> : null
          }
          style={{ flex: '1 1 240px', maxWidth: 420 }}
        />
        <Group gap="xs">{toolbar}</Group>
      </Group>
      {page.isPending ? (
        <Center py="lg">
          <Loader aria-label={`Loading ${noun}`} />
        </Center>
      ) : page.isError ? (
        <Text c="red" role="alert">
          Could not load the {noun}: {page.error.message}
        </Text>
      ) : rows.length === 0 ? (
        <Text ta="center" py="lg" fz="lg">
          {debounced.trim() ? `No ${noun} match “${debounced.trim()}”.` : emptyText}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={noun}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.header}>{column.header}</Table.Th>
                ))}
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  {columns.map((column) => (
                    <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
                  ))}
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {rowAction?.(row)}
                      <Button
                        size="xs"
                        variant="light"
                        disabled={!canUpdate}
                        onClick={() => onEdit(row)}
                        aria-label={`Edit ${labelOf(row)}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        disabled={!canDelete}
                        onClick={() => setConfirming(row)}
                        aria-label={`Deactivate ${labelOf(row)}`}
                      >
                        Deactivate
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {(cursors.length > 1 || page.data?.next) && (
        <Group justify="center" gap="sm">
          <Button
            variant="default"
            disabled={cursors.length <= 1}
            onClick={() => setCursors((list) => list.slice(0, -1))}
          >
            Previous
          </Button>
          <Text>Page {cursors.length}</Text>
          <Button
            variant="default"
            disabled={!page.data?.next || page.isPlaceholderData}
            onClick={() => setCursors((list) => [...list, page.data?.next ?? null])}
          >
            Next
          </Button>
        </Group>
      )}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? `Deactivate ${labelOf(confirming)}?` : ''}
        centered
      >
        <Stack>
          <Text>
            They leave the lists and the car line; their history stays. Importing or adding them again brings
            them back.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                if (confirming) onDeactivate(confirming);
                setConfirming(null);
              }}
            >
              Deactivate
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
