import { lstat, utimes } from 'node:fs/promises';

/**
 * Moves a just-written file's mtime into a later whole second than the file it replaces, when it
 * fell in the same one. Python's bytecode cache takes a source as unchanged when its size and its
 * mtime in whole seconds match the cached ones (make does the same on one-second file systems):
 * a hypothesis that turns `a + b` into `a - b` within the second its file was checked out, or
 * the second a run compiled it, would otherwise run the old code and be judged on it.
 */
export async function writtenInLaterSecond(
  file: string,
  replaced: { readonly mtimeMs: number } | null,
): Promise<void> {
  if (replaced === null) return;
  const written = await lstat(file);
  const replacedSecond = Math.floor(replaced.mtimeMs / 1000);
  if (Math.floor(written.mtimeMs / 1000) > replacedSecond) return;
  await utimes(file, written.atimeMs / 1000, replacedSecond + 1);
}
