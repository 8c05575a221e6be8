import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, appErrorCodes, type AppErrorCode } from '../../errors/app-error';
import { describeError, trpcCodeOf } from './error-shape';

describe('describeError', () => {
  it('maps every AppError code through one table, by its HTTP status', () => {
    const expected: Record<number, string> = {
      400: 'BAD_REQUEST',
      401: 'UNAUTHORIZED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      409: 'CONFLICT',
      413: 'PAYLOAD_TOO_LARGE',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      422: 'UNPROCESSABLE_CONTENT',
    };
    for (const [code, status] of Object.entries(appErrorCodes) as [AppErrorCode, number][]) {
      expect(trpcCodeOf(code), code).toBe(expected[status] ?? 'INTERNAL_SERVER_ERROR');
    }
  });

  it('passes an AppError message through, also for a 5xx', () => {
    const stale = new AppError('STALE_DIFF', 'the diff changed');
    expect(describeError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: stale }))).toEqual({
      code: 'CONFLICT',
      httpStatus: 409,
      appCode: 'STALE_DIFF',
      message: 'the diff changed',
    });
    const clone = new AppError('GIT_CLONE_FAILED', 'could not clone: host unreachable');
    expect(describeError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: clone }))).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      httpStatus: 500,
      appCode: 'GIT_CLONE_FAILED',
      message: 'could not clone: host unreachable',
    });
  });

  it('turns a validation failure into INVALID_ARGUMENT naming the field', () => {
    const result = z.object({ gitUrl: z.string().min(1, 'give a Git URL') }).safeParse({
      gitUrl: '',
    });
    const error = new TRPCError({ code: 'BAD_REQUEST', cause: result.error });
    expect(describeError(error)).toMatchObject({
      code: 'BAD_REQUEST',
      appCode: 'INVALID_ARGUMENT',
      message: 'gitUrl: give a Git URL',
    });
  });

  it('says only "internal error" for anything else', () => {
    const error = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      cause: new Error('ENOENT /data/secret'),
    });
    expect(describeError(error)).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      httpStatus: 500,
      appCode: 'INTERNAL',
      message: 'internal error',
    });
  });
});
