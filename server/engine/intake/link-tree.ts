/**
 * Every entry of an archive or Git tree, so that its symbolic links can be judged against the
 * whole of it. A link is accepted only if its target, resolved lexically from the link's directory
 * and through every link on the way (as the kernel would, but without touching a disk), is a file
 * or directory of the same tree: never above the root, never missing, never the root or a directory
 * holding the link, never a loop, and no chain of directory links may lead back into itself.
 * Targets were already checked on their own (`linkTargetProblem`: relative, no `.git`, short), and
 * the path registry refused any entry lying inside a link.
 */
export interface TreeLink {
  readonly segments: readonly string[];
  /** Exactly as the archive or tree gives it. */
  readonly target: string;
}

export interface LinkRefusal {
  readonly link: string;
  readonly message: string;
  readonly details: Readonly<Record<string, string>>;
}

/** Most links one resolution may pass through, chains inside chains included (Linux's MAXSYMLINKS). */
export const maxLinkHops = 40;

interface LinkNode extends TreeLink {
  readonly kind: 'link';
  readonly path: string;
}

type Node = { readonly kind: 'file' | 'dir' } | LinkNode;

type Resolution =
  | {
      readonly ok: true;
      readonly segments: readonly string[];
      readonly kind: 'file' | 'dir';
      readonly hops: number;
    }
  | { readonly ok: false; readonly refusal: LinkRefusal };

const isPrefix = (prefix: readonly string[], of: readonly string[]): boolean =>
  prefix.length < of.length && prefix.every((segment, i) => segment === of[i]);

export class LinkTree {
  readonly #nodes = new Map<string, Node>([['', { kind: 'dir' }]]);
  readonly #links: LinkNode[] = [];
  readonly #topLevel = new Set<string>();
  readonly #resolved = new Map<string, Resolution>();
  #root: readonly string[] = [];

  /** `where` names the whole in messages: "'x' is not in the archive" / "the tree". */
  constructor(private readonly where: 'archive' | 'tree') {}

  get links(): readonly TreeLink[] {
    return this.#links;
  }

  add(segments: readonly string[], kind: 'file' | 'dir'): void {
    if (segments.length === 0) return;
    const path = this.#place(segments);
    if (!this.#nodes.has(path)) this.#nodes.set(path, { kind });
  }

  addLink(segments: readonly string[], target: string): void {
    const path = this.#place(segments);
    const link: LinkNode = { kind: 'link', path, segments, target };
    this.#nodes.set(path, link);
    this.#links.push(link);
  }

  /** The single top-level directory that extraction strips, or null when nothing is stripped. */
  singleTopFolder(): string | null {
    const [only, ...rest] = this.#topLevel;
    if (only === undefined || rest.length > 0) return null;
    return this.#nodes.get(only)?.kind === 'dir' ? only : null;
  }

  /**
   * The first link refused, in the order links were added, or null when all are accepted. `root`
   * is the directory that becomes the top of the result (the stripped folder), which no target may
   * climb out of even to come back in: after the strip, `../proj/x` would name a sibling of DIR.
   */
  check(root: readonly string[] = []): LinkRefusal | null {
    this.#root = root;
    this.#resolved.clear();
    for (const link of this.#links) {
      const resolution = this.#resolve(link, []);
      if (!resolution.ok) return resolution.refusal;
    }
    return this.#links.length === 0 ? null : this.#directoryCycle();
  }

  #place(segments: readonly string[]): string {
    if (segments[0] !== undefined) this.#topLevel.add(segments[0]);
    for (let depth = 1; depth < segments.length; depth += 1) {
      const prefix = segments.slice(0, depth).join('/');
      if (!this.#nodes.has(prefix)) this.#nodes.set(prefix, { kind: 'dir' });
    }
    return segments.join('/');
  }

  #refusal(link: LinkNode, message: string, extra: Record<string, string> = {}): Resolution {
    return {
      ok: false,
      refusal: { link: link.path, message, details: { target: link.target, ...extra } },
    };
  }

  /** Memoised: a link resolves to the same place whoever passes through it. */
  #resolve(link: LinkNode, chain: LinkNode[]): Resolution {
    const known = this.#resolved.get(link.path);
    if (known !== undefined) return known;
    if (chain.includes(link)) {
      const loop = [...chain.slice(chain.indexOf(link)), link].map((l) => `'${l.path}'`);
      return this.#refusal(link, `link '${link.path}' is in a loop of links (${loop.join(' → ')})`);
    }
    const first = chain[0];
    if (first !== undefined && chain.length >= maxLinkHops) {
      // Each link deeper adds a hop, so this chain is refused anyway; stopping here bounds the stack.
      return this.#refusal(
        first,
        `link '${first.path}' passes through more than ${maxLinkHops} links`,
      );
    }
    chain.push(link);
    const resolution = this.#walk(link, chain);
    chain.pop();
    this.#resolved.set(link.path, resolution);
    return resolution;
  }

  #walk(link: LinkNode, chain: LinkNode[]): Resolution {
    const { path, target } = link;
    const dangles = (missing: string) =>
      this.#refusal(link, `link '${path}' dangles: '${target}' is not in the ${this.where}`, {
        missing,
      });
    let at = link.segments.slice(0, -1);
    let kind: 'file' | 'dir' = 'dir';
    let hops = 1;
    for (const part of target.split('/')) {
      // `file/`, `file/.` and `file/x` all fail with ENOTDIR.
      if (kind === 'file') return dangles(`${at.join('/')}/${part}`);
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (at.length <= this.#root.length) {
          return this.#refusal(link, `link '${path}' points outside the tree (${target})`);
        }
        at = at.slice(0, -1);
        continue;
      }
      const next = [...at, part];
      const node = this.#nodes.get(next.join('/'));
      if (node === undefined) return dangles(next.join('/'));
      if (node.kind !== 'link') {
        at = next;
        kind = node.kind;
        continue;
      }
      const through = this.#resolve(node, chain);
      if (!through.ok) return through;
      hops += through.hops;
      if (hops > maxLinkHops) {
        return this.#refusal(link, `link '${path}' passes through more than ${maxLinkHops} links`);
      }
      at = [...through.segments];
      kind = through.kind;
    }
    if (kind === 'dir' && isPrefix(at, link.segments)) {
      const message =
        at.length <= this.#root.length
          ? `link '${path}' points to the root of the tree (${target})`
          : `link '${path}' points to '${at.join('/')}', a directory that holds it (${target})`;
      return this.#refusal(link, message);
    }
    return { ok: true, segments: at, kind, hops };
  }

  /**
   * Directory links whose targets hold each other (`a/l → ../b`, `b/m → ../a`) make the tree
   * infinite for every tool that follows links. Depth-first over directories and the directories
   * links resolve to; a directory met again while still open closes a cycle.
   */
  #directoryCycle(): LinkRefusal | null {
    const children = new Map<string, string[]>();
    for (const path of this.#nodes.keys()) {
      if (path === '') continue;
      const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      const siblings = children.get(parent);
      if (siblings === undefined) children.set(parent, [path]);
      else siblings.push(path);
    }
    const successors = (path: string): readonly string[] => {
      const node = this.#nodes.get(path);
      if (node?.kind !== 'link') return children.get(path) ?? [];
      const resolved = this.#resolved.get(path);
      return resolved?.ok === true && resolved.kind === 'dir' ? [resolved.segments.join('/')] : [];
    };
    const open = new Set<string>();
    const closed = new Set<string>();
    const rootPath = this.#root.join('/');
    const stack = [{ path: rootPath, next: successors(rootPath), index: 0 }];
    open.add(rootPath);
    for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
      const successor = frame.next[frame.index];
      frame.index += 1;
      if (successor === undefined) {
        stack.pop();
        open.delete(frame.path);
        closed.add(frame.path);
      } else if (open.has(successor)) {
        const cycle = stack
          .slice(stack.findIndex((f) => f.path === successor))
          .map((f) => f.path)
          .filter((p) => this.#nodes.get(p)?.kind === 'link');
        const [first = successor] = cycle;
        const names = [...cycle, first].map((p) => `'${p}'`).join(' → ');
        return {
          link: first,
          message: `link '${first}' is in a cycle of directory links (${names})`,
          details: { cycle: cycle.join(' ') },
        };
      } else if (!closed.has(successor)) {
        open.add(successor);
        stack.push({ path: successor, next: successors(successor), index: 0 });
      }
    }
    return null;
  }
}
