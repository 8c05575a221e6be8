import { AppError, type AppErrorCode } from '../../errors/app-error';
import type { EventSink } from '../ports';
import type { IntakeEvent } from './intake-events';

/**
 * Intake returns its expected outcomes as values: success, or a rejection/fault carrying the one
 * AppError. Only bugs and host faults (disk full, git missing) are thrown.
 */
export type IntakeResult<T> =
  ({ readonly ok: true } & T) | { readonly ok: false; readonly error: AppError };

/** Thrown inside intake to unwind to the orchestrator, which turns it into `{ ok: false }`. */
export class IntakeRejection extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

export function reject(
  code: AppErrorCode,
  message: string,
  details?: Record<string, unknown>,
): IntakeRejection {
  return new IntakeRejection(new AppError(code, message, details === undefined ? {} : { details }));
}

/** Converts what escaped an intake step into a result, rethrowing anything that is not a rejection. */
export function asRejectedResult(error: unknown): { readonly ok: false; readonly error: AppError } {
  if (error instanceof IntakeRejection) return { ok: false, error: error.error };
  throw error;
}

/** `asRejectedResult`, also reporting the rejection as an `intake.rejected` event. */
export function reportRejection(
  error: unknown,
  events: EventSink<IntakeEvent>,
): { readonly ok: false; readonly error: AppError } {
  const rejected = asRejectedResult(error);
  events.emit({
    type: 'intake.rejected',
    code: rejected.error.code,
    message: rejected.error.message,
  });
  return rejected;
}
