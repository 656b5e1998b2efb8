/**
 * Domain errors. Services throw these; the HTTP error middleware maps each to
 * its status code in one place. The message is shown to the user as it is.
 */
export abstract class DomainError extends Error {
  abstract readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 503;
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
  readonly status = 400;
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
  readonly status = 401;
  constructor(message = 'Not signed in') {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  constructor(message = "You don't have permission to do this.") {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  readonly status = 404;
}

export class ConflictError extends DomainError {
  readonly status = 409;
}

export class TooManyRequestsError extends DomainError {
  readonly status = 429;
}

export class UnavailableError extends DomainError {
  readonly status = 503;
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
