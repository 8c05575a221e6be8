import { z } from 'zod';

/** A candidate fix: the complete new contents of the files it changes, and the files it deletes. */
export interface Hypothesis {
  readonly name: string;
  readonly edits: readonly HypothesisEdit[];
  readonly delete: readonly string[];
}

export interface HypothesisEdit {
  /** Workspace-relative, '/'-separated. */
  readonly path: string;
  readonly content: string;
}

/** What a file was before a hypothesis touched it, read once when the hypothesis is prepared. */
export type FileState =
  | { readonly exists: false }
  | {
      readonly exists: true;
      readonly content: Buffer;
      readonly mode: number;
    };

export interface PreparedChange {
  readonly path: string;
  readonly before: FileState;
  /** null for a deletion. */
  readonly after: Buffer | null;
}

export interface PreparedHypothesis {
  readonly name: string;
  /** Position in the request: the last tie-breaker of the ranking. */
  readonly index: number;
  readonly changes: readonly PreparedChange[];
  readonly changedLines: number;
  /** Unified diff against the workspace, in git's format. */
  readonly diff: string;
}

const maxFileBytes = 8 * 1024 * 1024;

export const hypothesisSchema = z
  .object({
    name: z.string().min(1, 'a hypothesis needs a name').max(200),
    edits: z
      .array(
        z
          .object({
            path: z.string().min(1),
            content: z.string().max(maxFileBytes, `a file may hold at most ${maxFileBytes} bytes`),
          })
          .strict(),
      )
      .max(1000)
      .default([]),
    delete: z.array(z.string().min(1)).max(1000).default([]),
  })
  .strict();

export const shadowSpecSchema = z
  .object({ hypotheses: z.array(hypothesisSchema).min(1, 'the spec holds no hypotheses').max(64) })
  .strict();

export type ShadowSpec = z.infer<typeof shadowSpecSchema>;
