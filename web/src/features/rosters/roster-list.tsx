import type { Page } from '@curbside/domain';
import {
  Button,
  Card,
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
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { usePhone } from '../queue/use-phone';
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

/** A row's Edit and Deactivate, never shrunk (a cut "Deactiva…" is no button to trust). */
function RowActions({
  label,
  canUpdate,
  canDelete,
  onEdit,
  onDeactivate,
  grow = false,
  extra,
}: {
  label: string;
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDeactivate: () => void;
  /** On a phone's card the two share its width. */
  grow?: boolean;
  /** The list's own action for the row, before Edit (a student's pickup history). */
  extra?: ReactNode;
}) {
  const style = { flexShrink: 0, ...(grow ? { flex: 1 } : {}) };
  return (
    <Group gap="xs" wrap="nowrap">
      {extra}
      <Button
        size={grow ? 'md' : 'xs'}
        variant="light"
        disabled={!canUpdate}
        onClick={onEdit}
        aria-label={`Edit ${label}`}
        style={style}
      >
        Edit
      </Button>
      <Button
        size={grow ? 'md' : 'xs'}
        variant={grow ? 'outline' : 'subtle'}
        color="red.8"
        disabled={!canDelete}
        onClick={onDeactivate}
        aria-label={`Deactivate ${label}`}
        // Dark red on light schemes, light red on dark: at least 4.5:1 on the striped rows.
        style={canDelete ? { ...style, color: DANGER_TEXT, borderColor: DANGER_TEXT } : style}
      >
        Deactivate
      </Button>
    </Group>
  );
}

/**
 * A roster list: search, a page of rows with Edit and Deactivate, and
 * Previous / Next over the pages (cursors from the server). A phone shows
 * each row as a card (its fields one under another, its actions at the
 * bottom); a tablet shows the table, whose cells wrap so that the actions
 * column is never cut.
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
  const phone = usePhone();
  const rows = page.data?.items ?? [];
  const actions = (row: T, grow = false) => (
    <RowActions
      label={labelOf(row)}
      canUpdate={canUpdate}
      canDelete={canDelete}
      onEdit={() => onEdit(row)}
      onDeactivate={() => setConfirming(row)}
      grow={grow}
      extra={rowAction?.(row)}
    />
  );

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
      ) : phone ? (
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={noun}>
          {rows.map((row) => {
            const [first, ...rest] = columns;
            return (
              <Card component="li" key={row.id} p="sm" shadow="none" aria-label={labelOf(row)}>
                <Stack gap={6}>
                  {first && (
                    <Text fw={800} fz="lg" style={{ overflowWrap: 'anywhere' }}>
                      {first.cell(row)}
                    </Text>
                  )}
                  <dl
                    style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}
                  >
                    {rest.map((column) => (
                      <div key={column.header} style={{ display: 'contents' }}>
                        <Text component="dt" fz="sm" c={MUTED_TEXT}>
                          {column.header}
                        </Text>
                        <Text component="dd" m={0} fz="sm" style={{ overflowWrap: 'anywhere' }}>
                          {column.cell(row)}
                        </Text>
                      </div>
                    ))}
                  </dl>
                  {actions(row, true)}
                </Stack>
              </Card>
            );
          })}
        </Stack>
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
                    <Table.Td key={column.header} style={{ overflowWrap: 'anywhere' }}>
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                  <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>{actions(row)}</Table.Td>
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
