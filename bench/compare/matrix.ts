/**
 * Compare matrix, server side (issue #24): the JSON of `GET /api/v1/tasks/{id}/compare` for a task
 * whose `--tests` tests differ in `--differing` of them across the baseline and `--hypotheses`
 * hypotheses, seeded in a scratch SQLite database through the task loop's own store (the rows and
 * `cases` exactly as runs leave them). Timed, median of `--runs`:
 *  - the service (`compareTask`: reads the runs, builds the matrix) + the output schema's parse
 *    (tRPC validates its output) + JSON.stringify (the response body): the server time;
 *  - in the same run, the baseline: reading the same runs' raw `cases` and JSON.stringify of
 *    them, what shipping the raw per-test lists to the browser would cost;
 *  - the pure matrix function alone is inside the first figure; its share is printed too.
 * Run with `npx tsx bench/compare/matrix.ts [-- --tests 10000 --differing 3000 --hypotheses 8 --runs 15]`.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { cliActor } from '../../server/auth/actor';
import { compareMatrixSchema, compareTask } from '../../server/tasks/compare';
import { seedCompareTask } from '../../server/tasks/compare/test-support/seed-compare';
import {
  createSqliteDatabase,
  openMigratedDatabase,
} from '../../server/test-support/scratch-databases';
import { generateSuite } from './generate';

const { values } = parseArgs({
  options: {
    tests: { type: 'string', default: '10000' },
    differing: { type: 'string', default: '3000' },
    hypotheses: { type: 'string', default: '8' },
    runs: { type: 'string', default: '15' },
  },
});
const tests = Math.max(1, Number(values.tests));
const differing = Math.min(tests, Math.max(1, Number(values.differing)));
const hypothesisCount = Math.max(1, Number(values.hypotheses));
const runs = Math.max(1, Number(values.runs));

const median = (samples: readonly number[]): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (n: number): string => `${n.toFixed(1)} ms`;
const kib = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;

const database = await openMigratedDatabase(createSqliteDatabase);
try {
  const { db } = database;
  const suite = generateSuite({ tests, differing, hypotheses: hypothesisCount });
  const seedStart = performance.now();
  const taskId = await seedCompareTask(db, {
    baseline: suite.baseline,
    iterations: [suite.hypotheses],
  });
  console.log(
    `bench compare matrix: ${tests} tests, ${differing} differing, ${hypothesisCount} hypotheses (seeded in ${ms(performance.now() - seedStart)}; load ${os.loadavg()[0]?.toFixed(2)} on ${os.availableParallelism()} cores)`,
  );

  const serve = async () => {
    const start = performance.now();
    const matrix = await compareTask({ db }, { taskId, iteration: 1, actor: cliActor });
    const read = performance.now();
    const body = JSON.stringify(compareMatrixSchema.parse(matrix));
    return { total: performance.now() - start, service: read - start, body, matrix };
  };
  const raw = async () => {
    const start = performance.now();
    const rows = await db.run.findMany({ where: { taskId }, select: { id: true, cases: true } });
    const body = JSON.stringify(rows);
    return { total: performance.now() - start, body };
  };

  // Warm-up (Prisma's first queries, the JIT), then interleaved runs.
  await serve();
  await raw();
  const matrixTimes: number[] = [];
  const serviceTimes: number[] = [];
  const rawTimes: number[] = [];
  let last = await serve();
  let rawBody = '';
  for (let run = 0; run < runs; run += 1) {
    last = await serve();
    matrixTimes.push(last.total);
    serviceTimes.push(last.service);
    const r = await raw();
    rawTimes.push(r.total);
    rawBody = r.body;
  }
  const rows = last.matrix.rows.length;
  const columns = last.matrix.columns.length;
  console.log(`  matrix: ${rows} rows × ${columns} columns, JSON ${kib(last.body.length)}`);
  console.log(
    `  server time (service + schema parse + JSON.stringify), median of ${runs}: ${ms(median(matrixTimes))} (service alone ${ms(median(serviceTimes))}; runs: ${matrixTimes.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  baseline (read the runs' raw cases + JSON.stringify, ${kib(rawBody.length)}): ${ms(median(rawTimes))}`,
  );
  console.log(`  ratio matrix / raw: ${(median(matrixTimes) / median(rawTimes)).toFixed(2)}×`);
  if (rows !== differing) throw new Error(`expected ${differing} rows, got ${rows}`);
} finally {
  await database.close();
}
