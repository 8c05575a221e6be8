import { checkArguments, staysInside } from './check-arguments';
import {
  buildRules,
  canonicalProgram,
  npxOptions,
  pythonModules,
  runnerRules,
  setupRules,
  systemProgramDirs,
  type CommandKind,
  type RunnerRule,
} from './command-rules';

export type CommandVerdict =
  | { readonly ok: true; readonly runner: string }
  | { readonly ok: false; readonly code: 'COMMAND_NOT_ALLOWED'; readonly message: string };

const maxArgs = 256;
const maxArgBytes = 4096;

const refuse = (message: string): CommandVerdict => ({
  ok: false,
  code: 'COMMAND_NOT_ALLOWED',
  message,
});

const kinds: Readonly<
  Record<CommandKind, { what: string; rules: Readonly<Record<string, RunnerRule>>; npx: boolean }>
> = {
  test: { what: 'test command', rules: runnerRules, npx: true },
  // npx would fetch and run any package, and setup has a network.
  setup: { what: 'setup command', rules: setupRules, npx: false },
  build: { what: 'build command', rules: buildRules, npx: true },
};

/** How the command names its program: by name, by a system path, or by a path in the workspace. */
interface Program {
  /** As the command gives it. */
  readonly given: string;
  readonly name: string;
  /** `DIR/bin/NAME` with DIR relative: a virtual environment's own copy. */
  readonly inVenv: boolean;
}

function resolveProgram(program: string): Program | string {
  const base = program.split('/').at(-1) ?? program;
  if (base === '' || base === '.' || base === '..') {
    return `the program '${program}' names a directory, not a program (argument 0)`;
  }
  const name = canonicalProgram(base);
  if (!program.includes('/')) return { given: program, name, inVenv: false };
  if (program.startsWith('/')) {
    const dir = program.slice(0, -base.length - 1);
    return systemProgramDirs.includes(dir)
      ? { given: program, name, inVenv: false }
      : `run '${base}' by name or by a relative path inside the workspace, not by the absolute path '${program}' (argument 0)`;
  }
  if (!staysInside(program)) {
    return `'${base}' may not be run from outside the workspace: its path '${program}' has '..' (argument 0)`;
  }
  return { given: program, name, inVenv: /(^|\/)bin\/[^/]+$/.test(program) };
}

function venvOnly(display: string, rule: RunnerRule, program: Program): string | null {
  if (rule.venvOnly !== true || program.inVenv) return null;
  return `'${display}' would install into the system (argument 0: '${program.given}'): run a virtual environment's own, DIR/bin/pip or DIR/bin/python -m pip with DIR inside the workspace`;
}

function notAllowed(kind: CommandKind, name: string, where: string): string {
  const { what, rules, npx } = kinds[kind];
  const modules = Object.keys(pythonModules[kind]);
  const names = [
    ...Object.keys(rules),
    ...(modules.length > 0 ? [`python -m ${modules.join('|')}`] : []),
    ...(npx ? ['npx TOOL'] : []),
  ];
  return `'${name}' is not an allowed program for a ${what} (${where}); allowed: ${names.join(', ')}`;
}

/** `python3 -m pytest …`: judged as the module it starts. */
function checkPython(kind: CommandKind, argv: readonly string[], program: Program): string | null {
  const display = argv[0] ?? '';
  const modules: Readonly<Record<string, RunnerRule>> = pythonModules[kind];
  const names = Object.keys(modules);
  if (names.length === 0) return notAllowed(kind, display, 'argument 0');
  const module = argv[2] ?? '';
  const rule = modules[module];
  if (argv[1] !== '-m' || rule === undefined) {
    const allowed = names.map((m) => `'${display} -m ${m}'`).join(' or ');
    const index = argv[1] === '-m' ? 2 : 1;
    const offending =
      argv[index] === undefined ? 'it was given nothing' : `argument ${index}: '${argv[index]}'`;
    return `'${display}' may only run ${allowed} (${offending})`;
  }
  const name = `${display} -m ${module}`;
  return (
    venvOnly(name, rule, program) ?? checkArguments(rule, { name, args: argv.slice(3), offset: 3 })
  );
}

/**
 * `npx vitest …`: a tool the workspace has, by its bin name, judged as that program. Runs are
 * offline (the sandbox has no network and `npm_config_offline` is set), so npx cannot fetch one.
 */
function checkNpx(kind: CommandKind, argv: readonly string[]): { runner: string } | string {
  let index = 1;
  while (npxOptions.includes(argv[index] ?? '')) index += 1;
  const tool = argv[index];
  if (tool === undefined) return `'npx' needs the name of a tool the workspace has`;
  if (tool.startsWith('-')) {
    return `'npx' may not be given ${tool.split('=')[0] ?? tool} (argument ${index}: '${tool}'): it only runs a tool the workspace has, by name`;
  }
  if (!/^[A-Za-z0-9][\w.-]*$/.test(tool)) {
    return `'npx' only runs a tool the workspace has, by its name, never a package to fetch or a path (argument ${index}: '${tool}')`;
  }
  const name = canonicalProgram(tool);
  const rule = kinds[kind].rules[name];
  if (rule === undefined) return notAllowed(kind, tool, `started by npx, argument ${index}`);
  const refusal = checkArguments(rule, {
    name: `npx ${tool}`,
    args: argv.slice(index + 1),
    offset: index + 1,
  });
  return refusal ?? { runner: name };
}

function check(kind: CommandKind, argv: readonly string[]): CommandVerdict {
  const { what, rules, npx } = kinds[kind];
  const [program, ...args] = argv;
  if (program === undefined || program === '') return refuse(`the ${what} is empty`);
  if (argv.length > maxArgs) {
    return refuse(`the ${what} has ${argv.length} arguments; at most ${maxArgs}`);
  }
  for (const [i, arg] of argv.entries()) {
    if (arg.includes('\0')) return refuse(`the ${what} contains a NUL byte (argument ${i})`);
    if (Buffer.byteLength(arg) > maxArgBytes) {
      return refuse(`argument ${i} of the ${what} is longer than ${maxArgBytes} bytes`);
    }
  }
  const resolved = resolveProgram(program);
  if (typeof resolved === 'string') return refuse(resolved);
  if (resolved.name === 'python') {
    const refusal = checkPython(kind, argv, resolved);
    return refusal === null ? { ok: true, runner: argv[2] ?? '' } : refuse(refusal);
  }
  if (resolved.name === 'npx' && npx) {
    const result = checkNpx(kind, argv);
    return typeof result === 'string' ? refuse(result) : { ok: true, ...result };
  }
  const rule = rules[resolved.name];
  if (rule === undefined) return refuse(notAllowed(kind, program, 'argument 0'));
  const refusal =
    venvOnly(program, rule, resolved) ?? checkArguments(rule, { name: program, args, offset: 1 });
  return refusal === null ? { ok: true, runner: resolved.name } : refuse(refusal);
}

/**
 * Checks a task's test command (argv, never a shell string). A refusal is a value that names the
 * program and the offending argument (counted from the program, argument 0).
 */
export function checkCommand(argv: readonly string[]): CommandVerdict {
  return check('test', argv);
}

/**
 * Checks a setup command: run once in the sandbox before the tests, with a network only through
 * the egress allowlist proxy. Installers are admitted when what they install stays in the
 * workspace (`npm ci`, `.venv/bin/pip install`, `cargo fetch`, `go mod download`…).
 */
export function checkSetupCommand(argv: readonly string[]): CommandVerdict {
  return check('setup', argv);
}

/** Checks a build command: run offline before the test command in every run. */
export function checkBuildCommand(argv: readonly string[]): CommandVerdict {
  return check('build', argv);
}
