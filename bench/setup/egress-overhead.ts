/**
 * What the egress proxy costs an install: `npm ci` of a one-package fixture on the host, straight
 * to the registry, against the same install through the forwarder and the proxy (the path a setup
 * command's traffic takes, without the sandbox's own start-up). Every install starts with an
 * empty npm cache, so each one downloads; the two variants alternate so that load from other
 * processes falls on both alike. Usage: `tsx bench/setup/egress-overhead.ts [RUNS]`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import {
  defaultEgressAllowlist,
  egressEnv,
  forwarderArgv,
  forwarderScriptPath,
  parseEgressAllow,
  readToolConfig,
  startEgressProxy,
} from '../../server/engine/egress';
import { registryEntry, writeNpmFixture } from '../../server/test-support/egress-fixtures';

export interface EgressOverhead {
  /** Median wall time of `npm ci` straight to the registry. */
  readonly directMs: number;
  /** Median wall time of the same install through the forwarder and the egress proxy. */
  readonly proxiedMs: number;
  readonly ratio: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

export async function measureEgressOverhead(
  options: { readonly runs?: number } = {},
): Promise<EgressOverhead> {
  const runs = options.runs ?? 5;
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-egress-'));
  const project = path.join(work, 'project');
  const socketDir = path.join(work, 'egress');
  await mkdir(project);
  await mkdir(socketDir, { mode: 0o700 });
  const config = await readToolConfig();
  const registry = await registryEntry(config.npmRegistry);
  const allowlist = parseEgressAllow(
    `+${registry.entry}`,
    await defaultEgressAllowlist({ config }),
  );
  const proxy = await startEgressProxy({
    socketPath: path.join(socketDir, 'egress.sock'),
    allowlist,
  });
  try {
    await writeNpmFixture(project);
    const install = ['npm', 'ci', '--no-audit', '--no-fund'];
    const env = { npm_config_update_notifier: 'false', NO_PROXY: '', no_proxy: '' };
    const once = async (proxied: boolean, round: number): Promise<number> => {
      await rm(path.join(project, 'node_modules'), { recursive: true, force: true });
      const cache = path.join(work, `cache-${proxied ? 'p' : 'd'}-${round}`);
      const argv = [...install, '--cache', cache];
      const [file, ...args] = proxied
        ? forwarderArgv(argv, { socket: proxy.socketPath, script: forwarderScriptPath() })
        : argv;
      const started = performance.now();
      await execa(file ?? 'npm', args, {
        cwd: project,
        env: proxied ? { ...env, ...egressEnv } : env,
        stdin: 'ignore',
      });
      return performance.now() - started;
    };
    // One untimed round of each: npm's own start-up caches, the registry's connection.
    await once(false, -1);
    await once(true, -1);
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let round = 0; round < runs; round += 1) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const viaProxy of order) (viaProxy ? proxied : direct).push(await once(viaProxy, round));
    }
    if (!proxy.records().some((r) => r.allowed && r.host === registry.host)) {
      throw new Error('the proxied installs did not go through the egress proxy');
    }
    const directMs = Math.round(median(direct));
    const proxiedMs = Math.round(median(proxied));
    return { directMs, proxiedMs, ratio: Math.round((proxiedMs / directMs) * 100) / 100 };
  } finally {
    await proxy.close();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  const result = await measureEgressOverhead(runs === undefined ? {} : { runs });
  console.log(
    `npm ci (1 package, empty cache): direct ${result.directMs} ms, through the egress proxy ${result.proxiedMs} ms (${result.ratio}×)`,
  );
  console.log(JSON.stringify(result));
}
