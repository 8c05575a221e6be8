import { AppError } from '../../errors/app-error';
import { parseEgressEntry, type EgressAllowEntry } from '../egress';

/** The environment variable naming the team's own forges (see `parseGitAllow`). */
export const gitAllowVariable = 'SHADOWBOX_GIT_ALLOW';

/**
 * `SHADOWBOX_GIT_ALLOW`: the forges a Git URL may name beyond public https, a comma-separated
 * list in the egress allowlist's grammar, `[http://]host[:port][=local]`: the host (exactly; no
 * wildcards) on that port (443, or 80 after `http://`), over plain HTTP only after `http://`, on
 * a private address only with `=local` (never loopback, link-local or a metadata service). Unset
 * or empty: none. A malformed entry is refused, naming it.
 */
export function parseGitAllow(value: string | undefined): readonly EgressAllowEntry[] {
  const text = value?.trim() ?? '';
  if (text === '') return [];
  return text.split(',').map((raw, index) => {
    const entry = raw.trim();
    if (entry === '') {
      throw new AppError(
        'INVALID_ARGUMENT',
        `${gitAllowVariable}: entry ${index + 1} is empty (entries are separated by single commas)`,
      );
    }
    return parseEgressEntry(entry, gitAllowVariable);
  });
}
