import type { Db } from '../../db/client';
import type { TestDelta } from '../../engine/shadow';
import { AppError } from '../../errors/app-error';
import { requireTask } from '../task-access';
import type { Actor } from '../task-api';
import { buildMatrix, type MatrixColumn } from './compare-matrix';
import type { CompareMatrix } from './compare-schema';
import { readColumn, type StoredRun } from './column-tests';

const runSelect = {
  id: true,
  kind: true,
  createdAt: true,
  durationMs: true,
  passed: true,
  failed: true,
  skipped: true,
  parsed: true,
  buildFailed: true,
  error: true,
  cases: true,
  tests: true,
  readAs: true,
} as const;

type RunRow = StoredRun & {
  readonly id: string;
  readonly createdAt: Date;
  readonly durationMs: number;
  readonly readAs: string | null;
};

/** A reference a hypothesis run may have been judged against: the baseline or a winner. */
interface ReferenceRow extends RunRow {
  /** 0 for the baseline. */
  readonly iteration: number;
}

/**
 * The compare matrix of one iteration (1-based) or, with `iteration` undefined, of the whole task:
 * the baseline, then each hypothesis (by iteration, then rank, then submission). NOT_FOUND unless
 * the actor sees the task, or when the iteration does not exist.
 */
export async function compareTask(
  deps: { readonly db: Db },
  input: {
    readonly taskId: string;
    readonly iteration: number | undefined;
    readonly actor: Actor;
  },
): Promise<CompareMatrix> {
  const { db } = deps;
  const { taskId, iteration } = input;
  await requireTask(db, taskId, input.actor, 'see');
  const [iterations, count, baseline] = await Promise.all([
    db.iteration.findMany({
      where: { taskId, ...(iteration === undefined ? {} : { index: iteration }) },
      orderBy: { index: 'asc' },
      select: {
        index: true,
        promotedBy: true,
        promotionReason: true,
        passedOver: true,
        hypotheses: {
          orderBy: { createdAt: 'asc' },
          select: {
            name: true,
            origin: true,
            author: true,
            rank: true,
            verdict: true,
            changedLines: true,
            error: true,
            sameTreeAs: true,
            runs: { orderBy: { createdAt: 'desc' }, take: 1, select: runSelect },
          },
        },
      },
    }),
    db.iteration.count({ where: { taskId } }),
    db.run.findFirst({
      where: { taskId, kind: 'baseline' },
      orderBy: { createdAt: 'desc' },
      select: runSelect,
    }),
  ]);
  if (iteration !== undefined && iterations.length === 0) {
    throw new AppError('NOT_FOUND', `task ${taskId} has no iteration ${iteration}`);
  }
  const hypotheses = iterations.flatMap((it) =>
    [...it.hypotheses]
      .sort((a, b) => (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER))
      .map((h) => ({
        ...h,
        iteration: it.index,
        run: h.runs[0] ?? null,
        promotion: promotionNote(it, h),
      })),
  );
  // Only runs recorded before every hypothesis run kept its tests need their references.
  const references = hypotheses.some((h) => h.run !== null && h.run.cases === null)
    ? await referenceRuns(db, taskId)
    : [];

  const columns: MatrixColumn[] = [baselineColumn(baseline)];
  for (const h of hypotheses) {
    const run = h.run;
    const read = readColumn(run, run === null ? null : referenceOf(references, run, h.iteration));
    const delta = (run?.tests ?? null) as TestDelta | null;
    const notes = [
      h.promotion,
      h.sameTreeAs === null ? null : `the same tree as ${h.sameTreeAs}: it ran once`,
      run === null ? (h.error ?? (h.verdict === 'pending' ? 'waiting to run' : null)) : null,
      read.note,
    ].filter((n): n is string => n !== null);
    columns.push({
      header: {
        name: h.name,
        kind: 'hypothesis',
        iteration: h.iteration,
        runId: run?.id ?? null,
        verdict: h.verdict,
        rank: h.rank,
        winner: h.verdict === 'winner',
        fixed: delta?.counts.fixed ?? null,
        broken: delta?.counts.broken ?? null,
        changedLines: h.changedLines,
        durationMs: run?.durationMs ?? null,
        origin: h.origin,
        author: h.author,
        readAs: run?.readAs ?? null,
        basis: delta === null ? null : (delta.basis ?? (delta.byId ? 'id' : 'totals')),
        totals: totalsOf(run),
        note: notes.length === 0 ? null : [...new Set(notes)].join('; '),
      },
      tests: read.tests,
    });
  }
  return { taskId, iteration: iteration ?? null, iterations: count, ...buildMatrix(columns) };
}

/**
 * What a reviewer's promotion of a runner-up says of this hypothesis: the promoted one is the
 * winner now, the ranked winner was passed over (promote-hypothesis.ts); null for the others.
 */
function promotionNote(
  iteration: {
    promotedBy: string | null;
    promotionReason: string | null;
    passedOver: string | null;
  },
  hypothesis: { name: string; verdict: string },
): string | null {
  if (iteration.promotedBy === null || iteration.passedOver === null) return null;
  const why = `by ${iteration.promotedBy}: ${iteration.promotionReason ?? ''}`.slice(0, 240);
  if (hypothesis.name === iteration.passedOver) return `ranked first, passed over ${why}`;
  if (hypothesis.verdict === 'winner') return `promoted over ${iteration.passedOver} ${why}`;
  return null;
}

const totalsOf = (run: RunRow | null) =>
  run === null ? null : { passed: run.passed, failed: run.failed, skipped: run.skipped };

function baselineColumn(run: RunRow | null): MatrixColumn {
  const read = run === null ? null : readColumn(run, null);
  return {
    header: {
      name: 'baseline',
      kind: 'baseline',
      iteration: null,
      runId: run?.id ?? null,
      verdict: null,
      rank: null,
      winner: false,
      fixed: null,
      broken: null,
      changedLines: null,
      durationMs: run?.durationMs ?? null,
      origin: null,
      author: null,
      readAs: run?.readAs ?? null,
      basis: null,
      totals: totalsOf(run),
      note: read === null ? 'no baseline run yet' : read.note,
    },
    tests: read?.tests ?? { evidence: 'not run' },
  };
}

/** Every run a hypothesis may have been judged against, oldest first (see `referenceOf`). */
async function referenceRuns(db: Db, taskId: string): Promise<ReferenceRow[]> {
  const rows = await db.run.findMany({
    where: {
      taskId,
      OR: [{ kind: 'baseline' }, { kind: 'hypothesis', hypothesis: { verdict: 'winner' } }],
    },
    orderBy: { createdAt: 'asc' },
    select: { ...runSelect, iteration: { select: { index: true } } },
  });
  return rows.map(({ iteration, ...run }) => ({ ...run, iteration: iteration?.index ?? 0 }));
}

/**
 * The run `run` (of iteration `index`) was judged against, as the loop chose it then
 * (load-loop-task's `referenceRun`): the newest baseline or winner of an earlier iteration
 * recorded before it. `readColumn` checks the delta adds up against it before using it.
 */
function referenceOf(
  references: readonly ReferenceRow[],
  run: RunRow,
  index: number,
): StoredRun | null {
  return (
    references.findLast(
      (r) => r.iteration < index && r.createdAt.getTime() <= run.createdAt.getTime(),
    ) ?? null
  );
}
