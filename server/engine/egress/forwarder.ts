import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../errors/app-error';

/** Where a setup sandbox sees the proxy's socket and the forwarder (the root hides /run). */
export const sandboxEgressSocket = '/run/shadowbox/egress.sock';
export const sandboxForwarderScript = '/run/shadowbox/egress-forwarder.mjs';

/**
 * The variables the forwarder points at its port: curl, pip, Go, cargo and most HTTP clients
 * read the first four, npm, yarn and pip their own. Node's built-in fetch reads none.
 */
export const proxyVariables = [
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'https_proxy',
  'http_proxy',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'YARN_HTTPS_PROXY',
  'YARN_HTTP_PROXY',
  'PIP_PROXY',
  'CARGO_HTTP_PROXY',
] as const;

/** The rest of a setup's network settings: nothing bypasses the proxy, npm asks for no update. */
export const egressEnv: Readonly<Record<string, string>> = {
  NO_PROXY: '',
  no_proxy: '',
  npm_config_update_notifier: 'false',
};

/** The forwarder on the host, to bind into the sandbox read-only. */
export function forwarderScriptPath(): string {
  // Next to this module when it runs from source (tsx, vitest); in the checkout the server was
  // started from when a bundler moved the code (`next build` output).
  const candidates = [
    fileURLToPath(new URL('./egress-forwarder.mjs', import.meta.url)),
    path.join(process.cwd(), 'server', 'engine', 'egress', 'egress-forwarder.mjs'),
  ];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) {
    throw new AppError(
      'SANDBOX_UNAVAILABLE',
      `the egress forwarder is missing (looked at ${candidates.join(', ')})`,
    );
  }
  return file;
}

/** The sandbox's argv for a setup command: node runs the forwarder, which runs the command. */
export function forwarderArgv(
  command: readonly string[],
  options: { readonly socket?: string; readonly script?: string } = {},
): string[] {
  return [
    process.execPath,
    options.script ?? sandboxForwarderScript,
    options.socket ?? sandboxEgressSocket,
    proxyVariables.join(','),
    '--',
    ...command,
  ];
}

const failedMarker = 'shadowbox-egress: failed: ';
const failedExitCode = 125;

/** What the forwarder reported when it could not do its part (else the command itself ran). */
export function forwarderFailure(exitCode: number | null, output: string): string | null {
  if (exitCode !== failedExitCode) return null;
  const line = output.split('\n').find((l) => l.startsWith(failedMarker));
  return line === undefined ? null : line.slice(failedMarker.length);
}
