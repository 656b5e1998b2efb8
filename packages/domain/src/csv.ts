import Papa from 'papaparse';
import {
  CSV_TEMPLATES,
  FIRST_DATA_ROW,
  IMPORT_MAX_ROWS,
  type ImportKind,
  matchColumns,
  type RowError,
} from './roster-import';

/**
 * CSV text in and out, with papaparse (a maintained parser: quotes, commas and
 * line breaks inside cells, CRLF, a byte-order mark). Imported as
 * `@curbside/domain/csv`, so screens that never read a file do not load it.
 */

export interface ParsedFile {
  /** Rows keyed by template column (cells of columns the file lacks are absent). */
  records: Array<Record<string, string>>;
  /** Problems with the file as a whole (row 1 is the header) or with a row's shape. */
  errors: RowError[];
  /** The header cells as the file has them. */
  headers: string[];
}

/** Parses a roster file against its template's columns. */
export const parseRosterCsv = (kind: ImportKind, text: string): ParsedFile => {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim(),
  });
  const headers = (parsed.meta.fields ?? []).filter((header) => header !== '');
  const errors: RowError[] = [];
  const { columns, missing } = matchColumns(kind, headers);
  if (headers.length === 0) {
    return {
      records: [],
      headers,
      errors: [
        {
          row: 1,
          column: null,
          message: `The file is empty. Use the template's columns: ${CSV_TEMPLATES[kind].join(', ')}`,
        },
      ],
    };
  }
  for (const column of missing) {
    errors.push({ row: 1, column, message: `The header row has no ${column} column` });
  }
  for (const error of parsed.errors) {
    // "Too few/many fields" is only a warning for us: absent cells are blank, extras ignored.
    if (error.type === 'FieldMismatch') continue;
    errors.push({
      // papaparse counts quote errors from the header row, other errors from the first data row.
      row: (error.row ?? 0) + (error.type === 'Quotes' ? 1 : FIRST_DATA_ROW),
      column: null,
      message: error.code === 'MissingQuotes' ? 'A quoted cell is never closed' : error.message,
    });
  }
  if (parsed.data.length > IMPORT_MAX_ROWS) {
    errors.push({
      row: IMPORT_MAX_ROWS + FIRST_DATA_ROW,
      column: null,
      message: `A file can hold at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows; split it into several files`,
    });
  }
  if (parsed.data.length === 0 && errors.length === 0) {
    errors.push({ row: FIRST_DATA_ROW, column: null, message: 'The file has a header row but no data rows' });
  }
  const records = parsed.data.map((raw) => {
    const record: Record<string, string> = {};
    for (const [column, header] of columns) {
      const value = raw[header];
      if (typeof value === 'string') record[column] = value;
    }
    return record;
  });
  return { records, errors, headers };
};

/**
 * A cell a spreadsheet may run as a formula: one that starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return, whatever follows (a line break
 * included: papaparse's own `escapeFormulae: true` misses `=A1\n…`).
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Rows to CSV text (quotes where needed, CRLF line ends). A cell that
 * `FORMULA_START` matches goes out quoted with a leading `'` (OWASP's rule),
 * so a spreadsheet shows it as text and never runs it. Every CSV file the app
 * writes goes through here.
 */
export const toCsv = (rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string =>
  `${Papa.unparse(
    rows.map((row) => row.map((value) => (value === null || value === undefined ? '' : String(value)))),
    { newline: '\r\n', escapeFormulae: FORMULA_START },
  )}\r\n`;

/** CSV text as rows of cells (an export read back). */
export const parseCsvRows = (text: string): string[][] =>
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' }).data;
