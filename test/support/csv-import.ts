import type { Answer, Client } from './server';

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
