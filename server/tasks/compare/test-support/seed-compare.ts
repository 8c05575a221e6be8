import type { Db } from '../../../db/client';
import type { RunSummary } from '../../../engine/loop';
import type { TestCase } from '../../../engine/parsers';
import type { HypothesisResult } from '../../../engine/shadow';
import { compareTests } from '../../../engine/shadow/test-delta';
import { PrismaTaskStore } from '../../prisma-task-store';
import { TaskEventBus } from '../../task-event-bus';

/** One hypothesis's run: its tests, a build that failed, or a runner that printed totals only. */
export type SeedRun =
  | { readonly cases: readonly TestCase[] }
  | { readonly buildFailed: true }
  | { readonly totals: { passed: number; failed: number; skipped: number } };

export interface SeedHypothesis {
  readonly name: string;
  readonly run: SeedRun;
  readonly author?: string;
}

const command = ['pytest', '-q'];

function summary(run: SeedRun, reference: RunSummary | null): RunSummary {
  const cases = 'cases' in run ? run.cases : [];
  const tally = (status: TestCase['status']) => cases.filter((c) => c.status === status).length;
  const counts =
    'totals' in run
      ? run.totals
      : { passed: tally('passed'), failed: tally('failed'), skipped: tally('skipped') };
  const buildFailed = 'buildFailed' in run;
  const evidence = { ...counts, parsed: true, buildFailed, cases };
  return {
    exitCode: counts.failed > 0 || buildFailed ? 1 : 0,
    signal: null,
    timedOut: false,
    durationMs: 1000 + cases.length,
    ...evidence,
    tests: reference === null ? null : compareTests(reference, evidence),
    disqualified: counts.failed > 0 || buildFailed ? 'tests fail' : null,
    outputTail: cases
      .filter((c) => c.status === 'failed')
      .slice(0, 50)
      .map((c) => `FAILED ${c.id} - AssertionError`)
      .join('\n'),
    error: null,
    readAs: 'cases' in run ? 'by test id, from a JUnit report' : 'by totals only',
    green: counts.failed === 0 && !buildFailed,
  };
}

/**
 * A task with a baseline and iterations of hypotheses, recorded through the task loop's own store
 * (PrismaTaskStore: the rows and `cases` exactly as a real run leaves them). Each iteration's
 * first hypothesis wins; every run is judged against the baseline.
 */
export async function seedCompareTask(
  db: Db,
  input: {
    readonly ownerId?: string | null;
    readonly baseline: readonly TestCase[];
    readonly iterations: readonly (readonly SeedHypothesis[])[];
  },
): Promise<string> {
  const store = new PrismaTaskStore(db, new TaskEventBus());
  const task = await db.task.create({
    data: {
      status: 'baseline',
      sourceKind: 'archive',
      archiveName: 'seed.tar',
      title: 'seeded for compare',
      testCommand: command,
      ownerId: input.ownerId ?? null,
    },
  });
  const baseline = summary({ cases: input.baseline }, null);
  await store.recordBaseline(task.id, command, 'overlay', baseline);
  for (const [i, hypotheses] of input.iterations.entries()) {
    const index = i + 1;
    await store.beginIteration(task.id, index);
    await store.takeHypotheses(
      task.id,
      index,
      hypotheses.map((h) => ({
        hypothesis: { name: h.name, edits: [], delete: [] },
        origin: 'external',
        author: h.author ?? 'alice',
        submittedAt: new Date(),
      })),
    );
    const results: HypothesisResult[] = hypotheses.map((h, rank) => {
      const { green: _green, ...run } = summary(h.run, baseline);
      return { ...run, name: h.name, changedLines: 3 + rank, rank: rank + 1 };
    });
    const winner = hypotheses[0]?.name ?? null;
    await store.recordIteration(task.id, {
      index,
      report: { mode: 'overlay', winner, winnerDiff: null, hypotheses: results, applied: true },
      command,
      checkpointSha: null,
      green: false,
      rejected: [],
    });
  }
  return task.id;
}
