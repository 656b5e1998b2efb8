import {
  CSV_TEMPLATES,
  IMPORT_MAX_ROWS,
  type ImportKind,
  type ImportResult,
  plural,
  type RowError,
} from '@curbside/domain';
import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Modal,
  Progress,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorMessage, HttpError } from '../../lib/http';
import { toCsvText } from './csv-lazy';
import { downloadText } from './download';
import { type SchoolScope, useImportRoster } from './rosters.queries';

/** The import preview shows the first 10 rows (specification §9). */
export const IMPORT_PREVIEW_ROWS = 10;

const HINTS: Readonly<Record<ImportKind, string[]>> = {
  students: [
    'Rows are matched on first name, last name and grade: importing the same file again changes nothing.',
    'vehicleNumber links the student to that car (a new car is registered with the parent’s name and phone); busRoute names a bus by number (3 or B3) or route (Route C).',
    'A parent account is made or found from parentEmail or parentPhone when parentName is given.',
    'An optional classroom column puts the student in that classroom (created if missing); without it a student joins the grade’s only classroom.',
    'An optional dismissal column sets the student’s weekly way home: car, walker, bus:3 or program:Kids Club, or five of them separated by | for Monday to Friday (car|car|walker|car|program:Kids Club). Blank leaves the plan as it is.',
  ],
  teachers: [
    'Rows are matched on username, else email. New teachers get no password: give each one a sign-in from the Teachers list (Edit, then Save and make a new password).',
    'classroom makes the teacher that classroom’s teacher (created with the row’s grade if missing).',
  ],
  parents: [
    'Rows are matched on email, else phone. Imported parents cannot sign in until you give them a password from Edit.',
    'studentNames lists children as First Last, separated by ; — add the grade in brackets when two share a name: Ava Martinez (2).',
  ],
  vehicles: [
    'Rows are matched on type (car or bus; blank is car) and number. Students stay as they are: link them from the students file or Edit.',
  ],
};

interface Parsed {
  name: string;
  text: string;
  records: Array<Record<string, string>>;
  errors: RowError[];
}

function ErrorTable({ errors }: { errors: RowError[] }) {
  return (
    <ScrollArea.Autosize mah={280}>
      <Table striped withTableBorder aria-label="Rows with problems">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Column</Table.Th>
            <Table.Th>Problem</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {errors.map((error) => (
            <Table.Tr key={`${error.row}-${error.column}-${error.message}`}>
              <Table.Td>{error.row}</Table.Td>
              <Table.Td>{error.column ?? '—'}</Table.Td>
              <Table.Td>{error.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

const alsoLines = (result: ImportResult) =>
  [
    result.also.vehiclesCreated > 0 && `${plural(result.also.vehiclesCreated, 'vehicle')} registered`,
    result.also.vehiclesUpdated > 0 && `${plural(result.also.vehiclesUpdated, 'vehicle')} linked to students`,
    result.also.parentsCreated > 0 && `${plural(result.also.parentsCreated, 'parent account')} made`,
    result.also.parentsUpdated > 0 && `${plural(result.also.parentsUpdated, 'parent')} linked to children`,
    result.also.classroomsCreated > 0 && `${plural(result.also.classroomsCreated, 'classroom')} created`,
  ].filter((line): line is string => Boolean(line));

/**
 * Imports a CSV file in a template's columns: a preview of the first rows,
 * progress while the server works, then what was created, updated and left
 * unchanged, or every bad row in a table (and nothing imported).
 */
export function ImportDialog({
  kind,
  schoolId,
  opened,
  onClose,
}: {
  kind: ImportKind;
  schoolId: SchoolScope;
  opened: boolean;
  onClose: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [reading, setReading] = useState(false);
  const [started, setStarted] = useState<number | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const importer = useImportRoster(schoolId);

  useEffect(() => {
    if (started === null) return;
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [started]);

  const reset = () => {
    setFile(null);
    setParsed(null);
    setStarted(null);
    importer.reset();
  };
  const close = () => {
    if (importer.isPending) return;
    reset();
    onClose();
  };

  const choose = async (chosen: File | null) => {
    importer.reset();
    setFile(chosen);
    setParsed(null);
    if (!chosen) return;
    setReading(true);
    try {
      const text = await chosen.text();
      const { parseRosterCsv } = await import('@curbside/domain/csv');
      const { records, errors } = parseRosterCsv(kind, text);
      setParsed({ name: chosen.name, text, records, errors });
    } finally {
      setReading(false);
    }
  };

  const run = () => {
    if (!parsed) return;
    setStarted(Date.now());
    setElapsed(0);
    importer.mutate({ kind, text: parsed.text }, { onSettled: () => setStarted(null) });
  };

  const refusal =
    importer.error instanceof HttpError
      ? (importer.error.body as { message?: string; errors?: RowError[] } | null)
      : null;
  const columns = CSV_TEMPLATES[kind];
  const result = importer.data;

  return (
    <Modal opened={opened} onClose={close} title={`Import ${kind}`} size="xl" centered>
      <Stack gap="md">
        <List size="sm" spacing={4}>
          <List.Item>
            Columns:{' '}
            <Text span ff="monospace" fz="sm">
              {columns.join(', ')}
            </Text>{' '}
            (Download Template gives the header row).
          </List.Item>
          {HINTS[kind].map((hint) => (
            <List.Item key={hint}>{hint}</List.Item>
          ))}
          <List.Item>
            A file with any bad row imports nothing; up to {IMPORT_MAX_ROWS.toLocaleString('en-US')} rows a
            file.
          </List.Item>
        </List>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(chosen) => void choose(chosen)}
          clearable
          disabled={importer.isPending}
        />
        {reading && <Text>Reading the file…</Text>}
        {parsed && parsed.errors.length > 0 && (
          <Alert color="red" variant="light" title="This file cannot be imported" role="alert">
            <ErrorTable errors={parsed.errors} />
          </Alert>
        )}
        {refusal?.errors && (
          <Alert color="red" variant="light" title={refusal.message ?? 'Nothing was imported'} role="alert">
            <ErrorTable errors={refusal.errors} />
          </Alert>
        )}
        {parsed && parsed.errors.length === 0 && !result && !refusal?.errors && (
          <Stack gap="xs">
            <Title order={4}>
              Preview: first {Math.min(IMPORT_PREVIEW_ROWS, parsed.records.length)} of{' '}
              {plural(parsed.records.length, 'row')}
            </Title>
            <ScrollArea type="auto">
              <Table striped withTableBorder fz="sm" aria-label="Preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    {columns.map((column) => (
                      <Table.Th key={column}>{column}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {parsed.records.slice(0, IMPORT_PREVIEW_ROWS).map((record, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows of a file have no other identity
                    <Table.Tr key={index}>
                      <Table.Td>{index + 2}</Table.Td>
                      {columns.map((column) => (
                        <Table.Td key={column}>{record[column] ?? ''}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Stack>
        )}
        {importer.isPending && (
          <Stack gap={4} role="status" aria-live="polite">
            <Text>
              Importing {plural(parsed?.records.length ?? 0, 'row')}… {elapsed} s
            </Text>
            <Progress value={100} striped animated aria-label="Importing" />
            <Text fz="sm" c="dimmed">
              A large school’s file takes up to half a minute. Nothing is written until every row checks out.
            </Text>
          </Stack>
        )}
        {importer.error && !refusal?.errors && (
          <Alert color="red" variant="light" title="Import failed" role="alert">
            {errorMessage(importer.error)}
          </Alert>
        )}
        {result && (
          <Alert color="green" variant="light" title="Import complete" role="status">
            <Stack gap={4}>
              <Text fw={600} data-testid="import-counts">
                {result.created} created, {result.updated} updated, {result.unchanged} unchanged
              </Text>
              {alsoLines(result).map((line) => (
                <Text key={line} fz="sm">
                  {line}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        {result && result.credentials.length > 0 && (
          <Stack gap="xs">
            <Alert color="yellow" variant="light" title="New sign-ins, shown once">
              Download them now and hand each teacher theirs: the passwords are not shown again.
            </Alert>
            <Button
              variant="light"
              onClick={() =>
                void toCsvText([
                  ['name', 'username', 'password'],
                  ...result.credentials.map((c) => [c.name, c.username, c.password]),
                ]).then((text) => downloadText('teacher-sign-ins.csv', text))
              }
            >
              Download sign-ins (CSV)
            </Button>
          </Stack>
        )}
        <Group justify="flex-end">
          {result || refusal ? (
            <Button variant="default" onClick={reset}>
              Import another file
            </Button>
          ) : null}
          <Button variant={result ? 'filled' : 'default'} onClick={close} disabled={importer.isPending}>
            {result ? 'Done' : 'Cancel'}
          </Button>
          {!result && (
            <Button
              onClick={run}
              loading={importer.isPending}
              disabled={!parsed || parsed.errors.length > 0 || parsed.records.length === 0}
            >
              Import {parsed ? plural(parsed.records.length, 'row') : ''}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
