import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { errorInfo, httpErrorOf } from './error-info';

describe('errorInfo', () => {
  it('reads the message and AppError code of a tRPC error', () => {
    const error = TRPCClientError.from({
      error: {
        code: -32009,
        message: 'the diff changed since it was shown; review the current one',
        data: { code: 'CONFLICT', httpStatus: 409, appCode: 'STALE_DIFF', path: 'tasks.review' },
      },
    });
    expect(errorInfo(error)).toEqual({
      message: 'the diff changed since it was shown; review the current one',
      appCode: 'STALE_DIFF',
      httpStatus: 409,
      field: null,
    });
  });

  it('names the field of an input error', () => {
    const error = TRPCClientError.from({
      error: {
        code: -32600,
        message: 'testCommand[0]: an argument may not be empty',
        data: { code: 'BAD_REQUEST', httpStatus: 400, appCode: 'INVALID_ARGUMENT' },
      },
    });
    expect(errorInfo(error).field).toBe('testCommand');
  });

  it('says when the server could not be reached', () => {
    const error = TRPCClientError.from(new TypeError('Failed to fetch'));
    expect(errorInfo(error).message).toBe('the server could not be reached (Failed to fetch)');
    expect(errorInfo(error).appCode).toBeNull();
  });

  it('reads the {error:{code,message,details}} body of the upload endpoint', () => {
    const body = JSON.stringify({
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'hypothesesPerIteration: Too big',
        details: { issues: [{ path: 'hypothesesPerIteration', code: 'too_big' }] },
      },
    });
    expect(errorInfo(httpErrorOf(400, body))).toEqual({
      message: 'hypothesesPerIteration: Too big',
      appCode: 'INVALID_ARGUMENT',
      httpStatus: 400,
      field: 'hypothesesPerIteration',
    });
    const zipSlip = httpErrorOf(
      422,
      '{"error":{"code":"ARCHIVE_PATH_TRAVERSAL","message":"entry rejected: name contains a `..` segment","details":{"entry":"../evil.txt"}}}',
    );
    expect(errorInfo(zipSlip)).toMatchObject({
      appCode: 'ARCHIVE_PATH_TRAVERSAL',
      message: 'entry rejected: name contains a `..` segment (entry "../evil.txt")',
    });
    expect(errorInfo(httpErrorOf(502, '<html>Bad gateway</html>')).message).toBe(
      'the server answered 502',
    );
  });

  it('falls back to a plain message', () => {
    expect(errorInfo(new Error('boom')).message).toBe('boom');
    expect(errorInfo('what').message).toBe('something went wrong');
  });
});
