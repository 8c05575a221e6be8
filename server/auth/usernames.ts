import { AppError } from '../errors/app-error';

/** Lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit; 2–32 long. */
export const usernamePattern = /^[a-z0-9][a-z0-9._-]{1,31}$/;

export function normaliseUsername(name: string): string {
  return name.trim().toLowerCase();
}

/** The normalised username, or INVALID_ARGUMENT naming what is wrong with it. */
export function parseUsername(name: string): string {
  const normal = normaliseUsername(name);
  if (!usernamePattern.test(normal)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `invalid username ${JSON.stringify(name)}: use 2 to 32 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return normal;
}

/** better-auth wants an email; people made here get one that can never receive mail (RFC 2606). */
export function placeholderEmail(username: string): string {
  return `${username}@users.shadowbox.invalid`;
}
