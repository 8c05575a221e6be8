/**
 * Remembers every path an archive or tree has produced so far and refuses a second entry that
 * would land on the same file: an exact duplicate, a case or Unicode-normalization twin (which
 * collide on macOS/Windows checkouts and confuse reviewers everywhere), a file where a directory
 * was implied (or the reverse), and anything inside a symbolic link (which would be written through
 * it), whichever of the link and the entry comes first.
 */
export type RegistryConflict =
  | { readonly kind: 'duplicate'; readonly path: string }
  | { readonly kind: 'collision'; readonly path: string; readonly existing: string }
  | { readonly kind: 'inside-link'; readonly path: string; readonly link: string }
  /** `inside` is an entry that made the path a directory, null for a directory entry itself. */
  | { readonly kind: 'link-over-directory'; readonly path: string; readonly inside: string | null };

export type RegistryType = 'file' | 'dir' | 'link';

interface Known {
  readonly exact: string;
  readonly type: RegistryType;
  explicit: boolean;
  /** For a directory only implied so far: the first entry inside it. */
  readonly via: string | null;
}

const fold = (path: string): string => path.normalize('NFC').toLowerCase();

export class PathRegistry {
  readonly #known = new Map<string, Known>();

  /** Records the entry, or returns why it conflicts with an earlier one. */
  add(segments: readonly string[], type: RegistryType): RegistryConflict | null {
    const path = segments.join('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      const prefix = segments.slice(0, depth).join('/');
      const known = this.#known.get(fold(prefix));
      if (known === undefined) {
        this.#known.set(fold(prefix), { exact: prefix, type: 'dir', explicit: false, via: path });
      } else if (known.exact !== prefix || known.type === 'file') {
        return { kind: 'collision', path: prefix, existing: known.exact };
      } else if (known.type === 'link') {
        return { kind: 'inside-link', path, link: prefix };
      }
    }
    const known = this.#known.get(fold(path));
    if (known === undefined) {
      this.#known.set(fold(path), { exact: path, type, explicit: true, via: null });
      return null;
    }
    if (known.exact !== path) return { kind: 'collision', path, existing: known.exact };
    const linkAndDirectory = [known.type, type].sort().join(' ') === 'dir link';
    if (linkAndDirectory) {
      const inside = known.type === 'dir' && !known.explicit ? known.via : null;
      return { kind: 'link-over-directory', path, inside };
    }
    if (known.type !== type) return { kind: 'collision', path, existing: known.exact };
    if (type === 'dir' && !known.explicit) {
      known.explicit = true;
      return null;
    }
    return { kind: 'duplicate', path };
  }
}
