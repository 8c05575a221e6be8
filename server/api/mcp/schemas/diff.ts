import { z } from 'zod';

const located = z.looseObject({ path: z.string(), line: z.int() });

/** DiffFlags: what a reviewer must not miss in the diff. */
export const diffFlagsSchema = z.looseObject({
  files: z.int(),
  additions: z.int(),
  deletions: z.int(),
  bytes: z.int(),
  testFiles: z.array(z.string()),
  deletedTests: z.array(z.looseObject({ path: z.string(), what: z.string() })),
  disabledTests: z.array(located.extend({ what: z.string() })).optional(),
  modeChanges: z.array(z.looseObject({ path: z.string(), from: z.string(), to: z.string() })),
  binaryFiles: z.array(z.string()),
  symlinks: z.array(z.string()),
  hiddenCharacters: z.array(located.extend({ codePoints: z.array(z.string()) })),
  large: z.boolean(),
});

/** DiffView: the stored diff under review. */
export const diffViewSchema = z.looseObject({
  diff: z.string().describe('the exact stored bytes: a `git format-patch` mail'),
  sha256: z.string().describe('what a reviewer approves; it changes with any new run'),
  flags: diffFlagsSchema,
});
