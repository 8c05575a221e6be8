import { lookup } from 'node:dns/promises';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import ipaddr from 'ipaddr.js';
import { localAddressProblem } from '../engine/egress';

/** A tiny real devDependency: one file, no dependencies of its own. */
export const fixtureDependency = { name: 'is-number', version: '7.0.0' } as const;

/**
 * A Node project needing one package from the registry: package.json, and a package-lock.json
 * generated now (on the host, straight from the registry) so that `npm ci` has a lock to follow.
 */
export async function writeNpmFixture(
  dir: string,
  options: { readonly postinstall?: string } = {},
): Promise<void> {
  const manifest = {
    name: 'egress-fixture',
    version: '1.0.0',
    private: true,
    devDependencies: { [fixtureDependency.name]: fixtureDependency.version },
    ...(options.postinstall === undefined ? {} : { scripts: { postinstall: options.postinstall } }),
  };
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await execa(
    'npm',
    ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: dir, env: { npm_config_update_notifier: 'false' }, stdin: 'ignore' },
  );
}

/**
 * The allowlist entry for npm's registry on this machine, computed from the configured registry
 * when the tests run. Its name may resolve to an address the proxy treats as non-public (some
 * development networks serve the registry at a documentation address such as 203.0.113.80): then
 * the entry is marked `=local`, as an operator of such a network would mark it. `=local` never
 * admits loopback or link-local, so a registry there cannot be reached through the proxy at all:
 * that is said here, not left to a setup that fails later.
 */
export async function registryEntry(registry: string): Promise<{ host: string; entry: string }> {
  const host = new URL(registry).hostname;
  const addresses = await lookup(host, { all: true });
  const ips = addresses.map((a) => ipaddr.process(a.address));
  const unreachable = ips.find(
    (ip) => localAddressProblem(ip) !== null && ip.range() !== 'unicast',
  );
  if (unreachable !== undefined) {
    throw new Error(
      `npm's registry ${host} resolves to ${unreachable.toString()}, which no egress entry may reach: configure a registry on a public or private address`,
    );
  }
  const isPublic = ips.every((ip) => ip.range() === 'unicast');
  return { host, entry: isPublic ? host : `${host}=local` };
}

/**
 * A one-module wheel (`tinypkg`, `VALUE = 42`), built by Python's own zipfile with a valid
 * RECORD, for a package index the tests serve on loopback.
 */
export async function buildWheel(dir: string): Promise<string> {
  const file = path.join(dir, 'tinypkg-0.1-py3-none-any.whl');
  const script = `
import base64, hashlib, sys, zipfile
files = {
    'tinypkg/__init__.py': 'VALUE = 42\\n',
    'tinypkg-0.1.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: tinypkg\\nVersion: 0.1\\n',
    'tinypkg-0.1.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: shadowbox-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
record = []
with zipfile.ZipFile(sys.argv[1], 'w') as wheel:
    for name, text in files.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        record.append(f'{name},sha256={digest},{len(data)}')
        wheel.writestr(name, data)
    record.append('tinypkg-0.1.dist-info/RECORD,,')
    wheel.writestr('tinypkg-0.1.dist-info/RECORD', '\\n'.join(record) + '\\n')
`;
  await execa('python3', ['-c', script, file], { stdin: 'ignore' });
  return file;
}
