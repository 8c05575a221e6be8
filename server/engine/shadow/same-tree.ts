import { createHash } from 'node:crypto';
import type { PreparedChange } from './hypothesis';

/**
 * Hypotheses that leave the workspace as the same tree run once (K samples of a model often
 * agree). Two hypotheses are the same tree when their *effective* changes are equal, after this
 * normalisation:
 *
 * - the order of edits and deletions does not matter (changes are taken in path order, by bytes);
 * - an edit that writes a file's current bytes changes nothing and is left out (so a hypothesis
 *   that only rewrites files as they are is the same tree as the baseline, no edits at all);
 * - everything else is compared exactly: paths byte for byte (case, Unicode normal form: the file
 *   system and the tests see them as different names) and contents byte for byte (line endings,
 *   trailing whitespace and a final newline can change what a test sees);
 * - a deletion is a deletion (deleting a missing file is refused before this, and so is a path
 *   named twice in one hypothesis or a path that is not normalised, see `checkHypothesisPaths`);
 * - names, authors and order in the request play no part.
 *
 * A file's mode is not part of it: an edit keeps the mode the file has, and a new file is 0644.
 * Everything else a run depends on (command, environment, caps) is the same for every hypothesis
 * of one run, so the same tree means the same run.
 */
export function treeKey(changes: readonly PreparedChange[]): string {
  const effective = changes
    .filter((c) => !(c.after !== null && c.before.exists && c.before.content.equals(c.after)))
    .sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const hash = createHash('sha256');
  for (const change of effective) {
    // Length-prefixed fields: no path or content can be read as the start of another change.
    const pathBytes = Buffer.from(change.path);
    hash.update(`${pathBytes.length}:`).update(pathBytes);
    if (change.after === null) hash.update('D');
    else hash.update(`W${change.after.length}:`).update(change.after);
  }
  return hash.digest('hex');
}

/** One hypothesis, as the grouping sees it: its name and its tree. */
export interface TreeMember {
  readonly name: string;
  readonly key: string;
}

/**
 * For each hypothesis, the name of the earlier one (in the given order) whose tree it shares, or
 * null for the first of its tree: only those run, the others take their outcome.
 */
export function sameTreeAs(members: readonly TreeMember[]): (string | null)[] {
  const first = new Map<string, string>();
  return members.map((m) => {
    const earlier = first.get(m.key);
    if (earlier !== undefined) return earlier;
    first.set(m.key, m.name);
    return null;
  });
}
