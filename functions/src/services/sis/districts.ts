import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  type District,
  emptyCounts,
  ForbiddenError,
  IMPORT_RUN_STALE_MS,
  type ImportJob,
  type ImportJobKind,
  type ImportStarted,
  NotFoundError,
  SIS_PREVIEW_SIZE,
  type SisDistrict,
  type SisDistrictAssignment,
  type SisSchool,
  type SisStudentPreview,
  UnavailableError,
  type User,
} from '@curbside/domain';
import { cleverLinks, districts, type ImportCheckpoint, importJobs, schools } from '@curbside/store';
import { cleverDistrictTokens } from '../../lib/clever-config';
import { db } from '../../lib/context';
import { startJobRun } from '../../lib/jobs';
import { isReadOnly, READ_ONLY_MESSAGE, rosterSchool } from '../roster/scope';
import { readDistrict } from '../tenancy';
import { CleverClient, type CleverDistrict, CleverError, type CleverSchool, type CleverUser } from './clever';
import type { ImportRequest } from './request';

/**
 * The import page's reads (Clever districts, schools, a student preview) and
 * the imports it starts. The Clever districts a user may work with: a super
 * admin every district that shared its data with the app; a district admin
 * only the one the super admin assigned to their district (none before).
 */

export const tokenOf = async (cleverDistrictId: string): Promise<string> => {
  const token = (await cleverDistrictTokens()).get(cleverDistrictId);
  if (!token) throw new CleverError('This district no longer shares its data with Curbside in Clever', 401);
  return token;
};

/** Clever's failures as the API answers them: a revoked token or an unreachable Clever is a 503 with its reason. */
const clever = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CleverError) {
      if (error.status === 404) throw new NotFoundError('Not found in Clever');
      throw new UnavailableError(error.message);
    }
    throw error;
  }
};

const mayUse = async (user: User, cleverDistrictId: string): Promise<boolean> => {
  if (user.role === 'super_admin') return true;
  const assigned = await cleverLinks.districtOf(db, cleverDistrictId);
  return assigned !== undefined && assigned === user.districtId;
};

const visibleDistrict = async (user: User, cleverDistrictId: string): Promise<CleverClient> => {
  const token = (await cleverDistrictTokens()).get(cleverDistrictId);
  if (!token || !(await mayUse(user, cleverDistrictId)))
    throw new NotFoundError('District not found in Clever');
  return new CleverClient(token);
};

const toSisDistrict = (district: CleverDistrict): SisDistrict => ({
  id: district.id,
  name: district.name,
  state: district.state ?? '',
});

export const listSisDistricts = async (user: User): Promise<SisDistrict[]> => {
  // No district has shared its data with the app yet: nothing to list (the page says so).
  const tokens = await cleverDistrictTokens();
  const found = await clever(() =>
    Promise.all(
      [...tokens].map(async ([id, token]) =>
        (await mayUse(user, id))
          ? [toSisDistrict(await new CleverClient(token).get<CleverDistrict>(`/v3.0/districts/${id}`))]
          : [],
      ),
    ),
  );
  return found.flat().sort((a, b) => a.name.localeCompare(b.name));
};

/** The super admin's list: every Clever district shared with the app, with the district it is assigned to. */
export const listCleverAssignments = async (_user: User): Promise<SisDistrictAssignment[]> => {
  const tokens = await cleverDistrictTokens();
  const found = await clever(() =>
    Promise.all(
      [...tokens].map(async ([id, token]) => ({
        ...toSisDistrict(await new CleverClient(token).get<CleverDistrict>(`/v3.0/districts/${id}`)),
        districtId: (await cleverLinks.districtOf(db, id)) ?? null,
      })),
    ),
  );
  return found.sort((a, b) => a.name.localeCompare(b.name));
};

/**
 * The super admin assigns a Clever district (one that shares its data with
 * the app) to a district: its district admin may then import from it. Each
 * is assigned to at most one of the other; assigning again is no change.
 */
export const assignCleverDistrict = async (
  _user: User,
  districtId: number,
  cleverDistrictId: string,
): Promise<District> => {
  const district = await districts.get(db, districtId);
  if (!district) throw new NotFoundError('District not found');
  if (!(await cleverDistrictTokens()).has(cleverDistrictId))
    throw new NotFoundError('District not found in Clever');
  if (district.cleverId === cleverDistrictId) return district;
  if (district.cleverId)
    throw new ConflictError(`${district.name} is already connected to another Clever district`);
  const assigned = await cleverLinks.districtOf(db, cleverDistrictId);
  if (assigned !== undefined && assigned !== districtId)
    throw new ConflictError('This Clever district is assigned to another district');
  await cleverLinks.linkDistrict(db, districtId, cleverDistrictId);
  return { ...district, cleverId: cleverDistrictId };
};

export const listSisSchools = async (user: User, cleverDistrictId: string): Promise<SisSchool[]> => {
  const client = await visibleDistrict(user, cleverDistrictId);
  const list = await clever(() => client.all<CleverSchool>('/v3.0/schools'));
  return list
    .filter((school) => school.district === cleverDistrictId)
    .map((school) => ({ id: school.id, name: school.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
};

/** The Clever district of a Clever school, among those the user may use, and its client. */
const schoolOf = async (user: User, cleverSchoolId: string) => {
  for (const [districtId, token] of await cleverDistrictTokens()) {
    if (!(await mayUse(user, districtId))) continue;
    const client = new CleverClient(token);
    try {
      const school = await client.get<CleverSchool>(`/v3.0/schools/${cleverSchoolId}`);
      return { cleverDistrictId: districtId, client, school };
    } catch (error) {
      if (error instanceof CleverError && error.status === 404) continue;
      if (error instanceof CleverError) throw new UnavailableError(error.message);
      throw error;
    }
  }
  throw new NotFoundError('School not found in Clever');
};

export const previewSisStudents = async (user: User, cleverSchoolId: string): Promise<SisStudentPreview> => {
  const { client } = await schoolOf(user, cleverSchoolId);
  return clever(async () => {
    const path = `/v3.0/schools/${cleverSchoolId}/users`;
    const [first, totalCount] = await Promise.all([
      client.page<CleverUser>(path, null, { role: 'student' }),
      client.count(path, { role: 'student' }),
    ]);
    return {
      totalCount,
      preview: first.records.slice(0, SIS_PREVIEW_SIZE).map((person) => ({
        cleverId: person.id,
        firstName: person.name?.first ?? '',
        lastName: person.name?.last ?? '',
        grade: person.roles?.student?.grade ?? '',
        studentNumber: person.roles?.student?.student_number ?? '',
        ...(person.email ? { email: person.email } : {}),
      })),
    };
  });
};

const createJob = async (
  user: User | null,
  kind: ImportJobKind,
  request: ImportRequest,
  checkpoint: ImportCheckpoint,
  message: string,
): Promise<ImportJob> => {
  const now = new Date().toISOString();
  const job: ImportJob = {
    id: randomUUID(),
    kind,
    status: 'running',
    message,
    percent: 0,
    done: 0,
    total: null,
    counts: emptyCounts(),
    districtId: request.localDistrictId,
    schoolId: request.schools[0]?.localSchoolId ?? null,
    error: null,
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  const runId = randomUUID();
  await importJobs.create(db, {
    job,
    request: request as unknown as Record<string, unknown>,
    checkpoint,
    runId,
    actorId: user?.id ?? null,
  });
  await startJobRun({ jobId: job.id, runId });
  return job;
};

const START = (step: string): ImportCheckpoint => ({ school: 0, step, after: null, page: 0 });

/**
 * Imports a Clever district: a district admin's into their own district (the
 * super admin assigned it the Clever district, or they would not see it); a
 * super admin's import makes a new district (or refreshes the one already
 * connected).
 */
export const startDistrictImport = async (user: User, cleverDistrictId: string): Promise<ImportStarted> => {
  const client = await visibleDistrict(user, cleverDistrictId);
  const district = await clever(() => client.get<CleverDistrict>(`/v3.0/districts/${cleverDistrictId}`));
  const linked = await cleverLinks.districtOf(db, cleverDistrictId);
  let localDistrictId = linked ?? null;
  if (user.role !== 'super_admin') {
    const own = user.districtId === null ? undefined : await districts.get(db, user.districtId);
    if (!own) throw new ForbiddenError('Your account is not attached to a district');
    if (own.sandbox) throw new ForbiddenError(READ_ONLY_MESSAGE);
    if (own.cleverId && own.cleverId !== cleverDistrictId)
      throw new ConflictError('Your district is already connected to another Clever district');
    localDistrictId = own.id;
  }
  const job = await createJob(
    user,
    'district',
    { cleverDistrictId, localDistrictId, schools: [], createMissingClassrooms: true },
    START('district'),
    `Importing ${district.name}…`,
  );
  return { message: `${district.name} is being imported`, job };
};

/** The local district a school import goes into must be connected to the school's Clever district. */
export const startSchoolImport = async (
  user: User,
  cleverSchoolId: string,
  localDistrictId: number,
): Promise<ImportStarted> => {
  const district = await readDistrict(user, localDistrictId);
  if (user.role !== 'super_admin' && district.sandbox) throw new ForbiddenError(READ_ONLY_MESSAGE);
  const { cleverDistrictId, school } = await schoolOf(user, cleverSchoolId);
  if (district.cleverId !== cleverDistrictId)
    throw new ConflictError(
      `Import the district first: ${district.name} is not connected to this school’s district in Clever`,
    );
  const linked = await cleverLinks.schoolOf(db, cleverSchoolId);
  if (linked !== undefined) {
    const local = await schools.get(db, linked);
    if (local && local.districtId !== localDistrictId)
      throw new ConflictError(`${school.name} is already imported into another district`);
  }
  const job = await createJob(
    user,
    'school',
    { cleverDistrictId, localDistrictId, cleverSchoolId, schools: [], createMissingClassrooms: true },
    START('school'),
    `Importing ${school.name}…`,
  );
  return { message: `${school.name} is being imported`, job };
};

/**
 * Imports a Clever school's teachers, classrooms, students and parents into a
 * local school. The first import connects the two (each to no other).
 */
export const startStudentsImport = async (
  user: User,
  input: { cleverSchoolId: string; localSchoolId: number; createMissingClassrooms: boolean },
): Promise<ImportStarted> => {
  const local = await rosterSchool(user, input.localSchoolId, 'write');
  const { cleverDistrictId, school } = await schoolOf(user, input.cleverSchoolId);
  const district = await districts.get(db, local.districtId);
  if (district?.cleverId !== cleverDistrictId)
    throw new ConflictError(
      `Import the district first: ${district?.name ?? 'the school’s district'} is not connected to this school’s district in Clever`,
    );
  if (local.cleverId !== input.cleverSchoolId) {
    if (local.cleverId) throw new ConflictError(`${local.name} is connected to another Clever school`);
    const linked = await cleverLinks.schoolOf(db, input.cleverSchoolId);
    if (linked !== undefined && linked !== local.id)
      throw new ConflictError(`${school.name} is already imported into another school`);
    await cleverLinks.linkSchool(db, local.id, input.cleverSchoolId);
  }
  const job = await createJob(
    user,
    'students',
    {
      cleverDistrictId,
      localDistrictId: local.districtId,
      schools: [{ cleverSchoolId: input.cleverSchoolId, localSchoolId: local.id }],
      createMissingClassrooms: input.createMissingClassrooms,
    },
    START('teachers'),
    `Importing the students of ${school.name}…`,
  );
  return { message: `The students of ${school.name} are being imported into ${local.name}`, job };
};

const visibleJob = async (user: User, id: string) => {
  const stored = await importJobs.get(db, id);
  const visible =
    stored !== undefined && (user.role === 'super_admin' || stored.job.districtId === user.districtId);
  if (!stored || !visible) throw new NotFoundError('No such import job');
  return stored;
};

export const getImportJob = async (user: User, id: string): Promise<ImportJob> =>
  (await visibleJob(user, id)).job;

/** A failed or stalled job runs again from its checkpoint; what it finished stays. */
export const resumeImportJob = async (user: User, id: string): Promise<ImportStarted> => {
  const stored = await visibleJob(user, id);
  if (stored.job.schoolId !== null) {
    const school = await schools.get(db, stored.job.schoolId);
    if (school && (await isReadOnly(user, school))) throw new ForbiddenError(READ_ONLY_MESSAGE);
  }
  const runId = randomUUID();
  const stale = new Date(Date.now() - IMPORT_RUN_STALE_MS).toISOString();
  if (!(await importJobs.takeOver(db, id, runId, new Date().toISOString(), stale)))
    throw new ConflictError('Only a stopped import can be resumed; this one is running or finished');
  await startJobRun({ jobId: id, runId });
  const job = (await importJobs.get(db, id))?.job as ImportJob;
  return { message: 'The import resumes where it stopped', job };
};

/**
 * The nightly sync: every district connected to Clever (with its token) gets
 * a job that refreshes the district and re-imports each connected school.
 */
export const startNightlySync = async (): Promise<ImportJob[]> => {
  const tokens = await cleverDistrictTokens();
  const started: ImportJob[] = [];
  for (const district of await districts.list(db)) {
    if (!district.cleverId || !tokens.has(district.cleverId) || !district.active) continue;
    const connected = (await schools.listByDistrict(db, district.id)).filter(
      (school) => school.cleverId && school.active,
    );
    started.push(
      await createJob(
        null,
        'sync',
        {
          cleverDistrictId: district.cleverId,
          localDistrictId: district.id,
          schools: connected.map((school) => ({
            cleverSchoolId: school.cleverId as string,
            localSchoolId: school.id,
          })),
          createMissingClassrooms: true,
        },
        START('district'),
        `Nightly sync of ${district.name}…`,
      ),
    );
  }
  return started;
};
