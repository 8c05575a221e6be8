/**
 * pytest's configuration as pytest finds it: the first of `pytest.toml`, `.pytest.toml`,
 * `pytest.ini`, `.pytest.ini`, `pyproject.toml` (`[tool.pytest]` or `[tool.pytest.ini_options]`),
 * `tox.ini` (`[pytest]`) and `setup.cfg` (`[tool:pytest]`) that holds pytest settings, in the
 * directory of each argument and then its parents (pytest's `locate_config`).
 */

/** A file of the project as the hypotheses' base has it; null where it is absent or unreadable. */
export type Read = (path: string) => Promise<string | null>;
/** The same, from files read beforehand (see `configPaths`). */
export type Files = (path: string) => string | null;

export interface PytestConfig {
  /** The file the settings came from; null where pytest runs on its defaults. */
  readonly source: string | null;
  /** Its directory: pytest's rootdir, which `testpaths` are relative to ('' for the root). */
  readonly dir: string;
  /** Option → its values (an INI value split as pytest splits it; a TOML array's strings). */
  readonly values: ReadonlyMap<string, readonly string[]>;
}

const configNames = [
  'pytest.toml',
  '.pytest.toml',
  'pytest.ini',
  '.pytest.ini',
  'pyproject.toml',
  'tox.ini',
  'setup.cfg',
];

/** An INI value as pytest's `args` options split it (shell-like words). */
const words = (value: string): string[] =>
  [...value.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');

/** The sections of an INI file, each key's value with its continuation lines (iniconfig's rules). */
export function iniSections(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    if (/^\s/.test(line) && section !== null && key !== null) {
      section.set(key, `${section.get(key) ?? ''}\n${trimmed}`);
      continue;
    }
    const head = /^\[([^\]]+)\]/.exec(trimmed);
    if (head !== null) {
      const name = (head[1] ?? '').trim();
      section = sections.get(name) ?? new Map<string, string>();
      sections.set(name, section);
      key = null;
      continue;
    }
    const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    if (entry !== null && section !== null) {
      key = (entry[1] ?? '').trim();
      section.set(key, entry[2] ?? '');
    }
  }
  return sections;
}

/** The string values of a TOML value's text: a string, or an array's strings. */
function tomlStrings(value: string, ini: boolean): string[] {
  const strings = [
    ...value.matchAll(/"""([\s\S]*?)"""|'''([\s\S]*?)'''|"((?:[^"\\]|\\.)*)"|'([^']*)'/g),
  ].map((m) => m[1] ?? m[2] ?? (m[3] === undefined ? (m[4] ?? '') : m[3].replace(/\\(.)/g, '$1')));
  // A string in `ini_options` is read as an INI value: `python_files = "check_*.py a_*.py"`.
  return ini && !value.trimStart().startsWith('[') ? strings.flatMap(words) : strings;
}

/** The keys of one TOML table, each value's text (arrays may span lines). */
export function tomlTable(text: string, table: string): Map<string, string> | null {
  let found: Map<string, string> | null = null;
  let current: string | null = null;
  let pending: { key: string; text: string; depth: number } | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (pending !== null) {
      pending.text += `\n${line}`;
      pending.depth += depthChange(line);
      if (pending.depth <= 0) {
        found?.set(pending.key, pending.text);
        pending = null;
      }
      continue;
    }
    const head = /^\[\s*([^[\]]+?)\s*\]$/.exec(line);
    if (head !== null) {
      current = (head[1] ?? '').replace(/["'\s]/g, '');
      if (current === table) found ??= new Map<string, string>();
      continue;
    }
    if (current !== table || found === null) continue;
    const entry = /^([A-Za-z0-9_.-]+|"[^"]*")\s*=\s*(.*)$/.exec(line);
    if (entry === null) continue;
    const key = (entry[1] ?? '').replace(/"/g, '');
    const value = entry[2] ?? '';
    const depth = depthChange(value);
    if (depth > 0) pending = { key, text: value, depth };
    else found.set(key, value);
  }
  if (pending !== null) found?.set(pending.key, pending.text);
  return found;
}

/** Brackets opened minus closed on a line, outside strings. */
function depthChange(line: string): number {
  const bare = line.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '');
  return (bare.match(/\[/g)?.length ?? 0) - (bare.match(/\]/g)?.length ?? 0);
}

/** A file's pytest settings, or null where it holds none (pytest then looks further). */
export function pytestSettingsIn(
  name: string,
  text: string,
): Map<string, readonly string[]> | null {
  const fromIni = (section: Map<string, string> | undefined): Map<string, string[]> | null =>
    section === undefined
      ? null
      : new Map([...section].map(([key, value]) => [key, words(value)] as const));
  const fromToml = (
    table: Map<string, string> | null,
    ini: boolean,
  ): Map<string, string[]> | null =>
    table === null
      ? null
      : new Map([...table].map(([key, value]) => [key, tomlStrings(value, ini)] as const));
  if (name === 'pytest.toml' || name === '.pytest.toml') {
    // Always the configuration, even empty (as pytest.ini is).
    return fromToml(tomlTable(text, 'pytest'), false) ?? new Map<string, string[]>();
  }
  if (name === 'pyproject.toml') {
    const native = tomlTable(text, 'tool.pytest');
    if (native !== null && native.size > 0) return fromToml(native, false);
    return fromToml(tomlTable(text, 'tool.pytest.ini_options'), true);
  }
  const sections = iniSections(text);
  if (name === 'pytest.ini' || name === '.pytest.ini') {
    return fromIni(sections.get('pytest')) ?? new Map<string, string[]>();
  }
  if (name === 'tox.ini') return fromIni(sections.get('pytest'));
  if (name === 'setup.cfg') return fromIni(sections.get('tool:pytest'));
  // A file given with `-c`: read by its kind.
  if (name.endsWith('.toml')) {
    return fromToml(tomlTable(text, 'pytest') ?? tomlTable(text, 'tool.pytest.ini_options'), true);
  }
  return fromIni(sections.get('pytest') ?? sections.get('tool:pytest'));
}

const parentDirs = (path: string): string[] => {
  const dirs = [path];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
    dirs.push(path.slice(0, at));
  }
  if (path !== '') dirs.push('');
  return dirs;
};

const joined = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/** The directories pytest looks in for these arguments, nearest first. */
function searchDirs(paths: readonly string[]): string[] {
  const dirs = (paths.length === 0 ? [''] : paths.slice(0, 8)).flatMap(parentDirs);
  return [...new Set(dirs)];
}

/** Every file `findPytestConfig` may read for these arguments. */
export const pytestConfigPaths = (paths: readonly string[], explicit: string | null): string[] => [
  ...(explicit === null ? [] : [explicit]),
  ...searchDirs(paths).flatMap((dir) => configNames.map((name) => joined(dir, name))),
];

/**
 * The configuration pytest uses for these path arguments (the project root without any), or
 * the one `-c` names. Files that cannot be read are absent to pytest as to this.
 */
export function findPytestConfig(
  files: Files,
  paths: readonly string[],
  explicit: string | null,
): PytestConfig {
  if (explicit !== null) {
    const text = files(explicit);
    const values = text === null ? null : pytestSettingsIn(explicit.split('/').pop() ?? '', text);
    const dir = explicit.includes('/') ? explicit.slice(0, explicit.lastIndexOf('/')) : '';
    if (values !== null) return { source: explicit, dir, values };
  }
  let pyproject: string | null = null;
  // pytest's order: each argument's directory and its parents, each with every file name.
  for (const dir of searchDirs(paths)) {
    for (const name of configNames) {
      const file = joined(dir, name);
      const text = files(file);
      if (text === null) continue;
      if (name === 'pyproject.toml') pyproject ??= file;
      const values = pytestSettingsIn(name, text);
      if (values !== null) return { source: file, dir, values };
    }
  }
  // A pyproject.toml without pytest settings still makes its directory the rootdir.
  const dir =
    pyproject?.includes('/') === true ? pyproject.slice(0, pyproject.lastIndexOf('/')) : '';
  return { source: null, dir, values: new Map() };
}
