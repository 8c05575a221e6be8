/**
 * The one error type of Shadowbox. Every failure that crosses a layer boundary is an AppError with a
 * code from this closed set; transports map codes to statuses in one table (see `httpStatusOf`).
 * Expected outcomes (a red test run, a rejected archive in a result object) are values, not throws;
 * AppError is for refusing input and for faults.
 */
export const appErrorCodes = {
  // Input that the caller can fix.
  INVALID_ARGUMENT: 400,
  INVALID_HYPOTHESIS: 400,
  COMMAND_NOT_ALLOWED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The diff under review is not the one the reviewer saw (approval is a compare-and-set). */
  STALE_DIFF: 409,
  /** The request is valid but the task is not in a state that allows it. */
  INVALID_STATE: 409,
  /** The task already holds as many waiting hypotheses as it may. */
  INBOX_FULL: 409,
  /** An approval while a review thread on the diff is still open. */
  OPEN_THREADS: 409,
  /** An approval while another reviewer's request for changes stands. */
  CHANGES_REQUESTED: 409,
  /** The remote refused a push (its branch moved, the credential, a hook): git's reason says. */
  PUSH_REJECTED: 409,
  /** A forge refused a pull request call (the token's rights, a missing repository): its words. */
  FORGE_REFUSED: 502,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // Intake policy rejections (422): the archive or URL is refused and nothing was written.
  ARCHIVE_PATH_TRAVERSAL: 422,
  ARCHIVE_PATH_ABSOLUTE: 422,
  ARCHIVE_PATH_INVALID: 422,
  ARCHIVE_PATH_TOO_DEEP: 422,
  ARCHIVE_PATH_TOO_LONG: 422,
  ARCHIVE_RESERVED_NAME: 422,
  ARCHIVE_DUPLICATE_PATH: 422,
  ARCHIVE_PATH_COLLISION: 422,
  ARCHIVE_LINK: 422,
  ARCHIVE_SPECIAL_FILE: 422,
  ARCHIVE_ENCRYPTED: 422,
  ARCHIVE_OVERLAPPING_ENTRIES: 422,
  ARCHIVE_BOMB: 422,
  ARCHIVE_SIZE_MISMATCH: 422,
  ARCHIVE_TOO_MANY_ENTRIES: 422,
  ARCHIVE_TOO_LARGE: 422,
  ARCHIVE_ENTRY_TOO_LARGE: 422,
  ARCHIVE_UNSUPPORTED: 422,
  ARCHIVE_CORRUPT: 422,
  URL_INVALID: 422,
  URL_SCHEME: 422,
  URL_PORT: 422,
  URL_USERINFO: 422,
  URL_QUERY_OR_FRAGMENT: 422,
  URL_PRIVATE_ADDRESS: 422,
  GIT_REDIRECT: 422,
  GIT_TOO_LARGE: 422,
  GIT_TREE_SYMLINK: 422,
  GIT_TREE_SUBMODULE: 422,
  GIT_TREE_UNSAFE_PATH: 422,
  INTAKE_DESTINATION_EXISTS: 409,
  // Intake faults: the source could not be reached or does not hold what was asked.
  ARCHIVE_NOT_FOUND: 404,
  GIT_REF_NOT_FOUND: 404,
  URL_RESOLVE_FAILED: 502,
  GIT_CLONE_FAILED: 502,
  GIT_TIMEOUT: 504,
  GIT_COMMAND_FAILED: 500,
  // The machine cannot do what was asked.
  SANDBOX_UNAVAILABLE: 503,
  APPLY_FAILED: 500,
  INTERNAL: 500,
} as const satisfies Record<string, number>;

export type AppErrorCode = keyof typeof appErrorCodes;

// A registry symbol, not `instanceof`: Next.js may bundle this module more than once in one
// process (instrumentation and each route), and an error thrown by one copy must still be known.
const appErrorBrand = Symbol.for('shadowbox.AppError');

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly [appErrorBrand] = true;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.details = options?.details;
  }

  readonly details: Record<string, unknown> | undefined;

  toJSON(): { code: AppErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isAppError(value: unknown): value is AppError {
  return typeof value === 'object' && value !== null && appErrorBrand in value;
}

export function httpStatusOf(code: AppErrorCode): number {
  return appErrorCodes[code];
}
