import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { repoRoot } from '../../server/test-support/app-server';

/**
 * The accessible names of the /coding pages that tests and other tools rely on (issue #5), and
 * a few steps over them. Role and label locators only.
 */

const minute = 60_000;

/** The status word of the task on /coding/[id]. */
export const taskStatus = (page: Page): Locator =>
  page.getByRole('status', { name: 'Task status', exact: true });

export const hypothesesTable = (page: Page): Locator =>
  page.getByRole('table', { name: 'Hypotheses', exact: true });

/** Waits for the status word (tasks run real pytest in real sandboxes: give it time). */
export async function expectStatus(
  page: Page,
  status: string,
  timeout = 3 * minute,
): Promise<void> {
  await expect(taskStatus(page)).toHaveText(status, { timeout });
}

/** The 64-hex SHA-256 of the diff under review, as the page shows it (in the files changed). */
export async function shownDiffHash(page: Page): Promise<string> {
  await openTab(page, 'Files changed');
  const element = page.getByLabel('Diff SHA-256', { exact: true });
  await expect(element).toHaveText(/\b[0-9a-f]{64}\b/);
  const match = /\b[0-9a-f]{64}\b/.exec((await element.textContent()) ?? '');
  if (match === null) throw new Error('no SHA-256 in the element labelled "Diff SHA-256"');
  return match[0];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The row of the "Hypotheses" table whose row header starts with `name`. */
export function hypothesisRow(page: Page, name: string): Locator {
  return hypothesesTable(page)
    .getByRole('row')
    .filter({
      has: page.getByRole('rowheader', { name: new RegExp(`^${escapeRegExp(name)}\\b`) }),
    });
}

/**
 * A data cell of a hypothesis row by its column header (the row header, the name, is not a
 * data cell: columns after it shift by one).
 */
export async function hypothesisCell(page: Page, name: string, column: string): Promise<Locator> {
  const headers = (await hypothesesTable(page).getByRole('columnheader').allInnerTexts()).map(
    (text) => text.trim(),
  );
  const columnIndex = headers.indexOf(column);
  const nameIndex = headers.indexOf('Name');
  if (columnIndex === -1 || nameIndex === -1 || columnIndex === nameIndex) {
    throw new Error(`no column "${column}" among ${JSON.stringify(headers)}`);
  }
  const cellIndex = columnIndex < nameIndex ? columnIndex : columnIndex - 1;
  return hypothesisRow(page, name).getByRole('cell').nth(cellIndex);
}

/**
 * Replaces everything in the focused Monaco editor with `content`, from the keyboard: select all,
 * then paste. (Monaco treats text typed with `keyboard.insertText` character by character, so
 * its auto-indent and auto-closing rewrite Python source; a paste is inserted as it is.) Needs
 * the clipboard permissions the config grants.
 */
export async function replaceEditorContent(
  page: Page,
  editor: Locator,
  content: string,
): Promise<void> {
  await editor.focus();
  await page.evaluate((text) => navigator.clipboard.writeText(text), content);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

/** Full-page screenshots for the docs, only when asked (`SHADOWBOX_SCREENSHOTS=1`). */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.SHADOWBOX_SCREENSHOTS !== '1') return;
  await page.screenshot({
    path: path.join(repoRoot, 'docs', 'screenshots', name),
    fullPage: true,
    animations: 'disabled',
  });
}

/**
 * A screenshot for the docs of the part of the page that holds `parts` (from the top of the first
 * to the bottom of the last, the page's width), only when asked (`SHADOWBOX_SCREENSHOTS=1`).
 */
export async function docsClipScreenshot(
  page: Page,
  parts: readonly Locator[],
  name: string,
): Promise<void> {
  if (process.env.SHADOWBOX_SCREENSHOTS !== '1') return;
  const [first] = parts;
  if (first === undefined) return;
  await first.scrollIntoViewIfNeeded();
  const boxes = [];
  for (const part of parts) {
    const box = await part.boundingBox();
    if (box === null) throw new Error(`${String(part)} is not on the page`);
    boxes.push(box);
  }
  // Boxes are in the viewport's coordinates; a full-page clip is in the document's.
  const scrollY = await page.evaluate(() => window.scrollY);
  const top = Math.min(...boxes.map((box) => box.y)) + scrollY;
  const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + scrollY;
  const viewport = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.screenshot({
    path: path.join(repoRoot, 'docs', 'screenshots', name),
    fullPage: true,
    clip: { x: 0, y: Math.max(0, top - 8), width: viewport.width, height: bottom - top + 16 },
    animations: 'disabled',
  });
}

export type TaskTabName = 'Conversation' | 'Compare' | 'Files changed';

/** Selects a tab of the task page (its name may be followed by a count or a state). */
export async function openTab(page: Page, name: TaskTabName): Promise<void> {
  const tab = page.getByRole('tab', { name: new RegExp(`^${escapeRegExp(name)}\\b`) });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** The row of the task list (/coding) that links to the task `id` (the list shortens ids). */
export function taskListRow(page: Page, id: string): Locator {
  return page.getByRole('row').filter({ has: page.locator(`a[href="/coding/${id}"]`) });
}
