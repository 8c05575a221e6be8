import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * path → "mode:content" (links: "link:target") map of a directory, for byte-identical comparisons
 * in tests.
 */
export async function snapshotTree(root: string): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const info = await lstat(join(root, path));
      const mode = (info.mode & 0o7777).toString(8);
      if (entry.isDirectory()) {
        result.set(`${path}/`, mode);
        await walk(path);
      } else if (entry.isFile()) {
        result.set(path, `${mode}:${(await readFile(join(root, path))).toString('base64')}`);
      } else if (entry.isSymbolicLink()) {
        result.set(path, `link:${await readlink(join(root, path))}`);
      } else {
        result.set(path, 'not a regular file');
      }
    }
  }
  await walk('');
  return result;
}
