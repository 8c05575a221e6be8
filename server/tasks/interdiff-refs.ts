import { z } from 'zod';

/*
 * What an interdiff compares: two trees of one task, each named by a ref.
 *
 *   checkpoint:<n>           the task's tree after iteration n (0: the baseline). An iteration
 *                            without a winner leaves the checkpoint before it.
 *   hypothesis:<n>/<name>    the tree hypothesis <name> of iteration n made: the checkpoint it
 *                            ran on (checkpoint:<n-1>) with its edits applied.
 *   hypothesis:<id>          the same, by the hypothesis' id.
 *
 * Names may hold any character, '/' included: the iteration ends at the first '/'.
 */

export type InterdiffRef =
  | { readonly kind: 'checkpoint'; readonly iteration: number }
  | { readonly kind: 'hypothesis'; readonly iteration: number; readonly name: string }
  | { readonly kind: 'hypothesis-id'; readonly id: string };

/** The ref grammar, for messages (and the REST contract). */
export const refGrammar =
  'checkpoint:<iteration>, hypothesis:<iteration>/<name> or hypothesis:<id>';

const checkpointRef = /^checkpoint:(\d{1,6})$/;
const namedRef = /^hypothesis:(\d{1,6})\/(.{1,200})$/s;
const idRef = /^hypothesis:([a-z0-9]{20,40})$/;

/** A ref's text as the grammar reads it, or null when it is none. Pure. */
export function parseRef(text: string): InterdiffRef | null {
  const checkpoint = checkpointRef.exec(text);
  if (checkpoint !== null) return { kind: 'checkpoint', iteration: Number(checkpoint[1]) };
  const named = namedRef.exec(text);
  if (named?.[2] !== undefined) {
    // Iteration 0 is the baseline: no hypothesis ran there.
    const iteration = Number(named[1]);
    return iteration === 0 ? null : { kind: 'hypothesis', iteration, name: named[2] };
  }
  const id = idRef.exec(text)?.[1];
  return id === undefined ? null : { kind: 'hypothesis-id', id };
}

/** The ref as written back (messages name refs as the caller wrote them). */
export function formatRef(ref: InterdiffRef): string {
  switch (ref.kind) {
    case 'checkpoint':
      return `checkpoint:${ref.iteration}`;
    case 'hypothesis':
      return `hypothesis:${ref.iteration}/${ref.name}`;
    case 'hypothesis-id':
      return `hypothesis:${ref.id}`;
  }
}

/** One ref, checked: a malformed one is refused naming it and the grammar. */
export const interdiffRefSchema = z
  .string({ error: `give a ref: ${refGrammar}` })
  .max(300, 'a ref is at most 300 characters')
  .transform((text, ctx): InterdiffRef => {
    const ref = parseRef(text);
    if (ref === null) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(text.slice(0, 80))} is not a ref: use ${refGrammar}`,
      });
      return z.NEVER;
    }
    return ref;
  });

/** `?a=…&b=…`: the two sides, A the old one and B the new one of the diff. */
export const interdiffQuerySchema = z.strictObject({
  a: interdiffRefSchema,
  b: interdiffRefSchema,
});

export type InterdiffQuery = z.output<typeof interdiffQuerySchema>;

/** One file either side touches, whether or not the two trees differ in it. */
export const interdiffFileSchema = z.object({
  path: z.string(),
  /** Touched by A's own edits (a hypothesis' edits; a checkpoint's winner's). */
  inA: z.boolean(),
  inB: z.boolean(),
  /** How the file differs from A to B; `same` when both sides leave it alike. */
  change: z.enum(['added', 'deleted', 'modified', 'same']),
});

export const interdiffViewSchema = z.object({
  a: z.string().describe('the old side, as a ref'),
  b: z.string().describe('the new side, as a ref'),
  /** The unified git diff from A's tree to B's (git's exact bytes, as text). */
  diff: z.string(),
  /** The union of the files either side touches, and every file the diff names. */
  files: z.array(interdiffFileSchema).readonly(),
});

export type InterdiffView = z.infer<typeof interdiffViewSchema>;
export type InterdiffFile = z.infer<typeof interdiffFileSchema>;
