import { lstat, mkdir, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error';
import { discardEvents, type EventSink } from '../ports';
import { cloneBare, defaultCloneCaps, type CloneCaps } from '../intake/git-clone';
import { resolveRef } from '../intake/git-ref';
import { checkGitTree } from '../intake/git-tree-check';
import { defaultGitUrlPolicy, type GitUrlPolicy } from '../intake/git-url-policy';
import { ingestArchive } from '../intake/ingest-archive';
import { resolveIntakeCaps, type IntakeCaps } from '../intake/intake-caps';
import type { IntakeEvent } from '../intake/intake-events';
import { asRejectedResult, type IntakeResult } from '../intake/intake-result';
import { git, gitText } from './git';
import {
  importIdentity,
  initBare,
  makeScratch,
  neutralizeAttributes,
  publishSource,
  type SourceRepo,
} from './source-repo';
import type { WorkspaceLayout } from './workspace-layout';

export interface CreatedSource {
  readonly source: SourceRepo;
  /** The commit task worktrees start from. */
  readonly commit: string;
}

interface CommonOptions {
  readonly layout: WorkspaceLayout;
  readonly sourceId: string;
  readonly caps?: Partial<IntakeCaps>;
  readonly events?: EventSink<IntakeEvent>;
}

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
async function importTree(gitDir: string, dir: string, scratch: string): Promise<string> {
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

/** Archive → policy-checked extraction → one deterministic import commit in a new bare repo. */
export async function createSourceFromArchive(
  options: CommonOptions & { readonly archive: string },
): Promise<IntakeResult<CreatedSource>> {
  const scratch = await makeScratch(options.layout, options.sourceId);
  try {
    const tree = join(scratch, 'tree');
    const extracted = await ingestArchive({
      archive: options.archive,
      into: tree,
      caps: options.caps ?? {},
      events: options.events ?? discardEvents,
    });
    if (!extracted.ok) return extracted;
    const gitDir = join(scratch, 'repo.git');
    await initBare(gitDir);
    const commit = await importTree(gitDir, tree, scratch);
    await rm(tree, { recursive: true, force: true });
    return {
      ok: true,
      source: await publishSource(options.layout, options.sourceId, gitDir),
      commit,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Git URL → policy → bare clone → ref resolved and its tree checked → published bare repo. */
export async function createSourceFromGit(
  options: CommonOptions & {
    readonly url: string;
    readonly ref?: string;
    readonly policy?: GitUrlPolicy;
    readonly cloneCaps?: Partial<CloneCaps>;
  },
): Promise<IntakeResult<CreatedSource>> {
  const events: EventSink<IntakeEvent> = options.events ?? discardEvents;
  const scratch = await makeScratch(options.layout, options.sourceId);
  try {
    const url = await (options.policy ?? defaultGitUrlPolicy).pin(options.url);
    events.emit({ type: 'intake.started', source: 'git', location: url.href });
    const gitDir = join(scratch, 'repo.git');
    await cloneBare({
      url,
      bareDir: gitDir,
      caps: { ...defaultCloneCaps, ...options.cloneCaps },
      events,
    });
    const commit = await resolveRef(gitDir, options.ref);
    const summary = await checkGitTree(gitDir, commit, resolveIntakeCaps(options.caps));
    await neutralizeAttributes(gitDir);
    await git({ gitDir, args: ['update-ref', 'refs/shadowbox/intake', commit] });
    events.emit({ type: 'intake.completed', ...summary, commit });
    return {
      ok: true,
      source: await publishSource(options.layout, options.sourceId, gitDir),
      commit,
    };
  } catch (error) {
    return asRejectedResult(error);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
