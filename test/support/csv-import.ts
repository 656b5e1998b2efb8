import { CSV_TEMPLATES } from '@curbside/domain';
import type { Answer, Client } from './server';

/** CSV text of `rows`: comma-separated cells, CRLF lines (as a spreadsheet saves it). */
export const csv = (rows: ReadonlyArray<readonly string[]>) => rows.map((row) => row.join(',')).join('\r\n');

/** A `kind` import file: the template's header row, then `rows`. */
export const importFile = (kind: keyof typeof CSV_TEMPLATES, rows: ReadonlyArray<readonly string[]>) =>
  csv([CSV_TEMPLATES[kind], ...rows]);

/** Posts CSV text to `POST /api/import/{kind}` as the browser's import dialog does (`text/csv`). */
export const importCsv = async (client: Client, kind: string, text: string, query = ''): Promise<Answer> => {
  const response = await fetch(new URL(`/api/import/${kind}${query}`, client.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'text/csv', ...(client.cookie ? { cookie: client.cookie } : {}) },
    body: text,
  });
  const body = await response.text();
  return { status: response.status, body: body ? JSON.parse(body) : undefined, headers: response.headers };
};
