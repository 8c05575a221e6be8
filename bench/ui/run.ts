/**
 * UI figures (issue #5), against the built app under `next start` on a scratch data directory:
 *  a. time from navigation start until /coding/[id] is interactive (the "Approve" button enabled
 *     and hydrated, and the diff view rendered) for a task whose diff rewrites a generated 5,000-line file,
 *     next to the same page for a 10-line diff measured in the same run (target ≤ 1.5 s);
 *  b. N concurrent viewers of one task's event stream (REST SSE with a bearer token, and the UI's
 *     tRPC subscription) while hypotheses run: whether every viewer got every seq exactly once,
 *     and the delivery latency (event stored → viewer), p50/p95;
 *  c. time to first paint of the diff in the files view (the review conversation) for the
 *     5,000-line rewrite with 200 review threads on it, against the same diff with none, measured
 *     in the same run (target ≤ 1 s; see diff-paint.ts).
 * Printed figures, no assertions. Run with
 * `npm run bench:ui [-- --runs 5 --lines 5000 --small-lines 10 --viewers 100 --trpc-viewers 100 --threads 200 --only a,b,c]`;
 * scratch goes to bench/.work/ui/. Uses Debian's Chromium (`SHADOWBOX_CHROMIUM` overrides). The
 * pages are read signed in as the person whose token makes the tasks.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { create as createTar } from 'tar';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import type { Hypothesis } from '../../server/engine/shadow';
import {
  createToken,
  ensureBuilt,
  startServer,
  type ServerHandle,
} from '../../server/test-support/app-server';
import { fixtureProject, packProject } from '../../server/test-support/projects';
import {
  api,
  createArchiveTask,
  describeResponse,
  getTask,
  hasStatus,
  submitHypotheses,
  waitForTask,
  type ApiClient,
} from '../../server/test-support/rest-client';
import { readSse } from '../../server/test-support/sse';
import { testPassword } from '../../server/test-support/test-password';
import { longTaskProbe, measureDiffPaint, openThreads, type PaintTiming } from './diff-paint';
import { signedInState } from './sign-in';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    lines: { type: 'string', default: '5000' },
    'small-lines': { type: 'string', default: '10' },
    viewers: { type: 'string', default: '100' },
    'trpc-viewers': { type: 'string', default: '100' },
    threads: { type: 'string', default: '200' },
    only: { type: 'string', default: 'a,b,c' },
  },
});
const runs = Math.max(1, Number(values.runs));
const bigLines = Math.max(10, Number(values.lines));
const smallLines = Math.max(1, Number(values['small-lines']));
const restViewers = Math.max(0, Number(values.viewers));
const trpcViewers = Math.max(0, Number(values['trpc-viewers']));
const threadCount = Math.max(1, Number(values.threads));
const parts = new Set(values.only.split(',').map((part) => part.trim()));
/** The person every token of the run belongs to (`createToken`'s default), and their password. */
const benchPerson = { username: 'test-reviewer', password: testPassword };
const work = new URL('../.work/ui/', import.meta.url).pathname;
const minutes = (n: number): number => n * 60_000;

const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const median = (samples: readonly number[]): number => percentile(samples, 50);
const ms = (n: number): string => `${n.toFixed(0)} ms`;
/** The machine is shared: other processes' load shows up in every figure. */
const loadAverage = (): string =>
  `${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} on ${os.availableParallelism()} cores`;

// ── a. time to interactive ───────────────────────────────────────────────────────────────────

/**
 * A pytest project whose data module has `lines` rows, all 'old'; its test wants them 'new'. The
 * hypothesis rewrites every row, so the diff replaces `lines` lines.
 */
async function tableProject(lines: number): Promise<{ archive: string; fix: Hypothesis }> {
  const dir = path.join(work, `table-${lines}`);
  const source = path.join(dir, 'src');
  await mkdir(source, { recursive: true });
  const rows = (value: string): string =>
    Array.from(
      { length: lines },
      (_, i) => `ROW_${String(i + 1).padStart(5, '0')} = '${value}'\n`,
    ).join('');
  await writeFile(path.join(source, 'table.py'), rows('old'));
  await writeFile(
    path.join(source, 'test_table.py'),
    [
      'import table',
      '',
      '',
      'def rows():',
      "    return [value for name, value in vars(table).items() if name.startswith('ROW_')]",
      '',
      '',
      'def test_row_count():',
      `    assert len(rows()) == ${lines}`,
      '',
      '',
      'def test_rows_are_new():',
      "    assert all(value == 'new' for value in rows())",
      '',
    ].join('\n'),
  );
  const archive = path.join(dir, `table-${lines}.tar.gz`);
  await createTar({ gzip: true, file: archive, cwd: source, portable: true }, [
    'table.py',
    'test_table.py',
  ]);
  return {
    archive,
    fix: {
      name: `rows-new-${lines}`,
      edits: [{ path: 'table.py', content: rows('new') }],
      delete: [],
    },
  };
}

async function taskUnderReview(agent: ApiClient, lines: number): Promise<string> {
  const { archive, fix } = await tableProject(lines);
  const id = await createArchiveTask(
    agent,
    { path: archive, name: path.basename(archive), type: 'application/gzip' },
    { testCommand: ['python3', '-m', 'pytest', '-q'], maxIterations: 1, hypothesesPerIteration: 1 },
  );
  await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), minutes(5));
  const submitted = await submitHypotheses(agent, id, [fix]);
  if (submitted.status !== 202) throw new Error(describeResponse(submitted));
  await waitForTask(agent, id, hasStatus('awaiting_review'), minutes(5));
  return id;
}

interface PageTiming {
  /** navigation start → Approve enabled and the diff view rendered (ms, in the page's clock). */
  readonly interactive: number;
  /** navigation start → the Approve button enabled and hydrated (its handler attached). */
  readonly approveEnabled: number;
  /** navigation start → the diff view (file list plus drawn diff or summary). */
  readonly diffShown: number;
  readonly domContentLoaded: number;
  /** Sum of (long task − 50 ms) until interactive. */
  readonly blocking: number;
  /** Whether the files' diffs were drawn, or the over-the-cap summary was shown first. */
  readonly view: 'rendered' | 'summary';
  /** The summary's first file opened: click → its diff drawn (summary pages only). */
  readonly openFile: number | null;
}

async function measurePage(
  browser: Browser,
  url: string,
  storageState: string,
): Promise<PageTiming> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(longTaskProbe);
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    // Checked on every animation frame in the page, so the time is the first frame it held.
    const handle = await page
      .waitForFunction(
        () => {
          // The first frame each part held, kept on the window between polls.
          const seen = window as unknown as { __approveAt?: number; __diffAt?: number };
          const now = performance.now();
          const approve = [...document.querySelectorAll('button')].find(
            (button) => button.textContent.trim() === 'Approve',
          );
          // Enabled in the server's HTML is not enough: the click handler must be attached too
          // (React keeps a node's props under a `__reactProps$…` key once it has hydrated it).
          const hydrated =
            approve !== undefined &&
            Object.keys(approve).some((key) => key.startsWith('__reactProps$'));
          if (approve !== undefined && !approve.disabled && hydrated) seen.__approveAt ??= now;
          const files = document.querySelector(
            'nav[aria-label="Files in this diff"] :is(a, button)',
          );
          // The files view (the default) or diff2html's overview.
          const drawn =
            document.querySelector('.conv-list .dl, .d2h-file-wrapper, .d2h-wrapper table') !==
            null;
          const summary = /so the files are\s+listed first/.test(document.body.innerText);
          if (files !== null && (drawn || summary)) seen.__diffAt ??= now;
          if (seen.__approveAt === undefined || seen.__diffAt === undefined) return false;
          return {
            at: now,
            approveAt: seen.__approveAt,
            diffAt: seen.__diffAt,
            view: drawn ? 'rendered' : 'summary',
          };
        },
        undefined,
        { polling: 'raf', timeout: 60_000 },
      )
      .catch(async (error: unknown) => {
        // Say which part never held (the page may also have failed: its alert text is included).
        const state = await page
          .evaluate(() => ({
            approveAt: (window as unknown as { __approveAt?: number }).__approveAt ?? null,
            diffAt: (window as unknown as { __diffAt?: number }).__diffAt ?? null,
            alerts: [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent),
          }))
          .catch(() => null);
        throw new Error(`${url} never became interactive: ${JSON.stringify(state)}`, {
          cause: error,
        });
      });
    const ready = (await handle.jsonValue()) as {
      at: number;
      approveAt: number;
      diffAt: number;
      view: 'rendered' | 'summary';
    };
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
      .filter(([start]) => start < ready.at)
      .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
    let openFile: number | null = null;
    if (ready.view === 'summary') {
      const show = page.getByRole('button', { name: /^Show the diff of / }).first();
      const clicked = await page.evaluate(() => performance.now());
      await show.click();
      const drawn = await page.waitForFunction(
        () =>
          document.querySelector('.d2h-file-wrapper, .d2h-wrapper table') === null
            ? false
            : performance.now(),
        undefined,
        { polling: 'raf', timeout: 60_000 },
      );
      openFile = ((await drawn.jsonValue()) as number) - clicked;
    }
    return {
      interactive: ready.at,
      approveEnabled: ready.approveAt,
      diffShown: ready.diffAt,
      domContentLoaded,
      blocking,
      view: ready.view,
      openFile,
    };
  } finally {
    await context.close();
  }
}

async function timeToInteractive(
  server: ServerHandle,
  agent: ApiClient,
  storageState: string,
): Promise<void> {
  const big = await taskUnderReview(agent, bigLines);
  const small = await taskUnderReview(agent, smallLines);
  const changed = async (id: string): Promise<string> => {
    const diff = await agent.get(`/api/v1/tasks/${id}/diff`);
    const body = diff.body as
      { diff?: string; flags?: { additions?: number; deletions?: number } } | undefined;
    const size = Buffer.byteLength(body?.diff ?? '') / 1024;
    const { additions = Number.NaN, deletions = Number.NaN } = body?.flags ?? {};
    return `+${additions} −${deletions}, ${size.toFixed(0)} KiB`;
  };
  console.log(`\n(load average at the start of part a: ${loadAverage()})`);
  const browser = await chromium.launch(chromiumLaunchOptions);
  const samples = { big: [] as PageTiming[], small: [] as PageTiming[] };
  try {
    // One warm-up each (the server's first render of a route), then interleaved runs.
    await measurePage(browser, `${server.url}/coding/${big}`, storageState);
    await measurePage(browser, `${server.url}/coding/${small}`, storageState);
    for (let run = 0; run < runs; run++) {
      samples.big.push(await measurePage(browser, `${server.url}/coding/${big}`, storageState));
      samples.small.push(await measurePage(browser, `${server.url}/coding/${small}`, storageState));
    }
  } finally {
    await browser.close();
  }
  const of = (list: PageTiming[], pick: (t: PageTiming) => number | null): number =>
    median(list.map(pick).filter((n): n is number => n !== null));
  console.log(
    `\na. /coding/[id] until interactive (Approve enabled + diff view), median of ${runs}, fresh browser context each`,
  );
  for (const [label, id, list] of [
    [`${bigLines}-line rewrite`, big, samples.big],
    [`${smallLines}-line rewrite`, small, samples.small],
  ] as const) {
    console.log(`   ${label.padEnd(18)} diff ${await changed(id)}; view: ${list[0]?.view ?? '?'}`);
    console.log(
      `      interactive ${ms(of(list, (t) => t.interactive))} (runs: ${list.map((t) => ms(t.interactive)).join(', ')}); DOMContentLoaded ${ms(of(list, (t) => t.domContentLoaded))}; Approve enabled ${ms(of(list, (t) => t.approveEnabled))}; diff view ${ms(of(list, (t) => t.diffShown))}; long-task blocking ${ms(of(list, (t) => t.blocking))}`,
    );
    const open = of(list, (t) => t.openFile);
    if (!Number.isNaN(open))
      console.log(`      opening the file's diff from the summary: ${ms(open)}`);
  }
  const ratio = of(samples.big, (t) => t.interactive) / of(samples.small, (t) => t.interactive);
  console.log(`   ratio big / small: ${ratio.toFixed(2)}×`);
  console.log(
    `   target ≤ 1.5 s: ${of(samples.big, (t) => t.interactive) <= 1500 ? 'PASS' : 'MISS'}`,
  );
}

// ── b. concurrent viewers ────────────────────────────────────────────────────────────────────

interface Viewer {
  readonly kind: 'rest' | 'trpc';
  readonly seqs: number[];
  /** receipt − createdAt, for events stored after every viewer was connected. */
  readonly latencies: number[];
  error: string | null;
}

function openViewer(
  kind: Viewer['kind'],
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  liveSince: () => number,
): { viewer: Viewer; connected: Promise<void> } {
  const viewer: Viewer = { kind, seqs: [], latencies: [], error: null };
  let markConnected = (): void => undefined;
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });
  void (async () => {
    try {
      const response = await fetch(url, { headers, signal });
      if (response.status !== 200 || response.body === null) {
        throw new Error(`${url} → ${response.status}: ${(await response.text()).slice(0, 300)}`);
      }
      markConnected();
      for await (const message of readSse(response.body, signal)) {
        if (message.id === undefined) continue; // tRPC's `connected`/pings, heartbeats
        const data = JSON.parse(message.data) as { seq?: number; createdAt?: string };
        if (typeof data.seq !== 'number') continue;
        viewer.seqs.push(data.seq);
        const created = Date.parse(data.createdAt ?? '');
        if (created >= liveSince()) viewer.latencies.push(Date.now() - created);
      }
    } catch (error) {
      if (!signal.aborted) viewer.error = String(error);
    } finally {
      markConnected();
    }
  })();
  return { viewer, connected };
}

/** The `Cookie` header of a saved browser session: what a signed-in page sends. */
async function sessionCookie(storageState: string): Promise<string> {
  const state = JSON.parse(await readFile(storageState, 'utf8')) as {
    cookies?: { name: string; value: string }[];
  };
  return (state.cookies ?? []).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

async function concurrentViewers(
  server: ServerHandle,
  agent: ApiClient,
  token: string,
  storageState: string,
) {
  // The UI's subscription answers only a signed-in person, as the page is.
  const cookie = await sessionCookie(storageState);
  const project = fixtureProject('pytest-calc');
  const archive = await packProject(project);
  const id = await createArchiveTask(agent, archive, {
    testCommand: project.testCommand,
    maxIterations: 2,
    hypothesesPerIteration: 3,
  });
  await archive.cleanup();
  await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), minutes(5));

  console.log(`\n(load average at the start of part b: ${loadAverage()})`);
  const controller = new AbortController();
  let liveSince = Number.POSITIVE_INFINITY;
  const restUrl = `${server.url}/api/v1/tasks/${id}/events`;
  const trpcUrl = `${server.url}/api/trpc/tasks.events?input=${encodeURIComponent(JSON.stringify({ taskId: id }))}`;
  const opened = [
    ...Array.from({ length: restViewers }, () =>
      openViewer(
        'rest',
        restUrl,
        { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        controller.signal,
        () => liveSince,
      ),
    ),
    ...Array.from({ length: trpcViewers }, () =>
      openViewer(
        'trpc',
        trpcUrl,
        { accept: 'text/event-stream', cookie },
        controller.signal,
        () => liveSince,
      ),
    ),
  ];
  await Promise.all(opened.map((o) => o.connected));
  const viewers = opened.map((o) => o.viewer);
  liveSince = Date.now();

  // Events: three hypotheses (right, wrong, broken) run, are ranked, the winner committed.
  const { right, wrong, broken } = project.hypotheses;
  const submitted = await submitHypotheses(agent, id, [wrong, broken, right]);
  if (submitted.status !== 202) throw new Error(describeResponse(submitted));
  await waitForTask(agent, id, hasStatus('awaiting_review'), minutes(5));
  const last = (await getTask(agent, id)).lastEventId;
  const deadline = Date.now() + 30_000;
  while (viewers.some((v) => v.error === null && !v.seqs.includes(last)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  controller.abort();

  console.log(
    `\nb. ${restViewers} REST + ${trpcViewers} tRPC viewers of one task, seqs 1..${last} (${last} events; the live part: 3 hypotheses run and ranked)`,
  );
  for (const kind of ['rest', 'trpc'] as const) {
    const group = viewers.filter((v) => v.kind === kind);
    if (group.length === 0) continue;
    const exact = group.filter(
      (v) => v.seqs.length === last && v.seqs.every((seq, index) => seq === index + 1),
    ).length;
    const missing = group.reduce(
      (sum, v) =>
        sum +
        Array.from({ length: last }, (_, i) => i + 1).filter((s) => !v.seqs.includes(s)).length,
      0,
    );
    const repeated = group.reduce((sum, v) => sum + (v.seqs.length - new Set(v.seqs).size), 0);
    const errors = group.filter((v) => v.error !== null);
    const latencies = group.flatMap((v) => v.latencies);
    console.log(
      `   ${kind.padEnd(5)} every seq exactly once, in order: ${exact}/${group.length}; missing ${missing}, repeated ${repeated}, failed streams ${errors.length}${errors[0] === undefined ? '' : ` (${errors[0].error ?? ''})`}`,
    );
    console.log(
      `         delivery latency (stored → viewer) over ${latencies.length} live deliveries: p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  max ${ms(Math.max(...latencies))}`,
    );
  }
}

// ── c. first paint of the diff with review threads ───────────────────────────────────────────

async function diffFirstPaint(
  server: ServerHandle,
  agent: ApiClient,
  storageState: string,
): Promise<void> {
  const plain = await taskUnderReview(agent, bigLines);
  const threaded = await taskUnderReview(agent, bigLines);
  const { diffSha256 } = await getTask(agent, threaded);
  if (diffSha256 === null) throw new Error(`task ${threaded} has no diff`);
  await openThreads(agent, threaded, diffSha256, 'table.py', bigLines, threadCount);
  console.log(`\n(load average at the start of part c: ${loadAverage()})`);
  const browser = await chromium.launch(chromiumLaunchOptions);
  const samples = { threaded: [] as PaintTiming[], plain: [] as PaintTiming[] };
  try {
    const at = (id: string): string => `${server.url}/coding/${id}`;
    await measureDiffPaint(browser, at(threaded), storageState, true);
    await measureDiffPaint(browser, at(plain), storageState, false);
    for (let run = 0; run < runs; run++) {
      samples.threaded.push(await measureDiffPaint(browser, at(threaded), storageState, true));
      samples.plain.push(await measureDiffPaint(browser, at(plain), storageState, false));
    }
  } finally {
    await browser.close();
  }
  const of = (list: PaintTiming[], pick: (t: PaintTiming) => number): number =>
    median(list.map(pick));
  console.log(
    `\nc. /coding/[id]#review-file-0: first paint of the diff (files view), median of ${runs}, fresh browser context each; +${bigLines} −${bigLines} lines`,
  );
  for (const [label, list] of [
    [`${threadCount} threads`, samples.threaded],
    ['no threads', samples.plain],
  ] as const) {
    console.log(
      `   ${label.padEnd(12)} first paint ${ms(of(list, (t) => t.firstPaint))} (runs: ${list.map((t) => ms(t.firstPaint)).join(', ')}); interactive ${ms(of(list, (t) => t.interactive))}; DOMContentLoaded ${ms(of(list, (t) => t.domContentLoaded))}; long-task blocking ${ms(of(list, (t) => t.blocking))}; rows in the page ${of(list, (t) => t.renderedRows)} (threads ${of(list, (t) => t.renderedThreads)})`,
    );
  }
  const paint = of(samples.threaded, (t) => t.firstPaint);
  const ratio = paint / of(samples.plain, (t) => t.firstPaint);
  const ready =
    of(samples.threaded, (t) => t.interactive) / of(samples.plain, (t) => t.interactive);
  console.log(
    `   ratio ${threadCount} threads / none: first paint ${ratio.toFixed(2)}×, interactive ${ready.toFixed(2)}×`,
  );
  console.log(`   target ≤ 1 s: ${paint <= 1000 ? 'PASS' : 'MISS'}`);
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
await ensureBuilt();
const dataDir = path.join(work, 'data');
await mkdir(dataDir, { recursive: true });
const agentToken = await createToken(dataDir, ['agent'], { name: 'bench-ui' });
const server = await startServer({ dataDir });
try {
  const agent = api(server.url, agentToken);
  console.log(`bench:ui against ${server.url} (data ${dataDir})`);
  const signIn = await chromium.launch(chromiumLaunchOptions);
  const storageState = await signedInState(
    signIn,
    server.url,
    benchPerson,
    path.join(work, 'signed-in.json'),
  ).finally(() => signIn.close());
  if (parts.has('a')) await timeToInteractive(server, agent, storageState);
  if (parts.has('b')) await concurrentViewers(server, agent, agentToken, storageState);
  if (parts.has('c')) await diffFirstPaint(server, agent, storageState);
} finally {
  await server.kill().catch(() => server.kill9());
}
