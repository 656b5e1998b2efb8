import { CSV_TEMPLATES, type ImportKind, OPTIONAL_COLUMNS } from '../roster-import-basics';

/** The template columns a file must have, matched whatever the header's case and spacing. */

/** A header cell as it is matched: `First Name`, `firstname` and `firstName` are one column. */
export const columnKey = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The template columns a header row lacks (extra columns are ignored), and
 * for each known column the header cell that names it.
 */
export const matchColumns = (kind: ImportKind, headers: readonly string[]) => {
  const byKey = new Map(headers.map((header) => [columnKey(header), header]));
  const columns = new Map<string, string>();
  const missing: string[] = [];
  for (const column of [...CSV_TEMPLATES[kind], ...OPTIONAL_COLUMNS[kind]]) {
    const header = byKey.get(columnKey(column));
    if (header !== undefined) columns.set(column, header);
    else if (CSV_TEMPLATES[kind].includes(column)) missing.push(column);
  }
  return { columns, missing };
};
