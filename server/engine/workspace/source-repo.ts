import { lstat, mkdir, mkdtemp, readdir, readlink, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error';
import { git, gitText } from './git';
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
  await mkdir(layout.sourcesDir, { recursive: true });
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

export const importIdentity = {
  GIT_AUTHOR_NAME: 'Shadowbox Import',
  GIT_AUTHOR_EMAIL: 'import@shadowbox.invalid',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00+0000',
  GIT_COMMITTER_NAME: 'Shadowbox Import',
  GIT_COMMITTER_EMAIL: 'import@shadowbox.invalid',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00+0000',
};

interface ImportEntry {
  readonly path: string;
  readonly mode: '100644' | '100755' | '120000';
  /** What git hashes: the file itself, or for a link a scratch file holding its target. */
  readonly content: string;
}

/**
 * The regular files and links of an extracted archive, sorted by path. git stores a link as a blob
 * of its target; hashing the link's own path would follow it, so its target (read with readlink,
 * never followed) is copied into a server-owned scratch file that is hashed instead.
 */
async function importEntries(dir: string, linkTargets: string): Promise<ImportEntry[]> {
  const found: ImportEntry[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) continue;
    const absolute = join(entry.parentPath, entry.name);
    const path = absolute.slice(dir.length + 1);
    if (entry.isSymbolicLink()) {
      const content = join(linkTargets, String(found.length));
      await writeFile(content, await readlink(absolute, { encoding: 'buffer' }), { flag: 'wx' });
      found.push({ path, mode: '120000', content });
    } else if (entry.isFile()) {
      const executable = ((await lstat(absolute)).mode & 0o111) !== 0;
      found.push({ path, mode: executable ? '100755' : '100644', content: absolute });
    } else {
      throw new AppError('INTERNAL', `not a regular file or link after intake: ${absolute}`);
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Records an extracted archive as the single "import" commit on `main`, links as links (120000).
 * Blobs are hashed with `--no-filters` and entered with `update-index`, so no attribute or ignore
 * rule of the archive changes a byte or drops a file, and the fixed identity and date make the
 * commit id a function of the content alone.
 */
export async function importDirectory(
  gitDir: string,
  dir: string,
  scratch: string,
): Promise<string> {
  const linkTargets = join(scratch, 'link-targets');
  await mkdir(linkTargets);
  const entries = await importEntries(dir, linkTargets);
  const index = { GIT_INDEX_FILE: join(scratch, 'import.index') };
  if (entries.length > 0) {
    const hashes = (
      await gitText({
        gitDir,
        args: ['hash-object', '-w', '--no-filters', '--stdin-paths'],
        input: entries.map((entry) => entry.content).join('\n') + '\n',
      })
    ).split('\n');
    const info = entries.map((entry, i) => `${entry.mode} ${hashes[i] ?? ''}\t${entry.path}\0`);
    await git({
      gitDir,
      env: index,
      args: ['update-index', '-z', '--add', '--index-info'],
      input: info.join(''),
    });
  }
  const tree = await gitText({ gitDir, env: index, args: ['write-tree'] });
  const commit = await gitText({
    gitDir,
    env: importIdentity,
    args: ['commit-tree', tree],
    input: 'Import archive\n',
  });
  await git({ gitDir, args: ['update-ref', 'refs/heads/main', commit] });
  await git({ gitDir, args: ['symbolic-ref', 'HEAD', 'refs/heads/main'] });
  return commit;
}
