import type { AppErrorCode } from '../../errors/app-error';
import type { EventSink } from '../ports';
import { checkArchivePath, type PathRule } from './archive-policy';
import type { IntakeCaps } from './intake-caps';
import type { IntakeEvent } from './intake-events';
import { reject } from './intake-result';
import { linkTargetProblem } from './link-target';
import { LinkTree, type TreeLink } from './link-tree';
import { PathRegistry, type RegistryConflict } from './path-registry';

const progressEvery = 100;

const codeOfRule: Record<PathRule, AppErrorCode> = {
  traversal: 'ARCHIVE_PATH_TRAVERSAL',
  absolute: 'ARCHIVE_PATH_ABSOLUTE',
  invalid: 'ARCHIVE_PATH_INVALID',
  'too-deep': 'ARCHIVE_PATH_TOO_DEEP',
  'too-long': 'ARCHIVE_PATH_TOO_LONG',
  reserved: 'ARCHIVE_RESERVED_NAME',
};

function conflictRejection(conflict: RegistryConflict, name: string) {
  switch (conflict.kind) {
    case 'duplicate':
      return reject('ARCHIVE_DUPLICATE_PATH', 'archive holds the same path twice', { entry: name });
    case 'collision':
      return reject(
        'ARCHIVE_PATH_COLLISION',
        'entry collides with another by case, Unicode normalization or type',
        { entry: name, existing: conflict.existing },
      );
    case 'inside-link':
      return reject(
        'ARCHIVE_LINK',
        `entry '${conflict.path}' lies inside link '${conflict.link}': nothing is written through a link`,
        { entry: name, link: conflict.link },
      );
    case 'link-over-directory':
      return reject(
        'ARCHIVE_LINK',
        conflict.inside === null
          ? `link '${conflict.path}' is also a directory entry of the archive`
          : `link '${conflict.path}' is also the directory of '${conflict.inside}': nothing is written through a link`,
        { entry: name, ...(conflict.inside === null ? {} : { inside: conflict.inside }) },
      );
  }
}

/**
 * The one gate every archive entry passes, whatever the format: path rules, duplicates and
 * collisions, links (judged against the whole archive once every entry is known), and the
 * entry/byte caps. Throws an IntakeRejection on the first violation.
 */
export class ArchiveGate {
  readonly #registry = new PathRegistry();
  readonly #tree = new LinkTree('archive');
  #links: readonly TreeLink[] | null = null;
  #entries = 0;
  #declaredBytes = 0;
  #writtenBytes = 0;
  #files = 0;
  #done = 0;

  constructor(
    private readonly caps: IntakeCaps,
    private readonly events: EventSink<IntakeEvent>,
  ) {}

  get entries(): number {
    return this.#entries;
  }

  /** Regular files written so far. */
  get files(): number {
    return this.#files;
  }

  get bytes(): number {
    return this.#writtenBytes;
  }

  /**
   * Admits one entry by name; returns its path segments (empty for the archive root itself). A
   * link's target follows through `admitLinkTarget`.
   */
  admit(name: string, type: 'file' | 'dir' | 'link', declaredSize: number): readonly string[] {
    this.#entries += 1;
    if (this.#entries > this.caps.maxEntries) {
      throw reject(
        'ARCHIVE_TOO_MANY_ENTRIES',
        `archive has more than ${this.caps.maxEntries} entries`,
      );
    }
    const checked = checkArchivePath(name, this.caps);
    if (!checked.ok) {
      throw reject(
        codeOfRule[checked.violation.rule],
        `entry rejected: ${checked.violation.reason}`,
        {
          entry: name,
        },
      );
    }
    if (checked.directory && type !== 'dir') {
      throw reject('ARCHIVE_PATH_INVALID', `a ${type} entry name ends with \`/\``, { entry: name });
    }
    if (checked.segments.length === 0 && type !== 'dir') {
      throw reject('ARCHIVE_PATH_INVALID', `a ${type} entry names the archive root`, {
        entry: name,
      });
    }
    if (checked.segments.length > 0) {
      const conflict = this.#registry.add(checked.segments, type);
      if (conflict !== null) throw conflictRejection(conflict, name);
      if (type !== 'link') this.#tree.add(checked.segments, type);
    }
    this.declare(declaredSize, name);
    return checked.segments;
  }

  /** The target of a link entry `admit` took: checked on its own now, against the tree later. */
  admitLinkTarget(segments: readonly string[], target: string): void {
    const name = segments.join('/');
    const problem = linkTargetProblem(name, target);
    if (problem !== null) throw reject('ARCHIVE_LINK', problem, { entry: name, target });
    this.#tree.addLink(segments, target);
  }

  /**
   * Every link of the archive once all entries are admitted, each checked against the whole tree
   * as it will be after `stripSingleTopFolder` (which ingestArchive always asks for); throws
   * ARCHIVE_LINK naming the first refused.
   */
  acceptedLinks(): readonly TreeLink[] {
    if (this.#links !== null) return this.#links;
    const top = this.#tree.singleTopFolder();
    const refusal = this.#tree.check(top === null ? [] : [top]);
    if (refusal !== null) {
      throw reject('ARCHIVE_LINK', refusal.message, { entry: refusal.link, ...refusal.details });
    }
    this.#links = this.#tree.links;
    return this.#links;
  }

  /**
   * Checks a second name the same entry carries (zip's Unicode Path extra field): it must pass the
   * path rules and agree with the primary name, or extractors that prefer it would write elsewhere.
   */
  admitAlias(alias: string, name: string): void {
    const checked = checkArchivePath(alias, this.caps);
    if (!checked.ok) {
      throw reject(
        codeOfRule[checked.violation.rule],
        `entry rejected: ${checked.violation.reason}`,
        {
          entry: name,
          alias,
        },
      );
    }
    if (alias !== name) {
      throw reject('ARCHIVE_PATH_INVALID', 'the Unicode path field disagrees with the entry name', {
        entry: name,
        alias,
      });
    }
  }

  /** Applies the single-file and total caps to a size the archive claims before any byte is read. */
  private declare(size: number, name: string): void {
    if (size > this.caps.maxFileBytes) {
      throw reject(
        'ARCHIVE_ENTRY_TOO_LARGE',
        `entry is larger than ${this.caps.maxFileBytes} bytes`,
        {
          entry: name,
        },
      );
    }
    this.#declaredBytes += size;
    if (this.#declaredBytes > this.caps.maxTotalBytes) {
      throw reject(
        'ARCHIVE_TOO_LARGE',
        `archive expands to more than ${this.caps.maxTotalBytes} bytes`,
      );
    }
  }

  /** Counts bytes actually written, independently of what the archive declared. */
  wrote(bytes: number): void {
    this.#writtenBytes += bytes;
    if (this.#writtenBytes > this.caps.maxTotalBytes) {
      throw reject(
        'ARCHIVE_TOO_LARGE',
        `archive expands to more than ${this.caps.maxTotalBytes} bytes`,
      );
    }
  }

  /** Counts a written entry; progress goes out every `progressEvery` entries (events are stored). */
  entryDone(type: 'file' | 'dir' | 'link'): void {
    if (type === 'file') this.#files += 1;
    this.#done += 1;
    if (this.#done % progressEvery === 0) this.reportProgress();
  }

  reportProgress(): void {
    this.events.emit({ type: 'intake.progress', entries: this.#done, bytes: this.#writtenBytes });
  }
}
