import { AppError } from '../../errors/app-error';

/** `?squash=1|true|0|false` (absent: one commit per checkpoint); anything else is refused. */
export function squashOf(request: Request): boolean {
  const value = new URL(request.url).searchParams.get('squash');
  if (value === null || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new AppError(
    'INVALID_ARGUMENT',
    `squash must be 1, true, 0 or false, got ${JSON.stringify(value.slice(0, 20))}`,
  );
}
