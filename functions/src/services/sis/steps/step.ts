import type { ImportJob, SisCheckpoint } from '@curbside/domain';
import type { SeenPage } from '@curbside/store';
import type { CleverClient } from '../clever';
import type { ImportRequest } from '../request';
import type { SchoolState, Tally } from '../school-state';

/** What a step of a school's import works with, one page at a time. */
export interface StepContext {
  jobId: string;
  job: ImportJob;
  request: ImportRequest;
  checkpoint: SisCheckpoint;
  /** The Clever school and the local school it imports into. */
  target: { cleverSchoolId: string; localSchoolId: number };
  state: SchoolState;
  client: CleverClient;
  tally: Tally;
}

/**
 * One step of a school's import: `read` takes the next page from Clever (`next`: where the
 * page after it starts, null at the end), `apply` writes what the page changes and answers
 * the Clever ids it kept, `seenIds` is what the job remembers of the page (so the last
 * step can retire what no page saw; null: nothing to remember).
 */
export interface SchoolStep<R> {
  read(context: StepContext): Promise<{ records: R[]; next: string | null }>;
  apply(context: StepContext, records: R[]): Promise<string[] | undefined>;
  seenIds(records: R[], kept: string[] | undefined): SeenPage | null;
}
