/**
 * Domain errors. Services throw these; they say what went wrong, not how a
 * protocol answers it: the HTTP layer maps each class to its status code in one
 * table (`functions/src/lib/http.ts`). The message is shown to the user as it is.
 */
export abstract class DomainError extends Error {
  /** Sets a domain error apart from any other Error for the type checker (a protected member is nominal). */
  protected readonly domain = true;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export interface FieldIssue {
  path: string;
  message: string;
}

export class ValidationError extends DomainError {
  constructor(
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
  }
}

/**
 * A file (a CSV import) with bad rows: 400 `{ message, errors: [{ row, column, message }] }`,
 * one error per bad cell; nothing was written.
 */
export class RowsRejectedError extends ValidationError {
  constructor(
    message: string,
    readonly rows: Array<{ row: number; column: string | null; message: string }>,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Not signed in') {
    super(message);
  }
}

/**
 * A private link the school replaced since (the office rotated the bus
 * links, issue 50): 401 `{ message, replaced: true, schoolPhone }`, so the
 * page says so and still offers a number to call.
 */
export class LinkReplacedError extends UnauthorizedError {
  constructor(
    message: string,
    readonly schoolPhone: string | null,
  ) {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You don't have permission to do this.") {
    super(message);
  }
}

export class NotFoundError extends DomainError {}

export class ConflictError extends DomainError {}

/**
 * Completing a car or a batch while a child of it was not released by a
 * teacher (issue 50): 409 `{ message, unreleased: [students] }` until the
 * staff confirm ("Complete anyway?").
 */
export class UnreleasedStudentsError extends ConflictError {
  constructor(
    message: string,
    readonly unreleased: ReadonlyArray<{ id: number; firstName: string; lastName: string }>,
  ) {
    super(message);
  }
}

/**
 * "I'm here" from outside the school's geofence (issue 53): 409
 * `{ message, distanceM }`, the distance from the school's point in metres
 * (the parent's screen says it in their language).
 */
export class OutsideGeofenceError extends ConflictError {
  constructor(
    message: string,
    readonly distanceM: number,
  ) {
    super(message);
  }
}

/**
 * Queueing a car none of whose children goes home in it today (issue 52): 409
 * `{ message, notComing: [students with their reason] }` until the staff queue
 * it anyway (`queueAnyway: true`): an adult in a car is a person waiting.
 */
export class NotComingError extends ConflictError {
  constructor(
    message: string,
    readonly notComing: ReadonlyArray<{ id: number; firstName: string; lastName: string; reason: string }>,
  ) {
    super(message);
  }
}

/** Something that worked once and never will again (a used, revoked or expired invite). */
export class GoneError extends DomainError {}

export class TooManyRequestsError extends DomainError {}

export class UnavailableError extends DomainError {}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
