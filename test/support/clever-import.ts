import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImportJob, ImportStarted } from '@curbside/domain';
import { type FakeClever, startFakeClever } from '@curbside/local';
import { classrooms, parents, students, users } from '@curbside/store';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Client, signedIn, startTestServer } from './server';

/**
 * The roster import from Clever, against the fake Clever server in the repository (its
 * generated district: 3 schools, about 500 students each), read 100 records a page so a
 * school's students span 5 pages. Between the import and the fake sits a small relay that can
 * answer one request with a 429 or a 500 (`injected`), so a failure lands exactly where a test
 * wants it. The bindings are live: a test file calls `cleverImportServer()` once at its top.
 */
export let clever: FakeClever;
export let relay: Server;
export let server: Awaited<ReturnType<typeof startTestServer>>;
export let admin: Client;

/** Requests the relay answers itself: the first request whose URL matches, once each. */
export const injected: Array<{
  match: (url: URL) => boolean;
  status: number;
  headers?: () => Record<string, string>;
  times: number;
}> = [];
export const seen: string[] = [];

/**
 * Starts the fake Clever district, the relay in front of it (`CLEVER_API_URL`, 100 records a
 * page) and the laptop runtime, with the district admin signed in; closes them at the end.
 */
export const cleverImportServer = () => {
  beforeAll(async () => {
    clever = await startFakeClever({ district: { schools: 3, studentsPerSchool: 500, seed: 7 } });
    relay = createServer(async (request, response) => {
      const url = new URL(request.url ?? '/', clever.url);
      seen.push(`${url.pathname}${url.search}`);
      const rule = injected.find((r) => r.times > 0 && r.match(url));
      if (rule) {
        rule.times--;
        response.writeHead(rule.status, { 'content-type': 'application/json', ...(rule.headers?.() ?? {}) });
        return response.end(JSON.stringify({ error: 'injected' }));
      }
      const answer = await fetch(url, { headers: { authorization: request.headers.authorization ?? '' } });
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, {
      CLEVER_API_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
      CLEVER_DISTRICT_TOKENS: JSON.stringify({ [clever.districtId]: clever.districtToken }),
      CLEVER_PAGE_SIZE: '100',
    });
    server = await startTestServer();
    admin = await signedIn(server.url, 'district_demo');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => relay?.close(resolve));
    await clever?.close();
  });
};

/** Follows a job as the page does, until it is no longer running. */
export const finished = async (job: ImportJob): Promise<ImportJob> => {
  let last = job;
  await expect
    .poll(
      async () => {
        last = (await admin.get<ImportJob>(`/api/import-jobs/${job.id}`)).body;
        return last.status;
      },
      { timeout: 90_000, interval: 200 },
    )
    .not.toBe('running');
  return last;
};

export const start = async (path: string, body: Record<string, unknown>) => {
  const answer = await admin.post<ImportStarted>(path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  expect(answer.body.message).toEqual(expect.any(String));
  return answer.body.job;
};

export const cleverSchools = () => clever.data.schools.map((school) => school.id).sort();
export const studentsOf = (schoolId: string) =>
  clever.data.users.filter((user) => user.roles?.student && user.roles.student.school === schoolId);

/** What a school holds, as the school admin's lists would show it (active records, by Clever id). */
export const snapshot = async (schoolId: number) => {
  const [studentList, roomList, teacherList, parentList] = await Promise.all([
    students.listAll(server.db, schoolId),
    classrooms.listAll(server.db, schoolId),
    users.teachersOfSchool(server.db, schoolId),
    parents.listAll(server.db, schoolId),
  ]);
  const rooms = new Map(roomList.map((room) => [room.id, room.name]));
  return {
    students: studentList
      .filter((s) => s.active && s.cleverId)
      .map((s) => `${s.cleverId} ${s.firstName} ${s.lastName} ${s.grade} ${rooms.get(s.classroomId ?? 0)}`)
      .sort(),
    classrooms: roomList
      .filter((r) => r.active && r.cleverId)
      .map((r) => `${r.cleverId} ${r.name} ${r.grade}`)
      .sort(),
    teachers: teacherList
      .filter((t) => t.active && t.cleverId)
      .map((t) => `${t.cleverId} ${t.name} ${t.email}`)
      .sort(),
    parents: parentList
      .filter((p) => p.user.active && p.user.cleverId)
      .map((p) => `${p.user.cleverId} ${p.user.name} ${[...(p.user.studentIds ?? [])].sort().join(',')}`)
      .sort(),
  };
};
