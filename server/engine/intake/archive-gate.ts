import type { AppErrorCode } from '../../errors/app-error';
import type { EventSink } from '../ports';
import { checkArchivePath, type PathRule } from './archive-policy';
import type { IntakeCaps } from './intake-caps';
import type { IntakeEvent } from './intake-events';
import { reject } from './intake-result';
import { PathRegistry } from './path-registry';

const progressEvery = 100;

const codeOfRule: Record<PathRule, AppErrorCode> = {
  traversal: 'ARCHIVE_PATH_TRAVERSAL',
  absolute: 'ARCHIVE_PATH_ABSOLUTE',
  invalid: 'ARCHIVE_PATH_INVALID',
  'too-deep': 'ARCHIVE_PATH_TOO_DEEP',
  'too-long': 'ARCHIVE_PATH_TOO_LONG',
  reserved: 'ARCHIVE_RESERVED_NAME',
};

/**
 * The one gate every archive entry passes, whatever the format: path rules, duplicates and
 * collisions, and the entry/byte caps. Throws an IntakeRejection on the first violation.
 */
export class ArchiveGate {
  readonly #registry = new PathRegistry();
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

  /** Admits one entry by name; returns its path segments (empty for the archive root itself). */
  admit(name: string, type: 'file' | 'dir', declaredSize: number): readonly string[] {
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
    if (checked.directory && type === 'file') {
      throw reject('ARCHIVE_PATH_INVALID', 'a file entry name ends with `/`', { entry: name });
    }
    if (checked.segments.length > 0) {
      const conflict = this.#registry.add(checked.segments, type);
      if (conflict?.kind === 'duplicate') {
        throw reject('ARCHIVE_DUPLICATE_PATH', 'archive holds the same path twice', {
          entry: name,
        });
      }
      if (conflict?.kind === 'collision') {
        throw reject(
          'ARCHIVE_PATH_COLLISION',
          'entry collides with another by case, Unicode normalization or type',
          { entry: name, existing: conflict.existing },
        );
      }
    }
    this.declare(declaredSize, name);
    return checked.segments;
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
  entryDone(type: 'file' | 'dir'): void {
    if (type === 'file') this.#files += 1;
    this.#done += 1;
    if (this.#done % progressEvery === 0) this.reportProgress();
  }

  reportProgress(): void {
    this.events.emit({ type: 'intake.progress', entries: this.#done, bytes: this.#writtenBytes });
  }
}
