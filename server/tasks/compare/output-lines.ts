/**
 * The lines of a run's kept output that are about one test: each line naming it and the lines
 * after it (a failure's message and stack usually follow its name), up to the next line naming
 * it again or the block's end. The parsers keep no per-test output, but the kept output tail
 * keeps failing tests' error blocks (process/output-tail.ts), so this finds them there.
 */

export const maxLines = 40;
export const maxBytes = 4096;
const linesAfter = 12;
/** Shorter leaf names ("it", "ok", "test") would match unrelated lines. */
const minLeafLength = 4;

/** The test's own name: the last part of an id like `a/b.py::Cls::test_x` or `file › d › t`. */
export function leafName(testId: string): string {
  const parts = testId.split(/::| › | > |#|\//);
  const last = parts.at(-1) ?? testId;
  // `pkg.Class.method` (JUnit) and `TestX/sub` (go) name the test last too.
  return /\s/.test(last) ? last : (last.split('.').at(-1) ?? last);
}

export interface OutputLines {
  readonly lines: string[];
  readonly truncated: boolean;
  /** How the lines were found: by the whole id, by its leaf name, or not at all. */
  readonly matchedBy: 'id' | 'name' | null;
}

export function outputLinesFor(output: string, testId: string): OutputLines {
  const all = output.split('\n');
  const byId = starts(all, testId);
  const leaf = leafName(testId);
  const byName = byId.length === 0 && leaf.length >= minLeafLength ? starts(all, leaf) : [];
  const hits = byId.length > 0 ? byId : byName;
  if (hits.length === 0) return { lines: [], truncated: false, matchedBy: null };
  const keep = new Set<number>();
  for (const start of hits) {
    for (let i = start; i < Math.min(all.length, start + 1 + linesAfter); i += 1) {
      if (i > start && (all[i] ?? '').trim() === '') break;
      keep.add(i);
    }
  }
  const lines: string[] = [];
  let bytes = 0;
  let truncated = false;
  for (const i of [...keep].sort((a, b) => a - b)) {
    const line = all[i] ?? '';
    if (lines.length >= maxLines || bytes + line.length + 1 > maxBytes) {
      truncated = true;
      break;
    }
    lines.push(line);
    bytes += line.length + 1;
  }
  return { lines, truncated, matchedBy: byId.length > 0 ? 'id' : 'name' };
}

function starts(lines: readonly string[], needle: string): number[] {
  const hits: number[] = [];
  lines.forEach((line, i) => {
    if (line.includes(needle)) hits.push(i);
  });
  return hits;
}
