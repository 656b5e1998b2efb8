import {
  ConflictError,
  emptyCounts,
  type ImportJob,
  importProgress,
  newSchoolTimeZone,
  nextCheckpoint,
  type SisCounts,
  type SisSchoolStep,
  summarizeCounts,
} from '@curbside/domain';
import { cleverLinks, districts, importJobs, type StoredImportJob, schools } from '@curbside/store';
import { db } from '../../lib/context';
import { log } from '../../lib/log';
import { CleverClient, type CleverDistrict, CleverError, type CleverSchool } from './clever';
import { tokenOf } from './districts';
import type { ImportRequest } from './request';
import { loadSchool, type SchoolState, type Tally } from './school-state';
import { SCHOOL_STEPS } from './steps';

export type { ImportRequest } from './request';

/**
 * Runs import jobs, a page at a time, saving a checkpoint after each page:
 * a run stops cleanly before its time is up (and is continued by another),
 * a failed job keeps what it finished and resumes from its checkpoint.
 * A district or school job imports its one record; a school's import runs
 * the table of steps in `./steps` (only records that changed are written,
 * so an import run again writes nothing).
 */

/**
 * The district record: made (a super admin's first import) or the one already
 * there (a district admin's own; its name is left as it is), linked to its Clever district.
 */
const importDistrict = async (stored: StoredImportJob<ImportRequest>, client: CleverClient) => {
  const request = stored.request;
  const clever = await client.get<CleverDistrict>(`/v3.0/districts/${request.cleverDistrictId}`);
  const name = clever.name.trim().slice(0, 100) || 'District';
  let localId = request.localDistrictId ?? (await cleverLinks.districtOf(db, clever.id)) ?? null;
  if (localId === null) {
    const made = await districts.create(db, { name, active: true, sandbox: false });
    localId = made.id;
    await cleverLinks.linkDistrict(db, localId, clever.id);
  } else {
    const local = await districts.get(db, localId);
    if (local?.cleverId !== clever.id) await cleverLinks.linkDistrict(db, localId, clever.id);
  }
  stored.job.districtId = localId;
  stored.request.localDistrictId = localId;
  return name;
};

/** One school record: made in the local district, or the one already imported (left as it is); linked to its Clever school. */
const importSchoolRecord = async (
  stored: StoredImportJob<ImportRequest>,
  client: CleverClient,
  tally: Tally,
) => {
  const request = stored.request;
  const clever = await client.get<CleverSchool>(`/v3.0/schools/${request.cleverSchoolId}`);
  const name = clever.name.trim().slice(0, 100) || 'School';
  const linked = await cleverLinks.schoolOf(db, clever.id);
  if (linked === undefined) {
    const districtId = request.localDistrictId as number;
    const made = await schools.create(db, {
      name,
      districtId,
      active: true,
      sandbox: false,
      timeZone: newSchoolTimeZone(await districts.get(db, districtId)),
    });
    await cleverLinks.linkSchool(db, made.id, clever.id);
    stored.job.schoolId = made.id;
    tally('schools', 'created');
  } else {
    stored.job.schoolId = linked;
    tally('schools', 'unchanged');
  }
  return name;
};

/**
 * Runs a job until it is done, fails, or `remainingMs()` gets short (then it
 * saves its place and answers 'continue': the caller starts another run).
 * 'stopped': another run owns the job, or it is not running.
 */
export const runImportJob = async (
  jobId: string,
  runId: string,
  remainingMs: () => number,
  reserveMs: number,
): Promise<'done' | 'continue' | 'stopped'> => {
  const found = (await importJobs.get(db, jobId)) as StoredImportJob<ImportRequest> | undefined;
  if (!found || found.runId !== runId || found.job.status !== 'running') return 'stopped';
  const stored = found;
  const { job, request } = stored;
  const counts: SisCounts = job.counts ?? emptyCounts();
  job.counts = counts;
  const tally: Tally = (kind, outcome, n = 1) => {
    counts[kind][outcome] += n;
  };
  const save = async (patch: Partial<ImportJob>) => {
    Object.assign(job, patch, { updatedAt: new Date().toISOString() });
    if (!(await importJobs.save(db, stored as unknown as StoredImportJob))) throw new Superseded();
  };
  const started = Date.now();
  let client: CleverClient | undefined;
  try {
    client = new CleverClient(await tokenOf(request.cleverDistrictId));
    if (job.kind === 'district' || job.kind === 'sync') {
      if (stored.checkpoint.step === 'district') {
        const name = await importDistrict(stored, client);
        stored.checkpoint =
          job.kind === 'sync'
            ? { school: 0, step: 'teachers', after: null, page: 0 }
            : { ...stored.checkpoint, step: 'done' };
        await save({ message: `District ${name} connected`, percent: job.kind === 'sync' ? 1 : 100 });
      }
    }
    if (job.kind === 'school' && stored.checkpoint.step === 'school') {
      await importSchoolRecord(stored, client, tally);
      stored.checkpoint = { ...stored.checkpoint, step: 'done' };
    }
    let state: SchoolState | undefined;
    while (stored.checkpoint.step !== 'done' && stored.checkpoint.school < request.schools.length) {
      if (remainingMs() < reserveMs) {
        await save({});
        log('info', 'import job continues in another run', {
          jobId,
          ms: Date.now() - started,
          ...client.stats,
        });
        return 'continue';
      }
      const checkpoint = stored.checkpoint;
      const target = request.schools[checkpoint.school] as { cleverSchoolId: string; localSchoolId: number };
      if (!state || state.school.id !== target.localSchoolId)
        state = await loadSchool(jobId, target.localSchoolId);
      const step = checkpoint.step as SisSchoolStep;
      if ((checkpoint.counted ?? -1) < checkpoint.school) {
        // The school's students, counted first (10,000 a request) so the progress bar can say how far it is.
        job.total =
          (job.total ?? 0) +
          (await client.count(`/v3.0/schools/${target.cleverSchoolId}/users`, { role: 'student' }));
        checkpoint.counted = checkpoint.school;
      }
      const seenKey = `${target.localSchoolId}#${step}`;
      const handler = SCHOOL_STEPS[step];
      const context = { jobId, job, request, checkpoint, target, state, client, tally };
      const page = await handler.read(context);
      const kept = await handler.apply(context, page.records);
      const seen = handler.seenIds(page.records, kept);
      if (seen) await importJobs.putSeen(db, jobId, seenKey, checkpoint.page, seen);
      stored.checkpoint = nextCheckpoint(checkpoint, page.next);
      if (stored.checkpoint.school !== checkpoint.school) state = undefined;
      await save(importProgress(stored.checkpoint, job, request.schools.length));
    }
    const now = new Date().toISOString();
    await save({ status: 'succeeded', percent: 100, message: summarizeCounts(counts), finishedAt: now });
    log('info', 'import job done', { jobId, kind: job.kind, ms: Date.now() - started, ...client.stats });
    return 'done';
  } catch (error) {
    if (error instanceof Superseded) return 'stopped';
    const message =
      error instanceof CleverError || error instanceof ConflictError
        ? error.message
        : 'Something went wrong while importing';
    if (!(error instanceof CleverError)) log('error', 'import job failed', { jobId, error: String(error) });
    try {
      await save({
        status: 'failed',
        error: message,
        message: `Import stopped: ${message}. What was imported is kept; resume to finish.`,
        finishedAt: new Date().toISOString(),
      });
    } catch (saveError) {
      if (!(saveError instanceof Superseded)) throw saveError;
    }
    log('warn', 'import job stopped', { jobId, message, ...(client?.stats ?? {}) });
    return 'stopped';
  }
};

class Superseded extends Error {}
