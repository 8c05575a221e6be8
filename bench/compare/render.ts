/**
 * Compare matrix in Chromium (issue #24): `<CompareMatrix>` rendering the JSON the real service
 * gives for `--tests` tests, `--differing` of them differing, across the baseline and
 * `--hypotheses` hypotheses (seeded in a scratch SQLite database through the task loop's store),
 * in Debian's Chromium (`SHADOWBOX_CHROMIUM` overrides), headless, 1280×900. The component is
 * bundled alone with esbuild (production React) and its tRPC client answers from memory, so no
 * Next build is needed: the figures are the component's own. Median of `--runs`, fresh page each:
 *  - first paint: render start (the body parsed in the query) → the first frame showing row 1;
 *  - scroll: 120 frames scrolling the grid 60 px a frame (a steady wheel) and 240 px (a fling,
 *    about 960 rows): frame interval median/p95/max, frames over 50 ms, and how many rows the
 *    page holds (the window);
 *  - "Broken only": click → the first frame with the filtered rows;
 * next to the same page for a `--small` row matrix in the same run.
 * Run with `npx tsx bench/compare/render.ts [-- --tests 10000 --differing 3000 --hypotheses 8 --runs 5 --small 30]`.
 */
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'esbuild';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
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
    runs: { type: 'string', default: '5' },
    small: { type: 'string', default: '30' },
  },
});
const tests = Math.max(1, Number(values.tests));
const differing = Math.min(tests, Math.max(1, Number(values.differing)));
const hypotheses = Math.max(1, Number(values.hypotheses));
const runs = Math.max(1, Number(values.runs));
const small = Math.max(1, Number(values.small));
const root = new URL('../../', import.meta.url).pathname;
const work = new URL('../.work/compare/', import.meta.url).pathname;

const median = (samples: readonly number[]): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const ms = (n: number): string => `${n.toFixed(0)} ms`;

/** The matrix body the server sends for a suite of `count` tests with `diff` differing. */
async function matrixBody(count: number, diff: number): Promise<string> {
  const database = await openMigratedDatabase(createSqliteDatabase);
  try {
    const suite = generateSuite({ tests: count, differing: diff, hypotheses });
    const taskId = await seedCompareTask(database.db, {
      baseline: suite.baseline,
      iterations: [suite.hypotheses],
    });
    const matrix = await compareTask(database, { taskId, iteration: 1, actor: cliActor });
    return JSON.stringify(compareMatrixSchema.parse(matrix));
  } finally {
    await database.close();
  }
}

interface FrameStats {
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly slow: number;
}

/** Scroll speeds measured: a wheel's steady scroll (60 px a frame) and a fling (240). */
const speeds = [60, 240] as const;

interface RenderTiming {
  readonly firstPaint: number;
  /** Per scroll speed (px a frame): frame interval median/p95/max and frames over 50 ms. */
  readonly scroll: Record<number, FrameStats>;
  readonly renderedRows: number;
  readonly filter: number;
}

async function measure(browser: Browser, html: string, body: string): Promise<RenderTiming> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    // tsx names the functions passed to the page below with esbuild's `__name` helper.
    await page.evaluate('globalThis.__name = (f) => f');
    await page.evaluate((text) => {
      window.__body = text;
      window.__iterations = 1;
    }, body);
    const firstPaint = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          window.start();
          const poll = () => {
            if (document.querySelector('[role=row][aria-rowindex="2"]') !== null) {
              // The frame after the one the row was committed in is when it is on screen.
              requestAnimationFrame(() => resolve(performance.now() - (window.__startedAt ?? 0)));
            } else requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }),
    );
    const scroll: Record<number, FrameStats> = {};
    let renderedRows = 0;
    for (const speed of speeds) {
      const run = await page.evaluate(
        (px) =>
          new Promise<{ frames: number[]; rows: number }>((resolve) => {
            const box = document.querySelector('.cmp-scroll');
            if (box === null) throw new Error('no grid');
            box.scrollTop = 0;
            const frames: number[] = [];
            let rows = 0;
            let last = performance.now();
            const step = (now: number) => {
              frames.push(now - last);
              last = now;
              rows = Math.max(rows, document.querySelectorAll('.cmp-body [role=row]').length);
              if (frames.length >= 120) resolve({ frames: frames.slice(1), rows });
              else {
                box.scrollTop += px;
                requestAnimationFrame(step);
              }
            };
            requestAnimationFrame(step);
          }),
        speed,
      );
      const sorted = [...run.frames].sort((a, b) => a - b);
      scroll[speed] = {
        median: median(sorted),
        p95: sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN,
        max: sorted.at(-1) ?? Number.NaN,
        slow: sorted.filter((f) => f > 50).length,
      };
      renderedRows = Math.max(renderedRows, run.rows);
    }
    const filter = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const button = [...document.querySelectorAll('button')].find(
            (b) => b.textContent === 'Broken only',
          );
          const count = document.querySelector('.cmp-count');
          if (button === undefined || count === null) throw new Error('no filter');
          const before = count.textContent;
          const start = performance.now();
          button.click();
          const poll = () => {
            if (count.textContent !== before) {
              requestAnimationFrame(() => resolve(performance.now() - start));
            } else requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }),
    );
    return {
      firstPaint,
      scroll,
      renderedRows,
      filter,
    };
  } finally {
    await context.close();
  }
}

await mkdir(work, { recursive: true });
const bundle = path.join(work, 'harness.js');
await build({
  entryPoints: [path.join(root, 'bench/compare/harness.tsx')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  outfile: bundle,
  define: { 'process.env.NODE_ENV': '"production"' },
  minify: true,
  jsx: 'automatic',
  alias: { '@': root },
  logLevel: 'error',
});
const css = await readFile(path.join(root, 'app/globals.css'), 'utf8');
const script = await readFile(bundle, 'utf8');
// `</script` cannot occur in esbuild's minified output of these sources; checked anyway.
if (script.includes('</script')) throw new Error('the bundle cannot be inlined');
const html = `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><main><div id="root"></div></main><script>${script}</script></body></html>`;

const big = await matrixBody(tests, differing);
const little = await matrixBody(Math.max(small * 2, 100), small);
console.log(
  `bench compare render: ${differing} differing of ${tests} tests × ${hypotheses} hypotheses (JSON ${(big.length / 1024).toFixed(0)} KiB) vs ${small} rows; load ${os.loadavg()[0]?.toFixed(2)} on ${os.availableParallelism()} cores`,
);
const browser = await chromium.launch(chromiumLaunchOptions);
const samples = { big: [] as RenderTiming[], small: [] as RenderTiming[] };
try {
  await measure(browser, html, big);
  await measure(browser, html, little);
  for (let run = 0; run < runs; run += 1) {
    samples.big.push(await measure(browser, html, big));
    samples.small.push(await measure(browser, html, little));
  }
} finally {
  await browser.close();
}
const of = (list: RenderTiming[], pick: (t: RenderTiming) => number): number =>
  median(list.map(pick));
for (const [label, list] of [
  [`${differing} rows`, samples.big],
  [`${small} rows`, samples.small],
] as const) {
  console.log(
    `  ${label.padEnd(10)} first paint ${ms(of(list, (t) => t.firstPaint))} (runs: ${list.map((t) => ms(t.firstPaint)).join(', ')}); rows in the page ${of(list, (t) => t.renderedRows)}; "Broken only" ${ms(of(list, (t) => t.filter))}`,
  );
  for (const speed of speeds) {
    const pick = (key: keyof FrameStats) => of(list, (t) => t.scroll[speed]?.[key] ?? Number.NaN);
    console.log(
      `             scroll ${speed} px/frame: frame interval median ${ms(pick('median'))}, p95 ${ms(pick('p95'))}, max ${ms(pick('max'))}, frames > 50 ms ${pick('slow')}/119`,
    );
  }
}
console.log(
  `  ratio first paint ${differing} / ${small} rows: ${(of(samples.big, (t) => t.firstPaint) / of(samples.small, (t) => t.firstPaint)).toFixed(2)}×`,
);
