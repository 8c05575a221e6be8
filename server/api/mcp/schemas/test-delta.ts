import { z } from 'zod';

const ids = (what: string) => z.array(z.string()).describe(what);

/**
 * A run against its reference (the baseline, or the checkpoint it builds on), test by test: the
 * engine's TestDelta, shown by `get_task` per hypothesis and by `shadow_run` per run.
 */
export const testDeltaSchema = z
  .looseObject({
    fixed: ids('failing at the reference, passing now'),
    broken: ids('passing at the reference (or new), failing now'),
    stillFailing: ids('failing at the reference and now'),
    missing: ids('ran at the reference, not now (deleted, deselected, newly skipped)'),
    added: ids('passing tests the reference did not have'),
    byId: z
      .boolean()
      .describe('false when a run named no tests: the lists are empty, counts come from totals'),
    counts: z.looseObject({
      fixed: z.int(),
      broken: z.int(),
      stillFailing: z.int(),
      missing: z.int(),
      added: z.int(),
    }),
  })
  .describe('the run against its reference, by test id');
