import type { ImportJob, ImportStarted, School } from '@curbside/domain';
import { type JobRun, registerInProcessJobs } from '@curbside/functions/lib/jobs';
import { importJobs, parents, students, users } from '@curbside/store';
import { describe, expect, it, vi } from 'vitest';
import {
  admin,
  clever,
  cleverImportServer,
  cleverSchools,
  finished,
  injected,
  seen,
  server,
  snapshot,
  start,
  studentsOf,
} from '../support/clever-import';
import { createStaff } from '../support/fixtures';
import { Client, signedIn } from '../support/server';

// The roster import from Clever; the fake district and its failure relay: support/clever-import.ts.
cleverImportServer();

let firstSchool: School;

describe('the import page’s reads', () => {
  it('shows the district admin nothing until the super admin assigns the Clever district to their district', async () => {
    expect((await admin.get('/api/clever/districts')).body).toEqual([]);
    const early = await admin.post('/api/clever/import/school', {
      cleverSchoolId: clever.data.schools[0]?.id,
      localDistrictId: 1,
    });
    expect(early.status).toBe(404);
    const superAdmin = await signedIn(server.url, 'super_demo');
    const assigned = await superAdmin.put('/api/districts/1/clever', { cleverDistrictId: clever.districtId });
    expect(assigned.status).toBe(200);
  });

  it('lists the Clever district, its three schools, and previews the first 10 students with the total', async () => {
    const districts = await admin.get('/api/clever/districts');
    expect(districts.status).toBe(200);
    expect(districts.body).toEqual([
      { id: clever.districtId, name: clever.data.district.name, state: 'success' },
    ]);
    const schools = await admin.get(`/api/clever/schools?districtId=${clever.districtId}`);
    expect(schools.body.map((s: { id: string }) => s.id).sort()).toEqual(cleverSchools());
    const [school] = clever.data.schools;
    const preview = await admin.get(`/api/clever/preview/students?cleverSchoolId=${school?.id}`);
    expect(preview.status).toBe(200);
    expect(preview.body.totalCount).toBe(studentsOf(school?.id as string).length);
    expect(preview.body.preview).toHaveLength(10);
    expect(preview.body.preview[0]).toEqual({
      cleverId: expect.any(String),
      firstName: expect.any(String),
      lastName: expect.any(String),
      grade: expect.any(String),
      studentNumber: expect.any(String),
      ...(preview.body.preview[0].email ? { email: expect.any(String) } : {}),
    });
  });
});

describe('importing', () => {
  it('connects the demo district to the Clever district, then imports a school into it', async () => {
    const district = await finished(
      await start('/api/clever/import/district', { cleverDistrictId: clever.districtId }),
    );
    expect(district.status).toBe('succeeded');
    expect(district.districtId).toBe(1);
    const school = await finished(
      await start('/api/clever/import/school', {
        cleverSchoolId: clever.data.schools[0]?.id,
        localDistrictId: 1,
      }),
    );
    expect(school.status).toBe('succeeded');
    expect(school.counts.schools.created).toBe(1);
    const listed = await admin.get<School[]>('/api/schools');
    firstSchool = listed.body.find((s) => s.id === school.schoolId) as School;
    expect(firstSchool.name).toBe(clever.data.schools[0]?.name);
  });

  it('imports a school’s students over several pages, waiting out a 429 in the middle, with teachers, classrooms and parents', async () => {
    const cleverSchool = clever.data.schools[0]?.id as string;
    const secondPage = (url: URL) =>
      url.pathname === `/v3.0/schools/${cleverSchool}/users` &&
      url.searchParams.get('role') === 'student' &&
      url.searchParams.has('starting_after') &&
      url.searchParams.get('limit') === '100';
    injected.push({
      match: secondPage,
      status: 429,
      headers: () => ({ 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 1) }),
      times: 1,
    });
    seen.length = 0;
    const job = await finished(
      await start('/api/clever/import/students', {
        cleverSchoolId: cleverSchool,
        localSchoolId: firstSchool.id,
        createMissingClassrooms: true,
      }),
    );
    expect(job.status, job.error ?? '').toBe('succeeded');
    expect(job.percent).toBe(100);
    const pupils = studentsOf(cleverSchool);
    expect(job.counts.students).toEqual({ created: pupils.length, updated: 0, unchanged: 0, deactivated: 0 });
    expect(job.counts.teachers.created).toBeGreaterThan(0);
    expect(job.counts.classrooms.created).toBeGreaterThan(0);
    expect(job.counts.parents.created).toBeGreaterThan(0);
    // Five pages of students (plus the count), and the 429'd page asked again.
    const studentPages = seen.filter((path) => path.includes('role=student') && path.includes('limit=100'));
    expect(studentPages.length).toBeGreaterThanOrEqual(6);
    expect(injected[0]?.times).toBe(0);

    const state = await snapshot(firstSchool.id);
    expect(state.students).toHaveLength(pupils.length);
    expect(state.students.every((line) => !line.endsWith(' undefined'))).toBe(true); // each in a classroom
    // What the school admin's screen lists.
    const listed = await admin.get(`/api/students?schoolId=${firstSchool.id}&limit=10`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(10);
  });

  it('a second import changes nothing', async () => {
    const before = await snapshot(firstSchool.id);
    const job = await finished(
      await start('/api/clever/import/students', {
        cleverSchoolId: clever.data.schools[0]?.id,
        localSchoolId: firstSchool.id,
        createMissingClassrooms: true,
      }),
    );
    expect(job.status).toBe('succeeded');
    for (const kind of ['teachers', 'classrooms', 'students', 'parents'] as const) {
      expect(job.counts[kind].created, kind).toBe(0);
      expect(job.counts[kind].updated, kind).toBe(0);
      expect(job.counts[kind].deactivated, kind).toBe(0);
    }
    expect(job.message).toMatch(/^Up to date, nothing changed/);
    expect(await snapshot(firstSchool.id)).toEqual(before);
  });

  it('deactivates a student the SIS no longer lists, and nothing else', async () => {
    const before = await snapshot(firstSchool.id);
    const leaving = studentsOf(clever.data.schools[0]?.id as string)[3];
    clever.removeUser(leaving?.id as string);
    const job = await finished(
      await start('/api/clever/import/students', {
        cleverSchoolId: clever.data.schools[0]?.id,
        localSchoolId: firstSchool.id,
        createMissingClassrooms: true,
      }),
    );
    expect(job.status).toBe('succeeded');
    expect(job.counts.students.deactivated).toBe(1);
    expect(job.counts.students.created + job.counts.students.updated).toBe(0);
    const after = await snapshot(firstSchool.id);
    expect(after.students).toEqual(before.students.filter((line) => !line.startsWith(`${leaving?.id} `)));
    expect(after.teachers).toEqual(before.teachers);
    expect(after.classrooms).toEqual(before.classrooms);
  });

  it('a job that fails mid-way keeps what it did, and resumed reaches the same state as a whole import', async () => {
    const cleverSchool = clever.data.schools[1]?.id as string;
    const made = await admin.post<School>('/api/schools', { name: 'Second Clever School', districtId: 1 });
    expect(made.status).toBe(201);
    const other = made.body;
    // Clever fails every try of the third students page: the job stops there.
    injected.push({
      match: (url) =>
        url.pathname === `/v3.0/schools/${cleverSchool}/users` &&
        url.searchParams.get('role') === 'student' &&
        url.searchParams.get('limit') === '100' &&
        seen.filter((p) => p.includes(cleverSchool) && p.includes('role=student') && p.includes('limit=100'))
          .length >= 3,
      status: 500,
      times: 5,
    });
    const failed = await finished(
      await start('/api/clever/import/students', {
        cleverSchoolId: cleverSchool,
        localSchoolId: other.id,
        createMissingClassrooms: true,
      }),
    );
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/Clever answered 500/);
    const kept = await snapshot(other.id as number);
    expect(kept.students.length).toBeGreaterThan(0);
    expect(kept.students.length).toBeLessThan(studentsOf(cleverSchool).length);

    const resumed = await admin.post<ImportStarted>(`/api/import-jobs/${failed.id}/resume`);
    expect(resumed.status).toBe(202);
    const done = await finished(resumed.body.job);
    expect(done.status).toBe('succeeded');
    expect(done.counts.students.created).toBe(studentsOf(cleverSchool).length);
    const state = await snapshot(other.id as number);
    expect(state.students).toHaveLength(studentsOf(cleverSchool).length);
    // The same state a whole import gives: importing again changes nothing.
    const again = await finished(
      await start('/api/clever/import/students', {
        cleverSchoolId: cleverSchool,
        localSchoolId: other.id,
        createMissingClassrooms: true,
      }),
    );
    expect(again.message).toMatch(/^Up to date, nothing changed/);
    expect(await snapshot(other.id as number)).toEqual(state);
  });

  it('a run that runs short of time saves its place and the job continues in another run', async () => {
    const { invoke } = await import('@curbside/local');
    const runs: JobRun[] = [];
    const tasks: Promise<unknown>[] = [];
    // Runs of one second that stop with 800 ms left: each does a page or two, then hands on.
    const restore = registerInProcessJobs(async (run) => {
      runs.push(run);
      tasks.push(invoke('jobs/import', run, { timeoutMs: 1000 }));
    });
    process.env.IMPORT_JOB_RESERVE_MS = '800';
    try {
      const made = await admin.post<School>('/api/schools', { name: 'Third Clever School', districtId: 1 });
      const cleverSchool = clever.data.schools[2]?.id as string;
      const job = await finished(
        await start('/api/clever/import/students', {
          cleverSchoolId: cleverSchool,
          localSchoolId: made.body.id,
          createMissingClassrooms: true,
        }),
      );
      expect(job.status, job.error ?? '').toBe('succeeded');
      expect(runs.length).toBeGreaterThan(3);
      expect(new Set(runs.map((run) => run.runId)).size).toBe(1);
      expect(job.counts.students.created).toBe(studentsOf(cleverSchool).length);
      expect((await snapshot(made.body.id)).students).toHaveLength(studentsOf(cleverSchool).length);
    } finally {
      restore();
      delete process.env.IMPORT_JOB_RESERVE_MS;
      await Promise.allSettled(tasks);
    }
  });

  it('a run that throws (its store refused it) marks the job failed at once, and Lambda hands it to the dead-letter queue', async () => {
    // The school a test above imported (an import run again changes nothing: the first save is a checkpoint).
    const cleverSchool = clever.data.schools[1]?.id as string;
    const local = (await admin.get<School[]>('/api/schools')).body.find(
      (s) => s.name === 'Second Clever School',
    );
    const save = importJobs.save.bind(importJobs);
    let refused = 0;
    // The job's first checkpoint and the failure the run then tries to save are both refused.
    const spy = vi.spyOn(importJobs, 'save').mockImplementation(async (db, stored) => {
      if (refused < 2) {
        refused += 1;
        throw Object.assign(new Error('Throughput exceeds the current capacity of your table'), {
          name: 'ProvisionedThroughputExceededException',
        });
      }
      return save(db, stored);
    });
    const letters = server.deadLetters.length;
    try {
      const job = await finished(
        await start('/api/clever/import/students', {
          cleverSchoolId: cleverSchool,
          localSchoolId: local?.id,
          createMissingClassrooms: true,
        }),
      );
      expect(job.status).toBe('failed');
      expect(job.error).toBe('the import could not go on (the service failed)');
      expect(job.message).toBe(
        'Import stopped: the import could not go on (the service failed). What was imported is kept; resume to finish.',
      );
      await expect.poll(() => server.deadLetters.length).toBe(letters + 1);
      expect(server.deadLetters.at(-1)).toMatchObject({
        function: 'import-jobs',
        requestPayload: { jobId: job.id },
        attempts: 1,
      });
      spy.mockRestore();
      const resumed = await admin.post<ImportStarted>(`/api/import-jobs/${job.id}/resume`);
      expect(resumed.status).toBe(202);
      expect((await finished(resumed.body.job)).status).toBe('succeeded');
    } finally {
      spy.mockRestore();
    }
  });

  it('the nightly sync re-imports the connected district and each connected school, changing nothing', async () => {
    const { invoke, scheduledEvent } = await import('@curbside/local');
    const result = (await invoke('scheduled/clever-sync', scheduledEvent('clever-sync'))) as {
      jobs: string[];
    };
    expect(result.jobs).toHaveLength(1);
    const job = await finished({ id: result.jobs[0] } as ImportJob);
    expect(job.status, job.error ?? '').toBe('succeeded');
    expect(job.kind).toBe('sync');
    const all = clever.data.schools.reduce((n, school) => n + studentsOf(school.id).length, 0);
    expect(job.counts.students).toEqual({ created: 0, updated: 0, unchanged: all, deactivated: 0 });
    expect(job.message).toMatch(/^Up to date, nothing changed/);
  });

  it('a revoked token gives a clear error', async () => {
    clever.revokeDistrictToken();
    try {
      const answer = await admin.post('/api/clever/import/students', {
        cleverSchoolId: clever.data.schools[0]?.id,
        localSchoolId: firstSchool.id,
        createMissingClassrooms: true,
      });
      expect(answer.status).toBe(503);
      expect(answer.body.message).toMatch(/Clever refused the district’s token/);
      const listed = await admin.get('/api/clever/districts');
      expect(listed.status).toBe(503);
      expect(listed.body.message).toMatch(/Clever refused the district’s token/);
    } finally {
      clever.restoreDistrictToken();
    }
  });

  it('a super admin follows any import job; an unknown job is not found', async () => {
    const job = await start('/api/clever/import/district', { cleverDistrictId: clever.districtId });
    await finished(job);
    const superAdmin = await signedIn(server.url, 'super_demo');
    expect((await superAdmin.get(`/api/import-jobs/${job.id}`)).status).toBe(200);
    expect((await admin.get('/api/import-jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('what the school decided stands', () => {
  const importFirstSchool = async () => {
    const job = await finished(
      await start('/api/clever/import/students', {
        cleverSchoolId: clever.data.schools[0]?.id,
        localSchoolId: firstSchool.id,
        createMissingClassrooms: true,
      }),
    );
    expect(job.status, job.error ?? '').toBe('succeeded');
    return job;
  };
  const localStudent = async (cleverId: string) =>
    (await students.listAll(server.db, firstSchool.id)).find((s) => s.cleverId === cleverId) as {
      id: number;
    };

  it('a new guardian in Clever whose email a self-registered parent typed gets an account of their own', async () => {
    const [linked, victim] = studentsOf(clever.data.schools[0]?.id as string).slice(20, 22);
    // A stranger registers with the guardian's email and links one child of the school by a code.
    const stranger = new Client(server.url);
    expect(
      (
        await stranger.post('/api/auth/parent/register', {
          name: 'Stranger',
          username: 'stranger_clever',
          password: 'secret-pass-1',
          email: 'new.guardian@family.example.org',
          phone: '555-0199',
        })
      ).status,
    ).toBe(201);
    await createStaff(server.db, {
      username: 'clever_school_admin',
      role: 'school_admin',
      schoolId: firstSchool.id,
      districtId: 1,
    });
    const teacher = await signedIn(server.url, 'clever_school_admin');
    const code = (
      await teacher.post('/api/pickup-codes/generate', {
        studentId: (await localStudent(linked?.id ?? '')).id,
      })
    ).body.code;
    expect((await stranger.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    // The district's SIS adds the victim's real guardian, with that email.
    clever.data.users.push({
      id: 'ffffff000000000000000001',
      district: clever.districtId,
      email: 'new.guardian@family.example.org',
      name: { first: 'Real', last: 'Guardian' },
      created: '2026-01-01T00:00:00.000Z',
      last_modified: '2026-01-01T00:00:00.000Z',
      roles: {
        contact: {
          phone: '9045550199',
          phone_type: 'Cell',
          sis_id: 'C-NEW-1',
          student_relationships: [
            { student: victim?.id ?? '', relationship: 'Parent', type: 'Parent/Guardian' },
          ],
        },
      },
    });
    const job = await importFirstSchool();
    expect(job.counts.parents.created).toBe(1);
    const children = (await stranger.get('/api/parent/students')).body as Array<{ firstName: string }>;
    expect(children.map((child) => child.firstName)).toEqual([linked?.name.first]);
    const guardian = (await parents.listAll(server.db, firstSchool.id)).find(
      (p) => p.user.cleverId === 'ffffff000000000000000001',
    );
    expect(guardian?.user).toMatchObject({
      name: 'Real Guardian',
      studentIds: [(await localStudent(victim?.id ?? '')).id],
    });
    expect(guardian?.user.username).not.toBe('stranger_clever');
  });

  it('a teacher and a parent the school deactivated stay deactivated after the next import', {
    timeout: 120_000,
  }, async () => {
    const teacher = (await users.teachersOfSchool(server.db, firstSchool.id)).find(
      (t) => t.active && t.cleverId,
    );
    const parent = (await parents.listAll(server.db, firstSchool.id)).find(
      (p) => p.user.active && p.user.cleverId && p.user.cleverId !== 'ffffff000000000000000001',
    )?.user;
    for (const path of [`/api/teachers/${teacher?.id}`, `/api/parents/${parent?.id}`]) {
      const answer = await admin.request('DELETE', `${path}?schoolId=${firstSchool.id}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const job = await importFirstSchool();
    expect(job.counts.teachers.updated).toBe(0);
    expect(job.counts.parents.updated).toBe(0);
    expect((await users.get(server.db, teacher?.id ?? 0))?.active).toBe(false);
    expect((await users.get(server.db, parent?.id ?? 0))?.active).toBe(false);
    const listed = await admin.get(
      `/api/teachers?schoolId=${firstSchool.id}&search=${encodeURIComponent(teacher?.name ?? '')}`,
    );
    expect(listed.body.items.map((t: { id: number }) => t.id)).not.toContain(teacher?.id);
  });

  it('one the SIS stopped listing comes back when it lists them again', { timeout: 120_000 }, async () => {
    const victim = clever.data.users.find((u) => u.id === 'ffffff000000000000000001');
    clever.removeUser('ffffff000000000000000001');
    const gone = await importFirstSchool();
    expect(gone.counts.parents.deactivated).toBe(1);
    clever.data.users.push(victim as (typeof clever.data.users)[number]);
    const back = await importFirstSchool();
    expect(back.counts.parents.updated).toBe(1);
    const guardian = (await parents.listAll(server.db, firstSchool.id)).find(
      (p) => p.user.cleverId === 'ffffff000000000000000001',
    );
    expect(guardian?.user.active).toBe(true);
  });
});
