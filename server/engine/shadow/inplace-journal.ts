import { createHash, randomBytes } from 'node:crypto';
import {
  chmod,
  link,
  lstat,
  readdir,
  readFile,
  rename,
  rmdir,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { PreparedChange } from './hypothesis';
import { writtenInLaterSecond } from './later-second';

/**
 * What an in-place run must put back, written to its run directory before the workspace is touched.
 * Originals are kept as hard links in the run directory, so putting one back is a rename of the very
 * same inode; where the run directory is on another file system the journal's copy of the content is
 * written back instead. Either way the restored file gets a new mtime: the run built the hypothesis,
 * and a build tool comparing times (cargo's fingerprints, make, Python's bytecode cache) must see
 * that the source changed again, or it would keep the hypothesis's build. If the process dies
 * mid-run, the start-up sweep restores from the journal with the same rules.
 */
const entrySchema = z.object({
  path: z.string(),
  /** sha256 of what the hypothesis wrote; null for a deletion. */
  afterSha256: z.string().nullable(),
  /** Where the original is hard-linked, if it existed. */
  backup: z.string().nullable(),
  before: z.discriminatedUnion('exists', [
    z.object({ exists: z.literal(false) }),
    z.object({
      exists: z.literal(true),
      contentBase64: z.string(),
      mode: z.number(),
    }),
  ]),
});
const journalSchema = z.object({
  workspace: z.string(),
  changes: z.array(entrySchema),
  /** Workspace-relative directories the hypothesis needs that do not exist yet, shallowest first. */
  createdDirs: z.array(z.string()),
  /** Times of the existing directories whose entries change, put back last. */
  directoryTimes: z.array(z.object({ path: z.string(), atimeMs: z.number(), mtimeMs: z.number() })),
});

export type Journal = z.infer<typeof journalSchema>;
export type JournalEntry = z.infer<typeof entrySchema>;
const journalFile = 'inplace-journal.json';

const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

async function directoriesOf(
  workspace: string,
  changes: readonly PreparedChange[],
): Promise<Pick<Journal, 'createdDirs' | 'directoryTimes'>> {
  const createdDirs = new Set<string>();
  const directoryTimes = new Map<string, { atimeMs: number; mtimeMs: number }>();
  for (const change of changes) {
    const segments = change.path.split('/').slice(0, -1);
    for (let i = 0; i <= segments.length; i += 1) {
      const relative = segments.slice(0, i).join('/') || '.';
      if (createdDirs.has(relative) || directoryTimes.has(relative)) continue;
      const stats = await lstat(path.join(workspace, relative)).catch(() => null);
      if (stats === null) createdDirs.add(relative);
      else if (i === segments.length) directoryTimes.set(relative, stats);
    }
  }
  return {
    createdDirs: [...createdDirs],
    directoryTimes: [...directoryTimes].map(([p, { atimeMs, mtimeMs }]) => ({
      path: p,
      atimeMs,
      mtimeMs,
    })),
  };
}

export async function planJournal(
  workspace: string,
  runDir: string,
  changes: readonly PreparedChange[],
): Promise<Journal> {
  return {
    workspace,
    ...(await directoriesOf(workspace, changes)),
    changes: changes.map(({ path: p, before, after }, i) => ({
      path: p,
      afterSha256: after === null ? null : sha256(after),
      backup: before.exists ? path.join(runDir, `original-${i}`) : null,
      before: before.exists
        ? {
            exists: true,
            contentBase64: before.content.toString('base64'),
            mode: before.mode,
          }
        : { exists: false },
    })),
  };
}

export async function writeJournal(runDir: string, journal: Journal): Promise<void> {
  await writeFile(path.join(runDir, journalFile), JSON.stringify(journal), { mode: 0o600 });
}

export async function readJournal(runDir: string): Promise<Journal | null> {
  const text = await readFile(path.join(runDir, journalFile), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = journalSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // torn write: the process died before touching the workspace
  }
}

/** Keeps the original aside (a hard link, when the file systems allow it) before it is replaced. */
export async function keepOriginal(workspace: string, entry: JournalEntry): Promise<void> {
  if (entry.backup === null) return;
  await link(path.join(workspace, entry.path), entry.backup).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM') throw error;
  });
}

/** Writes through a new inode, so a hard-linked original is never modified. */
export async function replaceFile(file: string, content: Buffer, mode: number): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.shadowbox-${randomBytes(4).toString('hex')}`,
  );
  await writeFile(temp, content, { flag: 'wx', mode });
  await chmod(temp, mode);
  await writtenInLaterSecond(temp, await lstat(file).catch(() => null));
  await rename(temp, file);
}

async function putBack(file: string, entry: JournalEntry): Promise<void> {
  const { before } = entry;
  if (!before.exists) {
    await unlink(file);
    return;
  }
  if (entry.backup !== null && (await lstat(entry.backup).catch(() => null)) !== null) {
    await rename(entry.backup, file);
  } else {
    await replaceFile(file, Buffer.from(before.contentBase64, 'base64'), before.mode);
  }
  const now = new Date();
  await utimes(file, now, now);
}

/** Whether `file` is as it was before the hypothesis: never written, or not yet. */
async function asBefore(
  file: string,
  stats: Stats | null,
  { before }: JournalEntry,
): Promise<boolean> {
  if (!before.exists) return stats === null;
  if (stats?.isFile() !== true) return false;
  return (await readFile(file)).equals(Buffer.from(before.contentBase64, 'base64'));
}

/** Removes what a write cut short by a crash left beside `file` (see `replaceFile`). */
async function removeTornWrites(file: string): Promise<void> {
  const prefix = `.${path.basename(file)}.shadowbox-`;
  const names = await readdir(path.dirname(file)).catch(() => [] as string[]);
  const torn = names.filter(
    (n) => n.startsWith(prefix) && /^[0-9a-f]{8}$/.test(n.slice(prefix.length)),
  );
  await Promise.all(
    torn.map((n) => unlink(path.join(path.dirname(file), n)).catch(() => undefined)),
  );
}

/**
 * Puts back what a hypothesis replaced, but only where the file is still exactly what the
 * hypothesis left (same bytes, or still absent): anything else was changed by the run, and
 * overwriting it would destroy evidence. A file still as it was before needs nothing: a crash
 * can come between two writes of one hypothesis, and the journal lists them all. Then removes
 * the directories it created if they are empty again and puts back directory times. `written`
 * limits the files to those actually written. Returns the paths it could not restore.
 */
export async function restoreJournal(
  journal: Journal,
  written: readonly JournalEntry[] = journal.changes,
): Promise<string[]> {
  const { workspace } = journal;
  const notRestored: string[] = [];
  for (const entry of written) {
    const file = path.join(workspace, entry.path);
    const stats = await lstat(file).catch(() => null);
    const untouched =
      entry.afterSha256 === null
        ? stats === null
        : stats?.isFile() === true && sha256(await readFile(file)) === entry.afterSha256;
    if (untouched) await putBack(file, entry);
    else if (!(await asBefore(file, stats, entry))) notRestored.push(entry.path);
    await removeTornWrites(file);
  }
  for (const dir of [...journal.createdDirs].reverse()) {
    await rmdir(path.join(workspace, dir)).catch(() => undefined); // not empty: the run wrote there
  }
  for (const { path: dir, atimeMs, mtimeMs } of journal.directoryTimes) {
    await utimes(path.join(workspace, dir), atimeMs / 1000, mtimeMs / 1000).catch(() => undefined);
  }
  return notRestored;
}
