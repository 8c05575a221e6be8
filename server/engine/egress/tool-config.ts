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
  /** `PIP_INDEX_URL` then `PIP_EXTRA_INDEX_URL`'s URLs; empty: the public index. */
  readonly pipIndexUrls: readonly string[];
  /** `GOPROXY`'s proxy URLs (not `direct`/`off`); empty: the public module proxy. */
  readonly goProxies: readonly string[];
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

/** The configuration `env` and npm's registry describe (pure; see `readToolConfig`). */
export function toolConfigFrom(
  env: Readonly<Record<string, string | undefined>>,
  npmRegistry: string | null,
): ToolConfig {
  const registry = npmRegistry !== null && /^https?:\/\//.test(npmRegistry) ? npmRegistry : null;
  const pipIndexUrls = [env.PIP_INDEX_URL, ...(env.PIP_EXTRA_INDEX_URL ?? '').split(/\s+/)]
    .map((u) => u?.trim() ?? '')
    .filter((u) => u !== '');
  const goProxies = (env.GOPROXY ?? '')
    .split(/[,|]/)
    .map((u) => u.trim())
    .filter((u) => /^https?:\/\//.test(u));
  const passed: Record<string, string> = {};
  const pass = (name: string, value: string | undefined): void => {
    if (value !== undefined && value.trim() !== '' && !hasCredentials(value)) passed[name] = value;
  };
  pass('npm_config_registry', registry ?? defaultNpmRegistry);
  for (const name of ['PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'GOPROXY', 'GOSUMDB', 'GONOSUMDB']) {
    const value = env[name];
    if (value === undefined || value.split(/[\s,|]+/).some(hasCredentials)) continue;
    pass(name, value);
  }
  return {
    npmRegistry: registry ?? defaultNpmRegistry,
    pipIndexUrls,
    goProxies,
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

let cached: Promise<ToolConfig> | undefined;

/** This server's configuration, read once per process (npm's start costs ~1 s). */
export function readToolConfig(): Promise<ToolConfig> {
  cached ??= npmConfiguredRegistry()
    .catch(() => null)
    .then((registry) => toolConfigFrom(process.env, registry));
  return cached;
}
