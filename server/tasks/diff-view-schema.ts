import { z } from 'zod';
import type { DiffFlags } from '../engine/review';
import type { DiffView } from './task-api';

/**
 * The diff view (`GET /api/v1/tasks/{id}/diff`) and its flags, defined once: tRPC checks its output
 * with these, MCP derives `get_diff`'s output schema from them (with open objects). The engine's
 * `DiffFlags` and task-api.ts's `DiffView` are what the services return; the checks at the end
 * keep the schemas and those types in step. The descriptions are what MCP clients read.
 */

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const pathLine = z.object({ path: z.string(), line: z.int() });

/** DiffFlags: what a reviewer must not miss in the diff. */
export const diffFlagsSchema = z.object({
  files: z.int(),
  additions: z.int(),
  deletions: z.int(),
  bytes: z.int(),
  testFiles: list(z.string()),
  deletedTests: list(z.object({ path: z.string(), what: z.string() })),
  // Flags stored before this field existed have none: the page reads an empty list.
  disabledTests: list(pathLine.extend({ what: z.string() })).default([]),
  modeChanges: list(z.object({ path: z.string(), from: z.string(), to: z.string() })),
  binaryFiles: list(z.string()),
  symlinks: list(z.string()),
  hiddenCharacters: list(pathLine.extend({ codePoints: list(z.string()) })),
  // Flags stored before this field existed have none: the page reads an empty list.
  testEdits: list(
    z.object({
      path: z.string(),
      kind: z.enum(['test-file', 'test-config', 'test-in-source', 'test-framework']),
      what: z.string(),
      rule: z.string().optional(),
      line: z.int().optional(),
    }),
  ).default([]),
  large: z.boolean(),
});

/** DiffView: the stored diff under review. */
export const diffViewSchema = z.object({
  diff: z.string().describe('the exact stored bytes: a `git format-patch` mail'),
  sha256: z.string().describe('what a reviewer approves; it changes with any new run'),
  flags: diffFlagsSchema,
});

// Compiles only while the schemas and the types the services return agree, both ways (the
// schemas' input side: a defaulted field may be absent from what a service returns).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agrees<T extends true> = T;
export type DiffFlagsSchemaAgrees = Agrees<Same<z.input<typeof diffFlagsSchema>, DiffFlags>>;
export type DiffViewSchemaAgrees = Agrees<Same<z.input<typeof diffViewSchema>, DiffView>>;
