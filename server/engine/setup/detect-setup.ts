import { posix } from 'node:path';
import { git } from '../workspace/git';
import { listTreeFiles } from '../workspace/tree-files';
import { dependencyGroup } from './python-groups';
import { detectCompiled } from './detect-build';
import type { DetectedBuild, Part, Root, SetupTree } from './detect-rule';

/** Largest manifest read (a package-lock.json of a big project is several megabytes). */
export const maxManifestBytes = 64 * 1024 * 1024;

/** The Git tree id of a commit: what the setup cache keys by (all the tracked files). */
export async function commitTreeId(gitDir: string, commit: string): Promise<string> {
  const id = await git({ gitDir, args: ['rev-parse', '--verify', `${commit}^{tree}`] });
  return id.toString('utf8').trim();
}

/**
 * The tree of a commit in the server-owned repository, for detection and the cache key: read from
 * the object store, never from a worktree that a run may have changed. Links and submodules are
 * not files here, so a manifest that is a symlink is not read.
 */
export async function commitSetupTree(gitDir: string, commit: string): Promise<SetupTree> {
  const sizes = new Map((await listTreeFiles(gitDir, commit)).map((f) => [f.path, f.size]));
  return {
    files: [...sizes.keys()],
    async read(path) {
      const size = sizes.get(path);
      if (size === undefined || size > maxManifestBytes) return null;
      const bytes = await git({ gitDir, args: ['cat-file', 'blob', `${commit}:${path}`] });
      return bytes.toString('utf8');
    },
  };
}

export interface SetupPlan {
  /** argv each, run in order in the workspace. */
  readonly commands: readonly (readonly string[])[];
  /** Workspace-relative directories that setup and builds write: never part of a change. */
  readonly outputs: readonly string[];
  /** Files whose contents key the setup cache: the lockfiles and manifests the rules read. */
  readonly manifests: readonly string[];
  /** Environment for the setup and every later run, used as is. */
  readonly env: Readonly<Record<string, string>>;
  /** Environment whose values are workspace-relative paths: the caller joins them to the workspace. */
  readonly workspaceEnv: Readonly<Record<string, string>>;
  /** One line per rule that fired or was passed over, shown on the task. */
  readonly reasons: readonly string[];
  /** The rebuild every run starts with, when setup builds (CMake, Meson, make); else null. */
  readonly build: DetectedBuild | null;
}

/**
 * What a fresh checkout needs before its tests can run, decided from the tree alone (no command
 * runs). Only the workspace root is looked at: a monorepo's subprojects are set up by whatever the
 * root's own tooling does (npm/pnpm/yarn workspaces, a Cargo or Go workspace, CMake's
 * add_subdirectory), never one by one. Several ecosystems at the root are all set up, in the fixed
 * order node, python, rust, go, then one compiled build (CMake, Meson or make). The test command,
 * when given, says whether a Makefile project builds through its tests.
 */
export async function detectSetup(
  tree: SetupTree,
  context: { readonly testCommand?: readonly string[] } = {},
): Promise<SetupPlan> {
  const files = new Set(tree.files);
  const has = (path: string): boolean => files.has(path);
  const root: Root = { tree, has, present: (...paths) => paths.filter(has) };
  const ecosystems = [
    await detectNode(root),
    await detectPython(root),
    await detectRust(root),
    detectGo(root),
  ];
  const parts = [...ecosystems, detectCompiled(root, ecosystems, context.testCommand)];
  const unique = (values: readonly string[]): string[] => [...new Set(values)];
  return {
    commands: parts.flatMap((p) => p.commands ?? []),
    outputs: unique(parts.flatMap((p) => p.outputs ?? [])),
    manifests: unique(parts.flatMap((p) => p.manifests ?? [])),
    env: Object.fromEntries(parts.flatMap((p) => Object.entries(p.env ?? {}))),
    workspaceEnv: Object.fromEntries(parts.flatMap((p) => Object.entries(p.workspaceEnv ?? {}))),
    reasons: reasonsOf(parts.flatMap((p) => p.reasons)),
    build: parts.find((p) => p.build !== undefined)?.build ?? null,
  };
}

/** Every plan says why, even when nothing at the root asks for a setup. */
const reasonsOf = (reasons: readonly string[]): readonly string[] =>
  reasons.length > 0
    ? reasons
    : [
        'no lockfile or manifest at the root (package-lock.json, pyproject.toml, requirements*.txt, Cargo.lock, go.sum, CMakeLists.txt, meson.build, Makefile) → no setup',
      ];

const show = (argv: readonly string[]): string => argv.join(' ');

type NodeManager = 'npm' | 'pnpm' | 'yarn';
const nodeLockfiles: readonly { file: string; manager: NodeManager }[] = [
  { file: 'npm-shrinkwrap.json', manager: 'npm' },
  { file: 'package-lock.json', manager: 'npm' },
  { file: 'pnpm-lock.yaml', manager: 'pnpm' },
  { file: 'yarn.lock', manager: 'yarn' },
];

async function declaredManager(root: Root): Promise<string | null> {
  const text = await root.tree.read('package.json');
  if (text === null) return null;
  try {
    const manifest = JSON.parse(text) as { packageManager?: unknown };
    return typeof manifest.packageManager === 'string'
      ? (manifest.packageManager.split('@')[0] ?? null)
      : null;
  } catch {
    return null;
  }
}

// A lockfile pins exactly what is installed; without one an install would resolve afresh, so a
// package.json alone installs nothing. One install only: two managers would fight over node_modules,
// so package.json's `packageManager` picks among several lockfiles, else the order above does.
async function detectNode(root: Root): Promise<Part> {
  const locks = nodeLockfiles.filter((l) => root.has(l.file));
  if (!root.has('package.json')) {
    return locks.length === 0
      ? { reasons: [] }
      : { reasons: [`${locks[0]?.file ?? ''} without package.json → nothing installed`] };
  }
  if (locks.length === 0) {
    return {
      outputs: ['node_modules'],
      reasons: [
        'package.json without a lockfile → nothing installed (a lockfile pins the install)',
      ],
    };
  }
  const declared = await declaredManager(root);
  const lock = locks.find((l) => l.manager === declared) ?? locks[0];
  if (lock === undefined) return { reasons: [] };
  let argv: string[];
  let because = lock.file;
  const configs: string[] = root.present('.npmrc');
  if (lock.manager === 'npm') argv = ['npm', 'ci', '--no-audit', '--no-fund'];
  else if (lock.manager === 'pnpm') {
    argv = ['pnpm', 'install', '--frozen-lockfile'];
    configs.push(...root.present('pnpm-workspace.yaml', '.pnpmfile.cjs'));
  } else {
    // Yarn Berry (2+) refuses v1's flag; its lockfile starts with a __metadata block.
    const lockText = (await root.tree.read('yarn.lock')) ?? '';
    const berry = root.has('.yarnrc.yml') || /^__metadata:/m.test(lockText);
    argv = berry ? ['yarn', 'install', '--immutable'] : ['yarn', 'install', '--frozen-lockfile'];
    if (berry) because += root.has('.yarnrc.yml') ? ' + .yarnrc.yml (Yarn Berry)' : ' (Yarn Berry)';
    configs.push(...root.present('.yarnrc.yml', '.yarnrc'));
  }
  const passedOver = locks.filter((l) => l !== lock).map((l) => l.file);
  return {
    commands: [argv],
    outputs: ['node_modules'],
    manifests: [
      'package.json',
      ...locks.filter((l) => l.manager === lock.manager).map((l) => l.file),
      ...configs,
    ],
    reasons: [
      `${because} → ${show(argv)}` +
        (passedOver.length > 0 ? ` (${passedOver.join(', ')} not used)` : ''),
    ],
  };
}

const arrayOfTables = '\u0000';

/** Tables and their keys in a TOML file, enough to read pyproject.toml's shape (not its values). */
export function tomlKeys(text: string): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>([['', new Set()]]);
  const keyName = (raw: string): string =>
    raw
      .split('.')
      .map((part) => part.trim().replace(/^["']|["']$/g, ''))
      .join('.');
  let table = '';
  let depth = 0;
  let inlineKey: string | null = null;
  // Strings go first (they may hold brackets, '=' or '#'), then comments.
  const stripped = text
    .replace(/"""[\s\S]*?"""|'''[\s\S]*?'''/g, '""')
    .replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, (s) => (/^["'][\w.-]+["']$/.test(s) ? s : '""'));
  for (const rawLine of stripped.split('\n')) {
    const line = rawLine.replace(/#.*$/, '').trim();
    if (depth === 0) {
      const header = /^\[\s*([^[\]]+?)\s*\]$/.exec(line);
      if (header?.[1] !== undefined) {
        table = keyName(header[1]);
        if (!tables.has(table)) tables.set(table, new Set());
        continue;
      }
      if (line.startsWith('[[')) {
        table = arrayOfTables; // never one we read: its keys go nowhere
        continue;
      }
    }
    const keys = tables.get(table) ?? new Set<string>(); // a throwaway set for arrays of tables
    let rest = line;
    const key = /^([\w"'.\s-]+?)\s*=/.exec(rest);
    if (depth === 0 && key?.[1] !== undefined) {
      const name = keyName(key[1]);
      keys.add(name);
      rest = rest.slice(key[0].length);
      inlineKey = rest.trimStart().startsWith('{') ? name : null;
    }
    for (const char of rest) {
      if (char === '[' || char === '{') depth += 1;
      else if (char === ']' || char === '}') depth = Math.max(0, depth - 1);
    }
    if (inlineKey !== null) {
      // Keys of an inline table: `name = …` right after `{` or `,` at its top level.
      for (const match of rest.matchAll(/[{,]\s*([\w"'.-]+)\s*=/g)) {
        if (match[1] !== undefined) keys.add(`${inlineKey}.${keyName(match[1])}`);
      }
      if (depth === 0) inlineKey = null;
    }
  }
  return tables;
}

// What the tests need and nothing more: docs and dev tools (linters, formatters, release helpers)
// are not needed to run tests and their pins are what most often breaks an install.
const testExtras = ['test', 'tests', 'testing'];
const normalizedExtra = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

function pyprojectShape(text: string): {
  installable: boolean;
  extras: string[];
  group: { name: string; requirements: string[] } | null;
} {
  const tables = tomlKeys(text);
  const declared = [
    ...(tables.get('project.optional-dependencies') ?? []),
    ...[...(tables.get('project') ?? [])]
      .filter((k) => k.startsWith('optional-dependencies.'))
      .map((k) => k.slice('optional-dependencies.'.length)),
  ];
  const extras = testExtras.flatMap((want) =>
    declared.filter((name) => normalizedExtra(name) === want).slice(0, 1),
  );
  const groupName = [...(tables.get('dependency-groups') ?? [])].find((name) =>
    ['test', 'tests'].includes(normalizedExtra(name)),
  );
  const requirements = groupName === undefined ? null : dependencyGroup(text, groupName);
  return {
    installable: tables.has('build-system') || tables.has('project'),
    extras,
    group:
      groupName === undefined || requirements === null ? null : { name: groupName, requirements },
  };
}

/** Files named by `-r`/`-c` lines, resolved as pip does (relative to the including file). */
async function requirementIncludes(root: Root, start: readonly string[]): Promise<string[]> {
  const seen = new Set(start);
  const queue = [...start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const text = (await root.tree.read(file)) ?? '';
    for (const match of text.matchAll(
      /^\s*(?:-r|-c|--requirement|--constraint)(?:\s*=\s*|\s*)(\S+)/gm,
    )) {
      const target = posix.normalize(posix.join(posix.dirname(file), match[1] ?? ''));
      if (!target.startsWith('../') && root.has(target) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen].filter((f) => !start.includes(f));
}

const rootFiles = (root: Root, pattern: RegExp): string[] =>
  root.tree.files.filter((f) => !f.includes('/') && pattern.test(f)).sort();

// requirements.txt, then the test ones; others (dev, docs, lint, per-platform, minimum-version
// pins) are not what the tests need and can conflict with these. A task that needs them says so
// with its own setup commands.
async function detectPython(root: Root): Promise<Part> {
  const requirements = rootFiles(root, /^(?:requirements.*|tests?[-_]requirements.*)\.txt$/);
  const chosen = [
    ...requirements.filter((f) => f === 'requirements.txt'),
    ...requirements.filter(
      (f) =>
        /^requirements[-_.]?(tests?|testing)\b.*\.txt$/.test(f) ||
        /^tests?[-_]requirements\b.*\.txt$/.test(f),
    ),
  ];
  const pyprojectText = await root.tree.read('pyproject.toml');
  if (pyprojectText === null && requirements.length === 0) return { reasons: [] };
  const shape = pyprojectText === null ? null : pyprojectShape(pyprojectText);
  // A setup.py is the pre-pyproject way to say the same thing.
  const installable = (shape?.installable ?? false) || root.has('setup.py');
  const found = [...root.present('pyproject.toml'), ...requirements].join(', ');
  if (!installable && chosen.length === 0) {
    return {
      reasons: [`${found} → nothing to install (no project, build system or requirements)`],
    };
  }
  const pip = '.venv/bin/pip';
  // --copies: a venv's python is otherwise a link to /usr/bin, and the setup cache restores no
  // link that leaves the worktree. The copy is the small launcher (libpython stays shared).
  const commands: string[][] = [['python3', '-m', 'venv', '--copies', '.venv']];
  if (chosen.length > 0) commands.push([pip, 'install', ...chosen.flatMap((f) => ['-r', f])]);
  if (installable) {
    const extras = shape?.extras ?? [];
    commands.push([pip, 'install', '-e', extras.length > 0 ? `.[${extras.join(',')}]` : '.']);
  }
  const group = shape?.group ?? null;
  if (group !== null && group.requirements.length > 0) {
    commands.push([pip, 'install', ...group.requirements]);
  }
  const skipped = requirements.filter((f) => !chosen.includes(f));
  return {
    commands,
    outputs: ['.venv'],
    manifests: [
      ...root.present('pyproject.toml'),
      ...chosen,
      ...(await requirementIncludes(root, chosen)),
      ...root.present('setup.cfg', 'setup.py', '.python-version'),
    ],
    reasons: [
      `${found} → ${commands.map(show).join('; ')}` +
        (group === null ? '' : ` (dependency group ${group.name})`) +
        (skipped.length > 0 ? ` (${skipped.join(', ')} not installed)` : ''),
    ],
  };
}

// Only registry packages need fetching before an offline build; path and git dependencies do not
// go through `cargo fetch`'s registry download. The toolchain file picks the compiler (rustup).
async function detectRust(root: Root): Promise<Part> {
  if (!root.has('Cargo.toml')) return { reasons: [] };
  const manifests = [
    'Cargo.toml',
    ...root.present('Cargo.lock', 'rust-toolchain.toml', 'rust-toolchain', '.cargo/config.toml'),
  ];
  const lock = await root.tree.read('Cargo.lock');
  if (lock === null || !/^source = "(registry|sparse)\+/m.test(lock)) {
    const why = lock === null ? 'no Cargo.lock' : 'Cargo.lock has no registry packages';
    return { outputs: ['target'], manifests, reasons: [`Cargo.toml: ${why} → nothing to fetch`] };
  }
  const argv = ['cargo', 'fetch', '--locked'];
  return {
    commands: [argv],
    outputs: ['target'],
    manifests,
    reasons: [`Cargo.lock with registry packages → ${show(argv)}`],
  };
}

// Go keeps its module and build caches in the worktree (under .shadowbox, which every run keeps
// and no change includes), so they survive between runs, and -modcacherw makes the module cache
// deletable (Go writes it read-only).
function detectGo(root: Root): Part {
  if (!root.has('go.mod')) return { reasons: [] };
  const env = {
    env: { GOFLAGS: '-modcacherw' },
    workspaceEnv: { GOMODCACHE: '.shadowbox/go/mod', GOCACHE: '.shadowbox/go/build' },
    outputs: ['.shadowbox/go'],
    manifests: ['go.mod', ...root.present('go.sum', 'go.work', 'go.work.sum')],
  };
  if (!root.has('go.sum'))
    return { ...env, reasons: ['go.mod without go.sum → nothing to download'] };
  const argv = ['go', 'mod', 'download'];
  return { ...env, commands: [argv], reasons: [`go.sum → ${show(argv)}`] };
}
