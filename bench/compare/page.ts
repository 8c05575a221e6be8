/**
 * Compare matrix on the task page of the built app (issue #24), once the lead has mounted
 * `<CompareMatrix>` in the page's Compare tab (`/coding/[id]?tab=compare`): time from navigation
 * start to the first frame showing the matrix's first row, for a task whose `--differing` of
 * `--tests` tests differ across the baseline and `--hypotheses` hypotheses (seeded through the task
 * loop's store into the server's own SQLite database), next to a `--small`-row task in the same
 * run. Median of `--runs`, fresh browser context each, Debian's Chromium, 1280×900, signed in as
 * the owner. It builds the app if it is stale: take the build lock first (`mkdir
 * /tmp/next-build.lock`, `rmdir` after). Run with
 * `npx tsx bench/compare/page.ts [--tests 10000 --differing 3000 --hypotheses 8 --runs 5 --small 30]`.
 */
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import { createDb } from '../../server/db/client';
import { seedCompareTask } from '../../server/tasks/compare/test-support/seed-compare';
import { createToken, ensureBuilt, startServer } from '../../server/test-support/app-server';
import { testPassword } from '../../server/test-support/test-password';
import { longTaskProbe } from '../ui/diff-paint';
import { signedInState } from '../ui/sign-in';
import { generateSuite } from './generate';

const { values } = parseArgs({
  options: {
    tests: { type: 'string', default: '10000' },
    differing: { type: 'string', default: '3000' },
    hypotheses: { type: 'string', default: '8' },
    runs: { type: 'string', default: '5' },
    small: { type: 'string', default: '30' },
  },
});
const tests = Math.max(1, Number(values.tests));
const differing = Math.min(tests, Math.max(1, Number(values.differing)));
const hypotheses = Math.max(1, Number(values.hypotheses));
const runs = Math.max(1, Number(values.runs));
const small = Math.max(1, Number(values.small));
const work = new URL('../.work/compare-page/', import.meta.url).pathname;
const person = { username: 'test-reviewer', password: testPassword };

const median = (samples: readonly number[]): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (n: number): string => `${n.toFixed(0)} ms`;

interface PageTiming {
  readonly firstRow: number;
  readonly domContentLoaded: number;
  readonly blocking: number;
}

async function measure(browser: Browser, url: string, storageState: string): Promise<PageTiming> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(longTaskProbe);
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    const handle = await page.waitForFunction(
      () =>
        document.querySelector('[role=grid] [role=row][aria-rowindex="2"]') === null
          ? false
          : performance.now(),
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const firstRow = (await handle.jsonValue()) as number;
    const { domContentLoaded, longTasks } = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      return {
        domContentLoaded: navigation?.domContentLoadedEventEnd ?? Number.NaN,
        longTasks: (window as unknown as { __longTasks: [number, number][] }).__longTasks,
      };
    });
    const blocking = longTasks
      .filter(([start]) => start < firstRow)
      .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
    return { firstRow, domContentLoaded, blocking };
  } finally {
    await context.close();
  }
}

await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
await ensureBuilt();
const dataDir = path.join(work, 'data');
await mkdir(dataDir, { recursive: true });
// Makes the bench person (the tasks' owner) and migrates the database.
await createToken(dataDir, ['agent'], { name: 'bench-compare' });
const db = createDb({ database: { provider: 'sqlite', file: path.join(dataDir, 'shadowbox.db') } });
const owner = await db.user.findUniqueOrThrow({ where: { username: person.username } });
const seed = async (count: number, diff: number) => {
  const suite = generateSuite({ tests: count, differing: diff, hypotheses });
  return seedCompareTask(db, {
    ownerId: owner.id,
    baseline: suite.baseline,
    iterations: [suite.hypotheses],
  });
};
const big = await seed(tests, differing);
const little = await seed(Math.max(100, small * 2), small);
await db.$disconnect();

const server = await startServer({ dataDir });
try {
  const signIn = await chromium.launch(chromiumLaunchOptions);
  const storageState = await signedInState(
    signIn,
    server.url,
    person,
    path.join(work, 'signed-in.json'),
  ).finally(() => signIn.close());
  console.log(
    `bench compare page: ${differing} of ${tests} tests × ${hypotheses} hypotheses vs ${small} rows; load ${os.loadavg()[0]?.toFixed(2)} on ${os.availableParallelism()} cores`,
  );
  const browser = await chromium.launch(chromiumLaunchOptions);
  const samples = { big: [] as PageTiming[], small: [] as PageTiming[] };
  const at = (id: string) => `${server.url}/coding/${id}?tab=compare`;
  try {
    await measure(browser, at(big), storageState);
    await measure(browser, at(little), storageState);
    for (let run = 0; run < runs; run += 1) {
      samples.big.push(await measure(browser, at(big), storageState));
      samples.small.push(await measure(browser, at(little), storageState));
    }
  } finally {
    await browser.close();
  }
  const of = (list: PageTiming[], pick: (t: PageTiming) => number) => median(list.map(pick));
  for (const [label, list] of [
    [`${differing} rows`, samples.big],
    [`${small} rows`, samples.small],
  ] as const) {
    console.log(
      `  ${label.padEnd(10)} navigation → first matrix row ${ms(of(list, (t) => t.firstRow))} (runs: ${list.map((t) => ms(t.firstRow)).join(', ')}); DOMContentLoaded ${ms(of(list, (t) => t.domContentLoaded))}; long-task blocking ${ms(of(list, (t) => t.blocking))}`,
    );
  }
  console.log(
    `  ratio: ${(of(samples.big, (t) => t.firstRow) / of(samples.small, (t) => t.firstRow)).toFixed(2)}×`,
  );
} finally {
  await server.kill().catch(() => server.kill9());
}
