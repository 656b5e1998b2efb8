import type { UnreleasedStudent } from '@curbside/domain';
import { HttpError } from '../../lib/http';

/**
 * Completing a car or a batch while a child of it was not released by a
 * teacher (issue 50): the server answers 409 `{ message, unreleased }` ("Leo
 * Johnson has not been released by a teacher. Complete anyway?") until the
 * same completion is sent again with `confirmUnreleased: true`. The screens
 * ask the staff that question, whether the completion was sent at once or
 * waited in the outbox.
 */
export interface UnreleasedAnswer {
  message: string;
  unreleased: UnreleasedStudent[];
}

/** The question a completion's refusal asks, or null for any other error. */
export const unreleasedOf = (error: unknown): UnreleasedAnswer | null => {
  if (!(error instanceof HttpError) || error.status !== 409) return null;
  const body = error.body as Partial<UnreleasedAnswer> | null;
  if (!body || typeof body.message !== 'string' || !Array.isArray(body.unreleased)) return null;
  return { message: body.message, unreleased: body.unreleased };
};

/** A call's input with the staff's "Complete anyway" added to its body. */
export const confirmedInput = (input: unknown): unknown => {
  const call = (input ?? {}) as { body?: Record<string, unknown> };
  return { ...call, body: { ...call.body, confirmUnreleased: true } };
};
