import { lstat, mkdir, mkdtemp, readdir, readlink, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error';
import { git, gitText } from './git';
import { importStream, type ImportEntry } from './import-stream';
import { ensureTopDir } from '../fs/top-dir';
import { assertWorkspaceId, sourceGitDir, type WorkspaceLayout } from './workspace-layout';

/** A server-owned bare repository holding one source (a clone or an imported archive). */
export interface SourceRepo {
  readonly id: string;
  readonly gitDir: string;
}

// $GIT_DIR/info/attributes outranks every in-tree .gitattributes: no EOL conversion, no filter,
// no ident expansion or re-encoding on checkout (bytes stay exact), and no in-tree diff driver or
// `-diff` that could turn a reviewed change into an opaque binary patch.
const neutralAttributes = '* -text !eol !filter -ident !working-tree-encoding !diff !merge\n';

export async function neutralizeAttributes(gitDir: string): Promise<void> {
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'info', 'attributes'), neutralAttributes);
}

/** A fresh temporary directory inside the sources directory, for building one source. */
export async function makeScratch(layout: WorkspaceLayout, sourceId: string): Promise<string> {
  assertWorkspaceId('source', sourceId);
  // Its extracted tree lands among no inodes freed a moment ago (see top-dir.ts).
  await ensureTopDir(layout.sourcesDir);
  return mkdtemp(join(layout.sourcesDir, `.${sourceId}.tmp-`));
}

export async function initBare(gitDir: string): Promise<void> {
  await git({ gitDir: null, args: ['init', '--bare', '--quiet', '--template=', gitDir] });
  await neutralizeAttributes(gitDir);
}

/** Moves a finished scratch repository to its stable path; fails if the source already exists. */
export async function publishSource(
  layout: WorkspaceLayout,
  sourceId: string,
  scratchGitDir: string,
): Promise<SourceRepo> {
  const gitDir = sourceGitDir(layout, sourceId);
  try {
    await rename(scratchGitDir, gitDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTEMPTY') {
      throw new AppError('CONFLICT', `source ${sourceId} already exists`);
    }
    throw error;
  } finally {
    await rm(join(scratchGitDir, '..'), { recursive: true, force: true });
  }
  return { id: sourceId, gitDir };
}

/**
 * The regular files and links of an extracted archive. A link's blob is its target, read with
 * readlink (never followed).
 */
async function importEntries(dir: string): Promise<ImportEntry[]> {
  const found: ImportEntry[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) continue;
    const absolute = join(entry.parentPath, entry.name);
    const path = absolute.slice(dir.length + 1);
    if (entry.isSymbolicLink()) {
      found.push({
        path,
        mode: '120000',
        target: await readlink(absolute, { encoding: 'buffer' }),
      });
    } else if (entry.isFile()) {
      const executable = ((await lstat(absolute)).mode & 0o111) !== 0;
      found.push({ path, mode: executable ? '100755' : '100644', file: absolute });
    } else {
      throw new AppError('INTERNAL', `not a regular file or link after intake: ${absolute}`);
    }
  }
  return found;
}

/**
 * Git options of the import. Its objects go into one pack: 5,000 loose objects cost as many files
 * to write, every later checkout reads them one file at a time (measured: twice as slow), and
 * `gc.auto=0` means nothing would ever pack them. fast-import would still unpack an import of
 * fewer than 100 objects (`fastimport.unpackLimit`). zlib's fastest level is what git uses for
 * loose objects (`core.loosecompression`), and deltas are not searched (`--depth=0`): an import is
 * one commit of distinct files, where they saved nothing here and cost a fifth more time (level 1
 * without deltas 2.1 s, level 6 2.8 s, with deltas 3.4 s for 5,000 files; docs/benchmarks.md).
 */
const importConfig = ['fastimport.unpackLimit=0', 'pack.compression=1'];

/**
 * Records an extracted archive as the single "import" commit on `main`, links as links (120000),
 * in one `git fast-import` that writes every blob, tree and the commit into one pack. Contents go
 * in as bytes: no attribute or ignore rule of the archive can change a byte or drop a file, and the
 * fixed identity and date make the commit id a function of the content alone (the same id
 * `hash-object --no-filters` + `commit-tree` give).
 */
export async function importDirectory(gitDir: string, dir: string): Promise<string> {
  const entries = await importEntries(dir);
  await git({
    gitDir,
    config: importConfig,
    args: ['fast-import', '--quiet', '--done', '--depth=0'],
    input: importStream('refs/heads/main', entries),
  });
  await git({ gitDir, args: ['symbolic-ref', 'HEAD', 'refs/heads/main'] });
  return gitText({ gitDir, args: ['rev-parse', '--verify', 'refs/heads/main^{commit}'] });
}
