import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * A scratch root laid out as `in/` (the archive), `sentinel/keep.txt` (must never change) and the
 * destination `out` (must not exist after a rejection). Anything else appearing in the root, such as
 * a leftover staging directory or a file written through `../`, fails `assertPristine`.
 */
export interface IntakeSandbox {
  readonly root: string;
  readonly into: string;
  writeArchive(bytes: Buffer, name?: string): Promise<string>;
  assertPristine(): Promise<void>;
  dispose(): Promise<void>;
}

const sentinelText = 'sentinel: must stay byte-identical\n';

export async function makeIntakeSandbox(): Promise<IntakeSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'sb-intake-'));
  await mkdir(join(root, 'in'));
  await mkdir(join(root, 'sentinel'));
  await writeFile(join(root, 'sentinel', 'keep.txt'), sentinelText);
  return {
    root,
    into: join(root, 'out'),
    async writeArchive(bytes, name = 'upload.bin') {
      const path = join(root, 'in', name);
      await writeFile(path, bytes);
      return path;
    },
    async assertPristine() {
      expect((await readdir(root)).sort()).toEqual(['in', 'sentinel']);
      expect(await readdir(join(root, 'sentinel'))).toEqual(['keep.txt']);
      expect(await readFile(join(root, 'sentinel', 'keep.txt'), 'utf8')).toBe(sentinelText);
      expect((await readdir(join(root, 'in'))).length).toBeLessThanOrEqual(1);
    },
    async dispose() {
      await rm(root, { recursive: true, force: true });
    },
  };
}
