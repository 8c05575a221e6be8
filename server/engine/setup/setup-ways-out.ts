import { failureCause } from '../shadow/failure-cause';

// A failed setup's reason says which requirement could not be installed and what a person can
// change: the task's setup commands, the index the server's package manager is configured with
// (setup gets the same setting, and the egress allowlist follows it), or the allowlist itself.

type Ecosystem = 'pip' | 'npm' | 'go' | 'cargo';

/** The requirement a package manager could not get, from its output. */
export function failedRequirement(output: string): string | null {
  const patterns: readonly RegExp[] = [
    // pip: "Could not find a version that satisfies the requirement tinypkg==0.1 (from versions: none)"
    /No matching distribution found for (\S+)/,
    /Could not find a version that satisfies the requirement (\S+)/,
    // npm 11: "npm error 404  The requested resource 'nope@*' could not be found …" (older: "'nope@*'
    // is not in this registry"), "npm error notarget No matching version found for is-number@99.0.0."
    /npm (?:error|ERR!) 404 +(?:The requested resource )?'([^']+)' (?:is not in this registry|could not be found)/,
    /npm (?:error|ERR!) 404 Not Found - GET \S+\/((?:@[^/\s]+\/)?[^/\s]+)(?: |$)/m,
    /npm (?:error|ERR!) notarget No matching version found for (\S+?)\.?$/m,
    // go: "go: example.com/x@v1.2.3: Get …" (go mod download)
    /^go: ([^\s@:]+@\S+?): /m,
  ];
  for (const pattern of patterns) {
    const name = pattern.exec(output)?.[1];
    if (name !== undefined) return decodeURIComponent(name);
  }
  const cause = failureCause(output);
  return cause?.kind === 'dependency' ? cause.name : null;
}

function ecosystemOf(command: readonly string[] | null): Ecosystem | null {
  const program = (command?.[0] ?? '').split('/').at(-1) ?? '';
  const args = command ?? [];
  if (/^pip\d*(\.\d+)?$/.test(program) || (/^python/.test(program) && args.includes('pip'))) {
    return 'pip';
  }
  if (['npm', 'npx', 'pnpm', 'yarn'].includes(program)) return 'npm';
  if (program === 'go') return 'go';
  if (program === 'cargo') return 'cargo';
  return null;
}

/** The server's setting for each package manager, how setup gets it, and its value now. */
function indexSetting(ecosystem: Ecosystem, toolEnv: Readonly<Record<string, string>>): string {
  switch (ecosystem) {
    case 'pip': {
      const now = toolEnv.PIP_INDEX_URL ?? 'none: pip uses the public index';
      return `point the server's pip at an index it can reach (PIP_INDEX_URL or PIP_EXTRA_INDEX_URL in its environment, or index-url in its pip.conf; now ${now}): setup's pip gets the same setting and the egress allowlist allows its host`;
    }
    case 'npm':
      return `point the server's npm at a registry it can reach (registry in its .npmrc, npm config set registry; now ${toolEnv.npm_config_registry ?? 'the public one'}): setup's npm gets the same registry and the egress allowlist allows its host`;
    case 'go':
      return `set GOPROXY in the server's environment (now ${toolEnv.GOPROXY ?? 'unset: the public module proxy'}): setup's go gets it and the egress allowlist allows its hosts`;
    case 'cargo':
      return "replace the crates.io source with a mirror in the server's cargo config.toml ($CARGO_HOME/config.toml): setup's cargo reads the same file and the egress allowlist allows the mirror's host";
  }
}

export interface SetupFailureFacts {
  /** The reason as the setup gave it ("setup command `…` exited with code 1"). */
  readonly error: string;
  readonly failedCommand: readonly string[] | null;
  readonly outputTail: string;
  readonly egress: readonly { readonly host: string; readonly allowed: boolean }[];
  /** The commands were detected from the tree (the task gave none). */
  readonly detected: boolean;
  /** The package-manager settings setup got (`ToolConfig.env`). */
  readonly toolEnv: Readonly<Record<string, string>>;
}

/**
 * The reason with the requirement that failed and the ways out, e.g. "…: tinypkg==0.1 could not be
 * installed. Ways out: …". Only for a package manager's failure; other reasons stay as they are.
 */
export function withWaysOut(facts: SetupFailureFacts): string {
  const ecosystem = ecosystemOf(facts.failedCommand);
  if (ecosystem === null) return facts.error;
  const requirement = failedRequirement(facts.outputTail);
  const what = requirement === null ? '' : `: ${requirement} could not be installed`;
  const refused = facts.egress.some((e) => !e.allowed);
  const ways = [
    facts.detected
      ? 'run no setup (give the task setupCommands [], or your own commands)'
      : "change the task's setupCommands (or give [] for no setup)",
    indexSetting(ecosystem, facts.toolEnv),
    ...(refused ? ['or add the refused host to SHADOWBOX_EGRESS_ALLOW'] : []),
  ];
  return `${facts.error}${what}. Ways out: ${ways.join('; ')}`;
}
