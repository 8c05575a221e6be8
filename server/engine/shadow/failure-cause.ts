// Why a test run told nothing, from the tail of its output: a dependency that tests (which run
// offline) could not fetch, or a program that is not there. "Could not be read" is what is left
// when neither explains it.

/** What a task's setup did, as far as the cause of a later failure goes. */
export interface SetupFacts {
  readonly commands: readonly (readonly string[])[];
  /** Every host setup asked to reach; `allowed: false` ones the egress allowlist refused. */
  readonly egress: readonly {
    readonly host: string;
    readonly port: number;
    readonly allowed: boolean;
  }[];
}

export type FailureCause =
  | {
      readonly kind: 'dependency';
      readonly ecosystem: 'go' | 'cargo';
      /** The module or crate, as the tool named it. */
      readonly name: string;
      readonly message: string;
    }
  | { readonly kind: 'missing-tool'; readonly name: string; readonly message: string };

interface Dependency {
  readonly ecosystem: 'go' | 'cargo';
  readonly name: string;
  /** Why it is not there, in the tool's terms: "module lookup disabled by GOPROXY=off". */
  readonly detail: string;
  /** The setup command that fetches it. */
  readonly fetch: string;
  /** The project's own files lack it (a go.sum entry): no setup helps until they have it. */
  readonly projectFix?: string;
}

// Go 1.19: "go: downloading example.com/x v1.2.3" then "app.go:3:8: module lookup disabled by
// GOPROXY=off"; `go mod download` and newer releases name it: "example.com/x@v1.2.3: module …".
const goLookupOff = /(?:^|\s)(?:([^\s@:]+)@\S+: )?module lookup disabled by GOPROXY=off/m;
const goDownloading = /^go: downloading (\S+) \S+$/m;
const goUnreachable = /(?:^|\s)([^\s@:]+)@\S+: Get "https?:\/\/([^/"]+)[^"]*": (.+)$/m;
const goMissingSum = /missing go\.sum entry for module providing package (\S+)/;
const cargoOffline = /^error: no matching package named `([^`]+)` found$/m;
const cargoNotDownloaded = /^error: failed to download `([^`\s]+)[^`]*`$/m;
const cargoUnreachable = /^error: failed to get `([^`]+)` as a dependency/m;
const cargoFetchFailure =
  /failed to download from `https?:\/\/([^/`]+)[^`]*`\s*\n(?:\s*\n)*Caused by:\s*\n\s*(.+)$/m;

const offline = 'tests run offline';

function dependencyOf(output: string): Dependency | null {
  const sum = goMissingSum.exec(output);
  if (sum?.[1] !== undefined) {
    return {
      ecosystem: 'go',
      name: sum[1],
      detail: 'go.sum has no entry for it',
      fetch: 'go mod download',
      projectFix: "add it to the project's go.sum (go mod tidy) and commit it",
    };
  }
  const off = goLookupOff.exec(output);
  if (off !== null) {
    const name = off[1] ?? goDownloading.exec(output)?.[1] ?? 'a required module';
    return { ecosystem: 'go', name, detail: offline, fetch: 'go mod download' };
  }
  const unreachable = goUnreachable.exec(output);
  if (unreachable?.[1] !== undefined) {
    const [, name, host = '', why = ''] = unreachable;
    return {
      ecosystem: 'go',
      name,
      detail: `${host} could not be reached: ${why.trim()}`,
      fetch: 'go mod download',
    };
  }
  const crate =
    cargoOffline.exec(output)?.[1] ??
    cargoNotDownloaded.exec(output)?.[1] ??
    cargoUnreachable.exec(output)?.[1];
  if (crate !== undefined) {
    const fetchFailure = cargoFetchFailure.exec(output);
    const detail =
      fetchFailure === null
        ? offline
        : `${fetchFailure[1] ?? 'the registry'} could not be reached: ${(fetchFailure[2] ?? '').trim()}`;
    return { ecosystem: 'cargo', name: crate, detail, fetch: 'cargo fetch' };
  }
  return null;
}

/** "mocha: not found", "No module named pytest", "Cannot find module 'x'": what was missing. */
export function missingThing(output: string): string | null {
  const patterns: readonly RegExp[] = [
    /^(?:\S*: )?(?:(?:line )?\d+: )?([\w@./+-]+): (?:command )?not found$/m,
    /No module named '?([\w.]+)'?/,
    /Cannot find module '([^']+)'/,
    /error: no such command: `([^`]+)`/,
    /ModuleNotFoundError: No module named '([^']+)'/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(output);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

const showArgv = (argv: readonly string[]): string => argv.join(' ');

/** What setup did about it: refused hosts first (the usual cause), else what it ran. */
function setupClause(dependency: Dependency, setup: SetupFacts | null | undefined): string {
  if (setup === undefined) return '';
  if (setup === null || setup.commands.length === 0) {
    return `; this task ran no setup (give it setupCommands [["${dependency.fetch.split(' ').join('", "')}"]], or leave setupCommands out to have them detected)`;
  }
  const refused = setup.egress.filter((e) => !e.allowed).map((e) => `${e.host}:${e.port}`);
  if (refused.length > 0) {
    return `; the egress allowlist refused ${refused.join(', ')} during setup (add it to SHADOWBOX_EGRESS_ALLOW, or point the server's ${dependency.ecosystem === 'go' ? 'GOPROXY' : 'cargo config.toml source replacement'} at a mirror it allows)`;
  }
  const fetched = setup.commands.some((argv) => showArgv(argv).includes(dependency.fetch));
  return fetched
    ? `; setup ran ${dependency.fetch}, which did not bring it`
    : `; setup ran ${setup.commands.map(showArgv).join('; ')}, none of which downloads it`;
}

/**
 * The cause of a failed or unreadable run that a person can act on, or null when the output
 * shows none. `setup`: what the task's setup did (null: it had none; undefined: not known here,
 * e.g. a bare shadow run), to say which way out applies.
 */
export function failureCause(output: string, setup?: SetupFacts | null): FailureCause | null {
  const dependency = dependencyOf(output);
  if (dependency !== null) {
    const noun = dependency.ecosystem === 'go' ? 'module' : 'crate';
    const message =
      dependency.projectFix !== undefined
        ? `the module providing ${dependency.name} has no entry in go.sum: ${dependency.projectFix}`
        : `${noun} ${dependency.name} is not in the workspace, and tests run offline: setup must download it (${dependency.fetch})` +
          (dependency.detail === offline ? '' : `; ${dependency.detail}`) +
          setupClause(dependency, setup);
    return { kind: 'dependency', ecosystem: dependency.ecosystem, name: dependency.name, message };
  }
  const missing = missingThing(output);
  if (missing !== null) {
    return {
      kind: 'missing-tool',
      name: missing,
      message: `${missing}: not found — is a setup command missing?`,
    };
  }
  return null;
}

/** Why a run's output could not be read: its cause when the output shows one. */
export function unreadableReason(run: object): string {
  const tail = 'outputTail' in run && typeof run.outputTail === 'string' ? run.outputTail : '';
  return failureCause(tail)?.message ?? 'the test output could not be read';
}
