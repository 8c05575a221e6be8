import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { shadowSpecSchema, type ShadowSpec } from '../../engine/shadow';

// The CLI also takes edits from files next to the spec; the engine's schema knows only contents.
const cliSpecSchema = z.object({
  hypotheses: z.array(
    z.looseObject({
      edits: z
        .array(
          z.union([
            z.strictObject({ path: z.string(), content: z.string() }),
            z.strictObject({ path: z.string(), file: z.string() }),
          ]),
        )
        .optional(),
    }),
  ),
});

/**
 * Reads a shadow-run spec file. Besides the engine's shape, an edit may name a `file` (relative to
 * the spec) whose contents become the edit's content, so agents need not escape source into JSON.
 */
export async function loadSpec(specPath: string): Promise<ShadowSpec> {
  const text = await readFile(specPath, 'utf8').catch((error: unknown) => {
    throw new AppError(
      'INVALID_ARGUMENT',
      `cannot read the spec '${specPath}': ${(error as Error).message}`,
    );
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `the spec '${specPath}' is not valid JSON: ${(error as Error).message}`,
    );
  }
  const loose = cliSpecSchema.safeParse(json);
  if (loose.success) {
    for (const hypothesis of loose.data.hypotheses) {
      for (const [i, edit] of (hypothesis.edits ?? []).entries()) {
        if (!('file' in edit)) continue;
        const source = path.resolve(path.dirname(specPath), edit.file);
        const content = await readFile(source, 'utf8').catch(() => {
          throw new AppError(
            'INVALID_ARGUMENT',
            `the spec's edit of '${edit.path}' names a file '${edit.file}' that cannot be read`,
          );
        });
        (hypothesis.edits ?? [])[i] = { path: edit.path, content };
      }
    }
    json = loose.data;
  }
  const parsed = shadowSpecSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new AppError(
      'INVALID_ARGUMENT',
      `the spec '${specPath}' is invalid${where}: ${issue?.message ?? 'unknown problem'}`,
    );
  }
  return parsed.data;
}
