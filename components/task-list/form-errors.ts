import type { ErrorInfo } from '../errors/error-info';

/** The fields of the create form, by the names the server uses. */
export type CreateField =
  | 'gitUrl'
  | 'ref'
  | 'archive'
  | 'testCommand'
  | 'maxIterations'
  | 'hypothesesPerIteration'
  | 'hypothesisWaitSecs'
  | 'maxMemoryMb'
  | 'maxPids'
  | 'maxDiskMb'
  | 'maxInodes'
  | 'setupCommands'
  | 'buildCommand'
  | 'knownFailures'
  | 'title'
  | 'problem'
  | 'issueUrl';

const fields: readonly CreateField[] = [
  'gitUrl',
  'ref',
  'archive',
  'testCommand',
  'maxIterations',
  'hypothesesPerIteration',
  'hypothesisWaitSecs',
  'maxMemoryMb',
  'maxPids',
  'maxDiskMb',
  'maxInodes',
  'setupCommands',
  'buildCommand',
  'knownFailures',
  'title',
  'problem',
  'issueUrl',
];

/** The service's own words for the commands it refuses ("setup command 2: …"). */
const commandFields: readonly [RegExp, CreateField][] = [
  [/^setup command \d+\b/i, 'setupCommands'],
  [/^build command\b/i, 'buildCommand'],
];

/**
 * Which field a refusal of task creation belongs next to, so a policy rejection (a private
 * address, a zip-slip entry) is shown by the field that caused it; null: the form as a whole.
 */
export function fieldOfError(info: ErrorInfo): CreateField | null {
  const code = info.appCode ?? '';
  if (code === 'GIT_REF_NOT_FOUND') return 'ref';
  if (/^(?:URL_|GIT_)/.test(code)) return 'gitUrl';
  if (/^ARCHIVE_/.test(code) || code === 'PAYLOAD_TOO_LARGE') return 'archive';
  if (code === 'COMMAND_NOT_ALLOWED') {
    return commandFields.find(([pattern]) => pattern.test(info.message))?.[1] ?? 'testCommand';
  }
  const named = fields.find((field) => field === info.field);
  if (named !== undefined) return named;
  if (code !== 'INVALID_ARGUMENT') return null;
  // The service names the field it refuses first ("maxPids must be …", "knownFailures[3] must
  // …"), as do input paths the pattern of `info.field` stops at (`setupCommands[0][1]: …`).
  const leading = fields.find((field) => new RegExp(`^${field}\\b`).test(info.message));
  if (leading !== undefined) return leading;
  return /\barchive\b/.test(info.message) ? 'archive' : null;
}
