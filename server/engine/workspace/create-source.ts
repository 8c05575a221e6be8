import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { discardEvents, type EventSink } from '../ports';
import { cloneBare, defaultCloneCaps, type CloneCaps } from '../intake/git-clone';
import { resolveRef } from '../intake/git-ref';
import { checkGitTree } from '../intake/git-tree-check';
import { defaultGitUrlPolicy, type GitUrlPolicy } from '../intake/git-url-policy';
import { ingestArchive } from '../intake/ingest-archive';
import { resolveIntakeCaps, type IntakeCaps } from '../intake/intake-caps';
import type { IntakeEvent } from '../intake/intake-events';
import { asRejectedResult, type IntakeResult } from '../intake/intake-result';
import type { GitCredential } from './git-credential';
import { git } from './git';
import {
  importDirectory,
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
    const commit = await importDirectory(gitDir, tree);
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
    /** A configured remote's credential for this repository (a team's private forge). */
    readonly credential?: GitCredential | null;
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
      credential: options.credential ?? null,
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
