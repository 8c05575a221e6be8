import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isUnder, withoutNested } from './sandbox-root';

/**
 * What of `/etc` a sandbox sees: what the dynamic loader, name resolution of `localhost`, TLS,
 * time zones, MIME and `file` databases and the Debian toolchains (alternatives, Java, Maven,
 * Python, Perl, git) read. Not passwd/group/hosts (each run gets its own, naming only itself and
 * loopback), and nothing with secrets or the host's identity (shadow, ssh, machine-id, sudoers,
 * package manager credentials, other services' configuration).
 */
export const etcEntries = [
  'alternatives',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'fonts',
  'gai.conf',
  'gitconfig',
  'host.conf',
  'inputrc',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'locale.alias',
  'localtime',
  'magic',
  'magic.mime',
  'maven',
  'mime.types',
  'networks',
  'nsswitch.conf',
  'os-release',
  'perl',
  'protocols',
  'services',
  'sgml',
  // Not all of /etc/ssl: its private/ holds the host's keys (the run is uid 0 to the host).
  'ssl/certs',
  'ssl/openssl.cnf',
  'terminfo',
  'timezone',
  'xml',
] as const;

/** Entries of `/etc` matched by prefix: versioned toolchain directories (`python3.11`, `java-17-openjdk`). */
const etcPrefixes = ['python3', 'java-'] as const;

/** The top-level directories of a Debian system that programs and libraries come from. */
const systemDirs = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

export interface RootPathsOptions {
  /** The run's environment: toolchain locators (CARGO_HOME, PYENV_ROOT…) and PATH. */
  readonly env: Readonly<Record<string, string>>;
  /** Never shown, whatever else asks for it: the data directory. */
  readonly hidden: readonly string[];
  /** Operator-added read-only paths (SHADOWBOX_SANDBOX_RO_PATHS). */
  readonly extra?: readonly string[];
  /** The root to read (tests point it at a fake tree). */
  readonly fsRoot?: string;
  /**
   * The workspace's absolute path (the same inside the sandbox): the run's PATH then begins with
   * the project's own toolchain, its `node_modules/.bin` and `.venv/bin`, whether or not setup has
   * made them yet.
   */
  readonly workspace?: string;
}

export interface RootPaths {
  readonly readOnly: string[];
  readonly symlinks: (readonly [string, string])[];
  /**
   * The run's PATH: the workspace's own toolchain directories, then the entries of the given PATH
   * that the sandbox shows, in order.
   */
  readonly path: string;
}

/** The workspace's own program directories, first on a run's PATH. */
export const workspaceBins = ['node_modules/.bin', '.venv/bin'] as const;

const inNodeModules = (dir: string): boolean => dir.split('/').includes('node_modules');

/** Variables naming a toolchain's own directory tree. */
export const toolchainVariables = [
  'RUSTUP_HOME',
  'CARGO_HOME',
  'PYENV_ROOT',
  'GOROOT',
  'JAVA_HOME',
];

const pathEntries = (value: string | undefined): string[] =>
  (value ?? '').split(':').filter((dir) => path.isAbsolute(dir));

const homes = /^(\/root|\/home\/[^/]+)(\/|$)/;

/**
 * The directory tree a PATH entry's programs come from: for a home, the dot-directory holding it
 * (`~/.pyenv/shims` → `~/.pyenv`, where its interpreters live; `~/bin` stays itself), elsewhere the
 * parent of a `bin` (`/opt/jdk/bin` → `/opt/jdk`). Never a package's `node_modules/.bin`: its
 * links point into a tree of some other project (the project's own is in its workspace).
 */
export function toolchainRootOf(entry: string): string | null {
  const dir = path.resolve(entry);
  if (systemDirs.some((system) => isUnder(dir, system))) return null;
  if (inNodeModules(dir)) return null;
  const home = homes.exec(dir);
  if (home?.[1] !== undefined) {
    const [first] = path.relative(home[1], dir).split('/');
    if (first === undefined || first === '') return null;
    return first.startsWith('.') ? path.join(home[1], first) : dir;
  }
  return ['bin', 'sbin', 'shims'].includes(path.basename(dir)) ? path.dirname(dir) : dir;
}

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * The read-only part of a sandbox's root on this machine. System directories that are links
 * (merged /usr: `/bin → usr/bin`) become links; toolchains named by the environment (and node's
 * own prefix) are bound whole, unless they lie in a hidden directory; PATH keeps only the entries
 * the sandbox can see, so a run never resolves a program the host has and the sandbox lacks.
 */
export function sandboxRootPaths(options: RootPathsOptions): RootPaths {
  const fsRoot = options.fsRoot ?? '/';
  const at = (p: string): string => path.join(fsRoot, p);
  const hidden = options.hidden.map((p) => path.resolve(p));
  const visible = (p: string): boolean => !hidden.some((h) => isUnder(p, h) || isUnder(h, p));

  const readOnly: string[] = [];
  const symlinks: (readonly [string, string])[] = [];
  for (const dir of systemDirs) {
    const stats = (() => {
      try {
        return lstatSync(at(dir));
      } catch {
        return null;
      }
    })();
    if (stats === null) continue;
    if (stats.isSymbolicLink()) symlinks.push([dir, readlinkSync(at(dir))]);
    else if (stats.isDirectory()) readOnly.push(dir);
  }
  for (const entry of etcEntries)
    if (existsSync(at(`/etc/${entry}`))) readOnly.push(`/etc/${entry}`);
  for (const entry of readdirSync(at('/etc'))) {
    if (etcPrefixes.some((prefix) => entry.startsWith(prefix))) readOnly.push(`/etc/${entry}`);
  }

  const toolchains: string[] = [];
  for (const name of toolchainVariables) {
    const value = options.env[name];
    if (value !== undefined && path.isAbsolute(value) && existsSync(at(value))) {
      toolchains.push(value);
    }
  }
  for (const entry of pathEntries(options.env.PATH)) {
    const toolchain = toolchainRootOf(entry);
    if (toolchain !== null && existsSync(at(toolchain))) toolchains.push(toolchain);
  }
  // node's own prefix (e.g. ~/.nvm/versions/node/v20): npm, npx and node itself live there.
  toolchains.push(path.dirname(path.dirname(process.execPath)));
  for (const p of options.extra ?? []) if (existsSync(at(p))) toolchains.push(p);
  for (const p of toolchains) {
    const resolved = real(at(p));
    if (visible(p) && (resolved === null || visible(`/${path.relative(fsRoot, resolved)}`))) {
      readOnly.push(path.resolve(p));
    }
  }

  const shown = withoutNested(readOnly);
  const shownAt = (dir: string): boolean => shown.some((p) => isUnder(dir, p));
  const inRoot = (dir: string): boolean =>
    visible(dir) &&
    (shownAt(dir) ||
      symlinks.some(([link, target]) => isUnder(dir, link) && shownAt(path.resolve('/', target))));
  // Never a node_modules/.bin of the host's: npm and npx put Shadowbox's own first on the server's
  // PATH, and it may lie inside a shown tree (a global install under node's prefix or /usr).
  const host = pathEntries(options.env.PATH).filter((dir) => inRoot(dir) && !inNodeModules(dir));
  return {
    readOnly: shown,
    symlinks,
    path: [...new Set([...workspacePath(options.workspace), ...host])].join(':'),
  };
}

function workspacePath(workspace: string | undefined): string[] {
  if (workspace === undefined) return [];
  if (!path.isAbsolute(workspace)) {
    throw new Error(`sandboxRootPaths: workspace must be an absolute path, not '${workspace}'`);
  }
  return workspaceBins.map((bin) => path.join(workspace, bin));
}
