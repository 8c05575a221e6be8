import type { ErrorInfo } from '../errors/error-info';

/** The fields of the create form, by the names the server uses. */
export type CreateField =
  | 'gitUrl'
  | 'ref'
  | 'archive'
  | 'testCommand'
  | 'maxIterations'
  | 'hypothesesPerIteration'
  | 'maxMemoryMb'
  | 'maxPids'
  | 'maxDiskMb';

const fields: readonly CreateField[] = [
  'gitUrl',
  'ref',
  'archive',
  'testCommand',
  'maxIterations',
  'hypothesesPerIteration',
  'maxMemoryMb',
  'maxPids',
  'maxDiskMb',
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
  if (code === 'COMMAND_NOT_ALLOWED') return 'testCommand';
  const named = fields.find((field) => field === info.field);
  if (named !== undefined) return named;
  if (code === 'INVALID_ARGUMENT' && /\barchive\b/.test(info.message)) return 'archive';
  // The service names the cap it refuses first ("maxPids must be a whole number of …").
  const cap = fields.find(
    (field) => field.startsWith('max') && info.message.startsWith(`${field} `),
  );
  if (code === 'INVALID_ARGUMENT' && cap !== undefined) return cap;
  return null;
}
