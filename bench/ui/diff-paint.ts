/**
 * c. Time to first paint of the diff in the files view (the review conversation's view), for a
 * task whose diff rewrites a 5,000-line file, with `threads` review threads on it, against the same
 * diff with none, measured in the same run. The page is opened at the diff (`#review-file-0`), as
 * a reviewer following a link to it lands.
 */
import type { Browser } from '@playwright/test';
import type { ApiClient } from '../../server/test-support/rest-client';
import { describeResponse } from '../../server/test-support/rest-client';

export interface PaintTiming {
  /** navigation start → the first frame showing the diff's first line (and its first thread). */
  readonly firstPaint: number;
  /** navigation start → that line's number hydrated (a click on it selects it). */
  readonly interactive: number;
  readonly domContentLoaded: number;
  /** Sum of (long task − 50 ms) until interactive. */
  readonly blocking: number;
  /** Rows of the files view in the page once interactive: windowing keeps this small. */
  readonly renderedRows: number;
  readonly renderedThreads: number;
}

/**
 * Opens `count` threads on the task's diff in reviews that only comment (REST
 * `POST /api/v1/tasks/{id}/reviews`, at most 200 comments a review), three lines each: half on
 * the removed lines (old side), half on the added ones (new side), each half spread evenly over
 * lines 1..`lines`, so threads are met all along the diff (a rewrite shows every removed line
 * before the added ones).
 */
export async function openThreads(
  agent: ApiClient,
  id: string,
  sha256: string,
  path: string,
  lines: number,
  count: number,
): Promise<void> {
  const half = Math.ceil(count / 2);
  const all = Array.from({ length: count }, (_, i) => {
    const side = i < half ? 'old' : 'new';
    const k = i < half ? i : i - half;
    const start = Math.floor((k * lines) / (i < half ? half : count - half)) + 1;
    const end = Math.min(lines, start + 2);
    return {
      path,
      side,
      startLine: start,
      endLine: end,
      body: `Thread ${i + 1}: is ${side} row **${start}** right? See https://example.com/rows#${start}.`,
    };
  });
  for (let from = 0; from < all.length; from += 200) {
    const response = await agent.post(`/api/v1/tasks/${encodeURIComponent(id)}/reviews`, {
      verdict: 'comment',
      sha256,
      comments: all.slice(from, from + 200),
    });
    if (response.status >= 300) {
      throw new Error(`opening threads failed: ${describeResponse(response)}`);
    }
  }
}

/** Counts long tasks from the first script on (the observer is buffered); run.ts uses it too. */
export const longTaskProbe = `
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
`;

export async function measureDiffPaint(
  browser: Browser,
  url: string,
  storageState: string,
  withThreads: boolean,
): Promise<PaintTiming> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(longTaskProbe);
    await page.goto(`${url}#review-file-0`, { waitUntil: 'commit', timeout: 60_000 });
    const handle = await page.waitForFunction(
      (threads: boolean) => {
        const seen = window as unknown as { __paintAt?: number; __readyAt?: number };
        const now = performance.now();
        const line = document.querySelector('.conv-list .dl');
        const onScreen = line !== null && line.getBoundingClientRect().top < window.innerHeight;
        const thread = !threads || document.querySelector('.conv-list .thread') !== null;
        if (onScreen && thread) seen.__paintAt ??= now;
        const button = line?.querySelector('button.dl-select');
        const hydrated =
          button !== null &&
          button !== undefined &&
          Object.keys(button).some((key) => key.startsWith('__reactProps$'));
        if (seen.__paintAt !== undefined && hydrated) seen.__readyAt ??= now;
        if (seen.__paintAt === undefined || seen.__readyAt === undefined) return false;
        return {
          paintAt: seen.__paintAt,
          readyAt: seen.__readyAt,
          rows: document.querySelectorAll('.conv-row').length,
          threads: document.querySelectorAll('.conv-list .thread').length,
        };
      },
      withThreads,
      { polling: 'raf', timeout: 60_000 },
    );
    const ready = (await handle.jsonValue()) as {
      paintAt: number;
      readyAt: number;
      rows: number;
      threads: number;
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
    return {
      firstPaint: ready.paintAt,
      interactive: ready.readyAt,
      domContentLoaded,
      blocking: longTasks
        .filter(([start]) => start < ready.readyAt)
        .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0),
      renderedRows: ready.rows,
      renderedThreads: ready.threads,
    };
  } finally {
    await context.close();
  }
}
