import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../trpc/router-types';

/** What the UI shows of a failure: the server's message, and the code it switches on. */
export interface ErrorInfo {
  readonly message: string;
  /** The server's AppError code (STALE_DIFF, URL_PRIVATE_ADDRESS, …), when it gave one. */
  readonly appCode: string | null;
  readonly httpStatus: number | null;
  /** For INVALID_ARGUMENT: the first field the server named (`testCommand`, `gitUrl`, …). */
  readonly field: string | null;
}

/** A refusal of a plain HTTP endpoint (the archive upload): its `{error:{…}}` body. */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof HttpError) return error.info;
  if (error instanceof TRPCClientError) {
    const { data } = error as TRPCClientError<AppRouter>;
    if (data === undefined || data === null) {
      return { ...unknown, message: `the server could not be reached (${error.message})` };
    }
    return {
      message: error.message,
      appCode: data.appCode,
      httpStatus: data.httpStatus,
      field: fieldNamed(error.message),
    };
  }
  if (error instanceof Error) return { ...unknown, message: error.message };
  return unknown;
}

const unknown: ErrorInfo = {
  message: 'something went wrong',
  appCode: null,
  httpStatus: null,
  field: null,
};

/** Input errors read `field: problem; other: problem` (server/api/http/validation.ts). */
function fieldNamed(message: string): string | null {
  return /^([A-Za-z]+)(?:\[\d+\])?(?:\.[\w.[\]]+)?: /.exec(message)?.[1] ?? null;
}

/** Reads the answer of a plain HTTP endpoint that failed. */
export function httpErrorOf(status: number, body: string): HttpError {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    // not JSON: a proxy's or Next's own error page
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) {
    return new HttpError({
      ...unknown,
      message: `the server answered ${status}`,
      httpStatus: status,
    });
  }
  const { code, message, details } = error as {
    code?: unknown;
    message?: unknown;
    details?: { issues?: { path?: unknown }[]; entry?: unknown };
  };
  const base = typeof message === 'string' ? message : `the server answered ${status}`;
  // An archive refusal names the entry it refused in its details.
  const entry = details?.entry;
  const text = typeof entry === 'string' ? `${base} (entry ${JSON.stringify(entry)})` : base;
  const path = details?.issues?.[0]?.path;
  return new HttpError({
    message: text,
    appCode: typeof code === 'string' ? code : null,
    httpStatus: status,
    field: typeof path === 'string' && path !== '' ? path : fieldNamed(text),
  });
}
