import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

/**
 * Where this server's package managers fetch from, as configured on the host. Setup commands
 * run with a private HOME (the host's `~/.npmrc` is out of their view), so the same settings are
 * handed to them as variables, and the default egress allowlist is derived from them: the list
 * follows the configuration instead of being a list of host names to keep in step by hand.
 */
export interface ToolConfig {
  /** npm's configured registry (`npm config get registry`). */
  readonly npmRegistry: string;
  /**
   * pip's index then its extra indexes, from `PIP_INDEX_URL`/`PIP_EXTRA_INDEX_URL` or else pip's
   * own configuration files (pip.conf, `PIP_CONFIG_FILE`): only http(s) ones, a `file:` index is
   * on the server's disk, which setup does not see.
   */
  readonly pipIndexUrls: readonly string[];
  /** pip still uses the public index: no index URL replaces it (extra indexes only add to it). */
  readonly pipPublicIndex: boolean;
  /** `GOPROXY`'s proxy URLs (not `direct`/`off`); empty: the public module proxy. */
  readonly goProxies: readonly string[];
  /**
   * Registries and mirrors the server's cargo configuration (`$CARGO_HOME/config.toml`) names:
   * source replacements and alternative registries. Setup's cargo reads the same file (CARGO_HOME
   * passes into the sandbox); the allowlist needs their hosts.
   */
  readonly cargoSources: readonly string[];
  /** The Go checksum database's URL; null when `GOSUMDB=off`. */
  readonly goSumDb: string | null;
  /** Variables that point setup commands at the same places; none that carries credentials. */
  readonly env: Readonly<Record<string, string>>;
}

export const defaultNpmRegistry = 'https://registry.npmjs.org/';
const defaultGoSumDb = 'https://sum.golang.org';

const hasCredentials = (href: string): boolean => {
  try {
    const url = new URL(href);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
};

/** GOSUMDB is `name`, `name+key` or `name+key url`; the database is at the url, else https://name. */
function goSumDbUrl(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return defaultGoSumDb;
  if (text === 'off') return null;
  const [name = '', url] = text.split(/\s+/);
  return url ?? `https://${name.split('+')[0] ?? ''}`;
}

/**
 * pip's settings from its configuration files, as `pip config list` prints them
 * (`global.index-url='…'`): a name (`index-url`) to its value, the `install` section over
 * `global`. Its `:env:` lines are the variables, which are read as variables.
 */
export function pipFileSettings(listing: string | null): Map<string, string> {
  const found = new Map<string, { section: string; value: string }>();
  for (const line of (listing ?? '').split('\n')) {
    const match = /^(global|install)\.([\w-]+)='(.*)'$/.exec(line.trim());
    if (match === null) continue;
    const [, section = '', rawName = '', value = ''] = match;
    const name = rawName.replace(/_/g, '-');
    if (found.get(name)?.section === 'install' && section === 'global') continue;
    found.set(name, { section, value });
  }
  return new Map([...found].map(([name, { value }]) => [name, value]));
}

const pipVariables = [
  ['PIP_INDEX_URL', 'index-url'],
  ['PIP_EXTRA_INDEX_URL', 'extra-index-url'],
  ['PIP_TRUSTED_HOST', 'trusted-host'],
] as const;
const isHttpUrl = (u: string): boolean => /^https?:\/\//i.test(u);

/**
 * The URLs of `registry = "…"` (in `[source.*]`) and `index = "…"` (in `[registries.*]`) in a
 * cargo config.toml, without cargo's `sparse+`/`git+` prefix.
 */
export function cargoSourceUrls(configToml: string | null): string[] {
  const urls: string[] = [];
  let table = '';
  for (const raw of (configToml ?? '').split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header !== null) {
      table = header[1] ?? '';
      continue;
    }
    const key = /^(registry|index)\s*=\s*["']([^"']+)["']$/.exec(line);
    if (key === null) continue;
    const wanted = key[1] === 'registry' ? /^source\./ : /^registries\./;
    if (wanted.test(table)) urls.push((key[2] ?? '').replace(/^(?:sparse|git|registry)\+/, ''));
  }
  return urls.filter(isHttpUrl);
}

/** What the server's package managers read from their own files. */
export interface ToolFiles {
  /** `pip config list`'s output. */
  readonly pipListing?: string | null;
  /** `$CARGO_HOME/config.toml`. */
  readonly cargoConfig?: string | null;
}

/**
 * The configuration `env`, npm's registry and the package managers' own files describe (pure;
 * see `readToolConfig`). A variable wins over pip's files, as in pip.
 */
export function toolConfigFrom(
  env: Readonly<Record<string, string | undefined>>,
  npmRegistry: string | null,
  { pipListing = null, cargoConfig = null }: ToolFiles = {},
): ToolConfig {
  const registry = npmRegistry !== null && /^https?:\/\//.test(npmRegistry) ? npmRegistry : null;
  const fileSettings = pipFileSettings(pipListing);
  const pip = Object.fromEntries(
    pipVariables.map(([variable, name]) => [variable, env[variable] ?? fileSettings.get(name)]),
  ) as Record<(typeof pipVariables)[number][0], string | undefined>;
  const words = (value: string | undefined): string[] =>
    (value ?? '').split(/\s+/).filter((u) => u !== '');
  const pipIndex = words(pip.PIP_INDEX_URL).filter(isHttpUrl);
  const pipIndexUrls = [...pipIndex, ...words(pip.PIP_EXTRA_INDEX_URL).filter(isHttpUrl)];
  const goProxies = (env.GOPROXY ?? '')
    .split(/[,|]/)
    .map((u) => u.trim())
    .filter((u) => /^https?:\/\//.test(u));
  const passed: Record<string, string> = {};
  const pass = (name: string, value: string | undefined): void => {
    if (value !== undefined && value.trim() !== '' && !hasCredentials(value)) passed[name] = value;
  };
  pass('npm_config_registry', registry ?? defaultNpmRegistry);
  for (const name of ['GOPROXY', 'GOSUMDB', 'GONOSUMDB']) {
    const value = env[name];
    if (value === undefined || value.split(/[\s,|]+/).some(hasCredentials)) continue;
    pass(name, value);
  }
  // Setup's pip runs with a private HOME and none of the server's variables: it gets the index
  // settings the server's pip has, whichever way they were given.
  for (const [name] of pipVariables) {
    const value = pip[name];
    if (value === undefined || words(value).some(hasCredentials)) continue;
    pass(name, name === 'PIP_TRUSTED_HOST' ? value : words(value).filter(isHttpUrl).join(' '));
  }
  return {
    npmRegistry: registry ?? defaultNpmRegistry,
    pipIndexUrls,
    pipPublicIndex: pipIndex.length === 0,
    goProxies,
    cargoSources: cargoSourceUrls(cargoConfig),
    goSumDb: goSumDbUrl(env.GOSUMDB),
    env: passed,
  };
}

/** `npm config get registry`, or null when npm is missing or says nothing usable. */
async function npmConfiguredRegistry(): Promise<string | null> {
  const result = await execa('npm', ['config', 'get', 'registry'], {
    reject: false,
    timeout: 15_000,
    stdin: 'ignore',
    env: { npm_config_update_notifier: 'false' },
  });
  const value = typeof result.stdout === 'string' ? result.stdout.trim() : '';
  return result.exitCode === 0 && value !== '' ? value : null;
}

/**
 * `pip config list` (pip's files: /etc/pip.conf, the user's pip.conf, `PIP_CONFIG_FILE`), or null
 * when there is no pip. pip reads them itself; asking it keeps their order and places its own.
 */
async function pipConfigListing(
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  const result = await execa('python3', ['-m', 'pip', 'config', 'list'], {
    reject: false,
    timeout: 15_000,
    stdin: 'ignore',
    env: { ...env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
    extendEnv: false,
  });
  return result.exitCode === 0 && typeof result.stdout === 'string' ? result.stdout : null;
}

/** The configuration of a server whose environment is `env` (see `readToolConfig`). */
export async function loadToolConfig(
  env: Readonly<Record<string, string | undefined>>,
): Promise<ToolConfig> {
  const cargoHome =
    env.CARGO_HOME ?? (env.HOME === undefined ? null : path.join(env.HOME, '.cargo'));
  const [registry, pipListing, cargoConfig] = await Promise.all([
    npmConfiguredRegistry().catch(() => null),
    pipConfigListing(env).catch(() => null),
    cargoHome === null
      ? null
      : readFile(path.join(cargoHome, 'config.toml'), 'utf8').catch(() => null),
  ]);
  return toolConfigFrom(env, registry, { pipListing, cargoConfig });
}

let cached: Promise<ToolConfig> | undefined;

/** This server's configuration, read once per process (npm's start costs ~1 s). */
export function readToolConfig(): Promise<ToolConfig> {
  cached ??= loadToolConfig(process.env);
  return cached;
}
