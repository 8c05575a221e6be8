/**
 * Remembers every path an archive or tree has produced so far and refuses a second entry that
 * would land on the same file: an exact duplicate, a case or Unicode-normalization twin (which
 * collide on macOS/Windows checkouts and confuse reviewers everywhere), or a file where a directory
 * was implied (or the reverse).
 */
export type RegistryConflict =
  | { readonly kind: 'duplicate'; readonly path: string }
  | { readonly kind: 'collision'; readonly path: string; readonly existing: string };

interface Known {
  readonly exact: string;
  readonly type: 'file' | 'dir';
  explicit: boolean;
}

const fold = (path: string): string => path.normalize('NFC').toLowerCase();

export class PathRegistry {
  readonly #known = new Map<string, Known>();

  /** Records the entry, or returns why it conflicts with an earlier one. */
  add(segments: readonly string[], type: 'file' | 'dir'): RegistryConflict | null {
    for (let depth = 1; depth < segments.length; depth += 1) {
      const prefix = segments.slice(0, depth).join('/');
      const known = this.#known.get(fold(prefix));
      if (known === undefined) {
        this.#known.set(fold(prefix), { exact: prefix, type: 'dir', explicit: false });
      } else if (known.type === 'file' || known.exact !== prefix) {
        return { kind: 'collision', path: prefix, existing: known.exact };
      }
    }
    const path = segments.join('/');
    const known = this.#known.get(fold(path));
    if (known === undefined) {
      this.#known.set(fold(path), { exact: path, type, explicit: true });
      return null;
    }
    if (known.exact !== path || known.type !== type) {
      return { kind: 'collision', path, existing: known.exact };
    }
    if (type === 'dir' && !known.explicit) {
      known.explicit = true;
      return null;
    }
    return { kind: 'duplicate', path };
  }
}
