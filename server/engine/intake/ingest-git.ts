import { mkdtemp, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { discardEvents, type EventSink } from '../ports';
import { git } from '../workspace/git';
import { neutralizeAttributes } from '../workspace/source-repo';
import { cloneBare, defaultCloneCaps, type CloneCaps } from './git-clone';
import { checkGitTree } from './git-tree-check';
import { assertRefName, resolveRef } from './git-ref';
import { defaultGitUrlPolicy, type GitUrlPolicy } from './git-url-policy';
import { resolveIntakeCaps, type IntakeCaps } from './intake-caps';
import type { IntakeEvent } from './intake-events';
import { reportRejection, type IntakeResult } from './intake-result';
import { openStaging } from './staging';

export interface IngestGitOptions {
  readonly url: string;
  /** Branch, tag or commit id; the remote's default branch when absent. */
  readonly ref?: string;
  readonly into: string;
  readonly policy?: GitUrlPolicy;
  readonly caps?: Partial<IntakeCaps>;
  readonly cloneCaps?: Partial<CloneCaps>;
  readonly events?: EventSink<IntakeEvent>;
}

export interface IngestedGit {
  readonly dir: string;
  readonly commit: string;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Clones a Git URL under the policy into a temporary bare repository next to DIR, checks the
 * requested commit's tree, and only then writes its files into DIR (no `.git`: the checkout is
 * plain files). The bare repository is removed afterwards; on failure nothing remains.
 */
export async function ingestGit(options: IngestGitOptions): Promise<IntakeResult<IngestedGit>> {
  const events: EventSink<IntakeEvent> = options.events ?? discardEvents;
  const caps = resolveIntakeCaps(options.caps);
  const cloneCaps = { ...defaultCloneCaps, ...options.cloneCaps };
  let scratch: string | null = null;
  try {
    if (options.ref !== undefined) assertRefName(options.ref); // before any network traffic
    const url = await (options.policy ?? defaultGitUrlPolicy).pin(options.url);
    events.emit({ type: 'intake.started', source: 'git', location: url.href });
    const staging = await openStaging(options.into);
    try {
      const destination = resolve(options.into);
      scratch = await mkdtemp(join(dirname(destination), `.${basename(destination)}.clone-`));
      const bare = join(scratch, 'source.git');
      await cloneBare({ url, bareDir: bare, caps: cloneCaps, events });
      const commit = await resolveRef(bare, options.ref);
      const summary = await checkGitTree(bare, commit, caps);
      await neutralizeAttributes(bare); // in-tree .gitattributes must not rewrite checked-out bytes
      const index = { GIT_INDEX_FILE: join(scratch, 'index') };
      await git({ gitDir: bare, args: ['read-tree', commit], env: index });
      await git({
        gitDir: bare,
        workTree: staging.root,
        args: ['checkout-index', '-a'],
        env: index,
      });
      await staging.commit({ stripSingleTopFolder: false });
      events.emit({ type: 'intake.completed', ...summary, commit });
      return { ok: true, dir: staging.destination, commit, ...summary };
    } finally {
      await staging.discard();
    }
  } catch (error) {
    return reportRejection(error, events);
  } finally {
    if (scratch !== null) await rm(scratch, { recursive: true, force: true });
  }
}
