import { describe, expect, it } from 'vitest';
import type { ErrorInfo } from '../errors/error-info';
import { fieldOfError } from './form-errors';

const info = (appCode: string, message = 'refused', field: string | null = null): ErrorInfo => ({
  appCode,
  message,
  httpStatus: 422,
  field,
});

describe('fieldOfError', () => {
  it('puts intake policy rejections next to their source field', () => {
    expect(fieldOfError(info('URL_PRIVATE_ADDRESS'))).toBe('gitUrl');
    expect(fieldOfError(info('GIT_REDIRECT'))).toBe('gitUrl');
    expect(fieldOfError(info('GIT_REF_NOT_FOUND'))).toBe('ref');
    expect(fieldOfError(info('ARCHIVE_PATH_TRAVERSAL'))).toBe('archive');
    expect(fieldOfError(info('PAYLOAD_TOO_LARGE'))).toBe('archive');
  });

  it('puts a refused command and named input errors next to their field', () => {
    expect(fieldOfError(info('COMMAND_NOT_ALLOWED'))).toBe('testCommand');
    expect(fieldOfError(info('INVALID_ARGUMENT', 'maxIterations: too big', 'maxIterations'))).toBe(
      'maxIterations',
    );
    expect(fieldOfError(info('INVALID_ARGUMENT', 'the uploaded archive is empty'))).toBe('archive');
  });

  it('puts refused setup and build commands and bad known failures next to their fields', () => {
    const refused = (message: string) => fieldOfError(info('COMMAND_NOT_ALLOWED', message));
    expect(refused("setup command 2: 'curl' is not a setup tool")).toBe('setupCommands');
    expect(refused('build command: rm is not a build tool')).toBe('buildCommand');
    expect(refused('rm is not a test runner')).toBe('testCommand');
    const invalid = (message: string) => fieldOfError(info('INVALID_ARGUMENT', message));
    expect(invalid('setupCommands[0][1]: an argument may not be empty')).toBe('setupCommands');
    expect(invalid('knownFailures[3] must be a test id of 1 to 1000 printable characters')).toBe(
      'knownFailures',
    );
    expect(invalid('maxPids must be a whole number')).toBe('maxPids');
  });

  it("puts the service's refusals of a title, a problem and an issue link next to their fields", () => {
    const invalid = (message: string) => fieldOfError(info('INVALID_ARGUMENT', message));
    expect(invalid('title must be one line of printable text')).toBe('title');
    expect(invalid('problem may hold at most 65536 bytes (64 KB), got 70000')).toBe('problem');
    expect(invalid('issueUrl must be an https:// URL, got "http://x"')).toBe('issueUrl');
  });

  it('leaves anything else to the form', () => {
    expect(fieldOfError(info('INTERNAL', 'internal error'))).toBeNull();
    expect(fieldOfError({ ...info('FORBIDDEN'), appCode: null })).toBeNull();
  });
});
