import { z } from 'zod';
import { AppError } from '../errors/app-error';

// One eval instance: a bug the repository's own history fixed, in the SWE-bench instance format
// (same field names where they exist), so a set mined here and a public set in that format run
// alike. Shadowbox adds what SWE-bench leaves to its per-repository harness: the test command.

/** SWE-bench keeps test id lists as JSON-encoded strings; sets written here keep arrays. Both read. */
const testIds = z.unknown().transform((value, context) => {
  let ids = value;
  if (typeof value === 'string') {
    try {
      ids = JSON.parse(value);
    } catch {
      ids = null;
    }
  }
  if (Array.isArray(ids) && ids.every((id) => typeof id === 'string' && id !== '')) {
    return ids as string[];
  }
  context.addIssue({ code: 'custom', message: 'is neither a list of test ids nor its JSON' });
  return z.NEVER;
});

export const evalInstanceSchema = z.object({
  /** `<repo name>__<short base sha>-<short fix sha>` for mined sets; any unique string. */
  instance_id: z.string().min(1).max(200),
  /** The repository: a Git URL, or an absolute path to a local repository. */
  repo: z.string().min(1),
  /** The fix's parent: the tree a fixer starts from (with `test_patch` applied). */
  base_commit: z.string().regex(/^[0-9a-f]{40}$/, 'is not a 40-hex commit'),
  /** The reference fix (the commit's non-test changes): never shown to a fixer. */
  patch: z.string(),
  /** The commit's test changes, applied to the base before any run. */
  test_patch: z.string(),
  /** What the fixer is told: the fix commit's message. */
  problem_statement: z.string(),
  hints_text: z.string().default(''),
  created_at: z.string().default(''),
  FAIL_TO_PASS: testIds,
  PASS_TO_PASS: testIds,
  /** Shadowbox's addition: the test command (argv) whose ids FAIL_TO_PASS/PASS_TO_PASS name. */
  test_command: z.array(z.string().min(1)).min(1).optional(),
});

export type EvalInstance = z.infer<typeof evalInstanceSchema>;

/**
 * Parses a set (JSON Lines, one instance per line; blank lines skipped). Refuses the whole set
 * on the first bad line, naming its number and field, and on a repeated instance id.
 */
export function parseEvalSet(text: string, source = 'the set'): EvalInstance[] {
  const instances: EvalInstance[] = [];
  const seen = new Set<string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const where = `${source}, line ${String(index + 1)}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new AppError('INVALID_ARGUMENT', `${where} is not JSON: ${(error as Error).message}`);
    }
    const parsed = evalInstanceSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'the instance';
      throw new AppError(
        'INVALID_ARGUMENT',
        `${where}: ${field} ${issue?.message ?? 'is invalid'}`,
      );
    }
    if (seen.has(parsed.data.instance_id)) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `${where}: instance_id '${parsed.data.instance_id}' appears twice`,
      );
    }
    seen.add(parsed.data.instance_id);
    instances.push(parsed.data);
  }
  return instances;
}

/** One instance as a line of a set, keys in the schema's order. */
export function formatEvalInstance(instance: EvalInstance): string {
  return JSON.stringify(evalInstanceSchema.parse(instance));
}
