import path from 'node:path';
import { parseArgs } from 'node:util';
import { httpStatusOf, isAppError, type AppError } from '../../errors/app-error';
import {
  defaultGitUrlPolicy,
  type GitUrlPolicy,
  type CloneCaps,
  type IntakeCaps,
  ingestArchive,
  ingestGit,
} from '../../engine/intake';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';

const help = `Usage: shadowbox ingest (--archive FILE | --git URL [--ref REF]) --into DIR [--json]

Checks an archive (zip, tar, tar.gz) or a Git URL against the intake policy and writes its files
into DIR, which must not exist yet. On any failure nothing is left at DIR.

Options:
  --archive FILE  a zip, tar or tar.gz archive (format detected from its bytes)
  --git URL       an https:// Git URL on port 443, public address only
  --ref REF       branch, tag or commit id to check out (default: the remote's HEAD)
  --into DIR      destination directory (its parent must exist)
  --json          print one JSON object: what was ingested, or {"error":{"code","message"}}
  -h, --help      show this help

Exit status: 0 ingested; 2 refused by the policy or invalid arguments; 1 source unreachable or
not found (network, missing archive, unknown ref).
`;

/** What the command needs from the composition root; tests inject a loopback-allowing policy. */
export interface IngestCommandDeps {
  readonly policy: GitUrlPolicy;
  readonly caps?: Partial<IntakeCaps>;
  readonly cloneCaps?: Partial<CloneCaps>;
}

interface Ingested {
  readonly source: 'archive' | 'git';
  readonly format?: string;
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
  readonly commit: string | null;
}

function fail(io: CliIo, json: boolean, error: Pick<AppError, 'code' | 'message'>): number {
  if (json)
    io.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
  else io.stderr.write(`shadowbox ingest: ${error.message} [${error.code}]\n`);
  const status = httpStatusOf(error.code);
  return status === 404 || status >= 500 ? exitCodes.failure : exitCodes.rejected;
}

async function run(
  values: { archive?: string; git?: string; ref?: string },
  into: string,
  cwd: string,
  deps: IngestCommandDeps,
): Promise<{ ok: true; value: Ingested } | { ok: false; error: AppError }> {
  const caps = deps.caps === undefined ? {} : { caps: deps.caps };
  if (values.archive !== undefined) {
    const result = await ingestArchive({
      into,
      ...caps,
      archive: path.resolve(cwd, values.archive),
    });
    if (!result.ok) return result;
    const { dir, format, files, bytes } = result;
    return { ok: true, value: { source: 'archive', format, dir, files, bytes, commit: null } };
  }
  const result = await ingestGit({
    into,
    ...caps,
    url: values.git ?? '',
    policy: deps.policy,
    ...(values.ref === undefined ? {} : { ref: values.ref }),
    ...(deps.cloneCaps === undefined ? {} : { cloneCaps: deps.cloneCaps }),
  });
  if (!result.ok) return result;
  const { dir, files, bytes, commit } = result;
  return { ok: true, value: { source: 'git', dir, files, bytes, commit } };
}

export function createIngestCommand(deps: IngestCommandDeps): CliCommand {
  return async (args, io) => {
    let values: {
      archive?: string;
      git?: string;
      ref?: string;
      into?: string;
      json?: boolean;
      help?: boolean;
    };
    try {
      ({ values } = parseArgs({
        args: [...args],
        options: {
          archive: { type: 'string' },
          git: { type: 'string' },
          ref: { type: 'string' },
          into: { type: 'string' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }));
    } catch (error) {
      const json = args.includes('--json');
      return fail(io, json, {
        code: 'INVALID_ARGUMENT',
        message: `${(error as Error).message}; see --help`,
      });
    }
    if (values.help === true) {
      io.stdout.write(help);
      return exitCodes.ok;
    }
    const json = values.json === true;
    const invalid = (message: string) => fail(io, json, { code: 'INVALID_ARGUMENT', message });
    if ((values.archive === undefined) === (values.git === undefined)) {
      return invalid('give exactly one of --archive FILE or --git URL; see --help');
    }
    if (values.into === undefined) return invalid('--into DIR is required; see --help');
    if (values.ref !== undefined && values.git === undefined) return invalid('--ref needs --git');
    let outcome: { ok: true; value: Ingested } | { ok: false; error: AppError };
    try {
      outcome = await run(values, path.resolve(io.cwd, values.into), io.cwd, deps);
    } catch (error) {
      // Host faults (git missing, disk full) arrive as thrown AppErrors: exit 1, same output shape.
      if (isAppError(error)) return fail(io, json, error);
      throw error;
    }
    if (!outcome.ok) return fail(io, json, outcome.error);
    const { value } = outcome;
    if (json) io.stdout.write(`${JSON.stringify(value)}\n`);
    else {
      const at = value.commit === null ? '' : ` at ${value.commit}`;
      io.stdout.write(
        `ingested ${value.files} files (${value.bytes} bytes)${at} into ${value.dir}\n`,
      );
    }
    return exitCodes.ok;
  };
}

/** The registered command: production policy only (no test override can be reached from here). */
export const ingestCommand: CliCommand = createIngestCommand({ policy: defaultGitUrlPolicy });
