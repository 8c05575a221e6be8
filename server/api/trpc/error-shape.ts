import type { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { type AppErrorCode, httpStatusOf, isAppError } from '../../errors/app-error';
import { invalidInput } from '../http/validation';

/** The one table from an AppError's HTTP status to a tRPC code; every 5xx is INTERNAL_SERVER_ERROR. */
const trpcCodeByStatus: Readonly<Record<number, TRPC_ERROR_CODE_KEY>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
};

export function trpcCodeOf(code: AppErrorCode): TRPC_ERROR_CODE_KEY {
  return trpcCodeByStatus[httpStatusOf(code)] ?? 'INTERNAL_SERVER_ERROR';
}

/** What the UI gets to know about a failed call. */
export interface UiError {
  readonly code: TRPC_ERROR_CODE_KEY;
  readonly httpStatus: number;
  /** The AppError code the client switches on (STALE_DIFF, URL_PRIVATE_ADDRESS, …). */
  readonly appCode: AppErrorCode;
  readonly message: string;
}

const internal: UiError = {
  code: 'INTERNAL_SERVER_ERROR',
  httpStatus: 500,
  appCode: 'INTERNAL',
  message: 'internal error',
};

/**
 * Turns whatever a procedure failed with into what the client sees. An AppError keeps its code and
 * message; bad input is an INVALID_ARGUMENT that names the fields; tRPC's own refusals (unknown
 * procedure, wrong method) keep their message; anything else is a bug or a fault and says only
 * "internal error".
 */
export function describeError(error: TRPCError): UiError {
  const { cause } = error;
  if (isAppError(cause)) {
    const code = trpcCodeOf(cause.code);
    return {
      code,
      httpStatus: code === 'INTERNAL_SERVER_ERROR' ? 500 : httpStatusOf(cause.code),
      appCode: cause.code,
      message: cause.message,
    };
  }
  if (error.code === 'BAD_REQUEST' && hasIssues(cause)) {
    return {
      code: 'BAD_REQUEST',
      httpStatus: 400,
      appCode: 'INVALID_ARGUMENT',
      message: invalidInput(cause.issues, 'input').message,
    };
  }
  const httpStatus = getHTTPStatusCodeFromError(error);
  if (httpStatus >= 500) return internal;
  return {
    code: error.code,
    httpStatus,
    appCode: httpStatus === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT',
    message: error.message,
  };
}

type Issues = Parameters<typeof invalidInput>[0];

function hasIssues(value: unknown): value is { issues: Issues } {
  return (
    typeof value === 'object' && value !== null && 'issues' in value && Array.isArray(value.issues)
  );
}
