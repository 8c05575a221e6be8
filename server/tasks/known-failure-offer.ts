import type { Db, Prisma } from '../db/client';
import type { TestCase } from '../engine/parsers';

type Reader = Db | Prisma.TransactionClient;

const failing = (cases: unknown): Set<string> =>
  new Set(
    ((cases as TestCase[] | null) ?? []).filter((c) => c.status === 'failed').map((c) => c.id),
  );

/**
 * Tests a person may accept as known failures: they failed at the baseline and still fail at the
 * newest checkpoint (its winner's run), by id, and are not known failures yet. A test that fails
 * before any change and after a fix of others is most likely environmental (a network test,
 * a missing device); accepting it lets the task stop waiting for a fix nobody will find. Only
 * runs that name their tests can offer any: a count says nothing about which test it was.
 */
export async function knownFailureOffer(
  db: Reader,
  taskId: string,
  known: readonly string[],
): Promise<string[]> {
  return (await checkpointFailures(db, taskId, known)).offer;
}

/**
 * What the newest checkpoint leaves failing beyond the known failures (`left`), and which of
 * those the offer holds. No winner yet (or runs that name no tests): nothing either way.
 */
export async function checkpointFailures(
  db: Reader,
  taskId: string,
  known: readonly string[],
): Promise<{ readonly offer: string[]; readonly left: string[] }> {
  const [baseline, checkpoint] = await Promise.all([
    db.run.findFirst({
      where: { taskId, kind: 'baseline' },
      orderBy: { createdAt: 'desc' },
      select: { cases: true },
    }),
    db.run.findFirst({
      where: { taskId, kind: 'hypothesis', hypothesis: { verdict: 'winner' } },
      orderBy: { createdAt: 'desc' },
      select: { cases: true },
    }),
  ]);
  if (baseline === null || checkpoint === null) return { offer: [], left: [] };
  const before = failing(baseline.cases);
  const knownSet = new Set(known);
  const left = [...failing(checkpoint.cases)].filter((id) => !knownSet.has(id));
  return { offer: left.filter((id) => before.has(id)), left };
}
