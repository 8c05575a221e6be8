import { describe, expect, it } from 'vitest';
import type { AppErrorCode } from '../../errors/app-error';
import { GitUrlPolicy, type HostResolver } from './git-url-policy';

// Injected DNS: no test reaches a real resolver.
const zone: Record<string, string[]> = {
  'git.example.com': ['93.184.216.34'],
  'v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.1.2.3'],
  'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
  'empty.example.com': [],
};
const resolver: HostResolver = (hostname) => {
  const addresses = zone[hostname];
  if (addresses === undefined) return Promise.reject(new Error(`ENOTFOUND ${hostname}`));
  return Promise.resolve(
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
};
const policy = new GitUrlPolicy({ resolver });

const rejected: [string, string, AppErrorCode][] = [
  ['plain http', 'http://git.example.com/r.git', 'URL_SCHEME'],
  ['ssh', 'ssh://git@git.example.com/r.git', 'URL_SCHEME'],
  ['git protocol', 'git://git.example.com/r.git', 'URL_SCHEME'],
  ['file', 'file:///etc/passwd', 'URL_SCHEME'],
  ['ext:: transport', 'ext::sh%20-c%20touch%20/tmp/pwned', 'URL_SCHEME'],
  ['ext:: with spaces', 'ext::sh -c touch% /tmp/pwned', 'URL_INVALID'],
  ['--upload-pack option', '--upload-pack=touch /tmp/pwned', 'URL_INVALID'],
  ['option glued to a URL', '-uhttps://git.example.com/r.git', 'URL_INVALID'],
  ['scp-like syntax', 'git@git.example.com:org/r.git', 'URL_INVALID'],
  ['userinfo with password', 'https://user:secret@git.example.com/r.git', 'URL_USERINFO'],
  ['token as user', 'https://ghp_token@git.example.com/r.git', 'URL_USERINFO'],
  ['empty userinfo', 'https://@git.example.com/r.git', 'URL_USERINFO'],
  ['backslash authority confusion', 'https://git.example.com\\@evil.example/r.git', 'URL_INVALID'],
  ['newline-injected option', 'https://git.example.com/r.git\n--upload-pack=id', 'URL_INVALID'],
  ['query', 'https://git.example.com/r.git?service=git-upload-pack', 'URL_QUERY_OR_FRAGMENT'],
  ['empty query', 'https://git.example.com/r.git?', 'URL_QUERY_OR_FRAGMENT'],
  ['fragment', 'https://git.example.com/r.git#main', 'URL_QUERY_OR_FRAGMENT'],
  ['non-443 port', 'https://git.example.com:8443/r.git', 'URL_PORT'],
  ['ssh port on https', 'https://git.example.com:22/r.git', 'URL_PORT'],
  ['IPv4 loopback', 'https://127.0.0.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['RFC 1918 10/8', 'https://10.0.0.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['RFC 1918 172.16/12', 'https://172.16.5.4/r.git', 'URL_PRIVATE_ADDRESS'],
  ['RFC 1918 192.168/16', 'https://192.168.1.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['link-local cloud metadata', 'https://169.254.169.254/latest/meta-data', 'URL_PRIVATE_ADDRESS'],
  ['CGNAT', 'https://100.64.0.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['0.0.0.0', 'https://0.0.0.0/r.git', 'URL_PRIVATE_ADDRESS'],
  ['broadcast', 'https://255.255.255.255/r.git', 'URL_PRIVATE_ADDRESS'],
  ['multicast', 'https://224.0.0.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['documentation range', 'https://192.0.2.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['IPv6 loopback', 'https://[::1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['IPv6 unspecified', 'https://[::]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['IPv6 unique local fc00::/7', 'https://[fd12:3456::1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['IPv6 link-local fe80::/10', 'https://[fe80::1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['IPv4-mapped private (hex form)', 'https://[::ffff:a00:1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['6to4 of loopback', 'https://[2002:7f00:1::1]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/r.git', 'URL_PRIVATE_ADDRESS'],
  ['decimal IPv4', 'https://2130706433/r.git', 'URL_PRIVATE_ADDRESS'],
  ['hex IPv4', 'https://0x7f000001/r.git', 'URL_PRIVATE_ADDRESS'],
  ['octal IPv4', 'https://0177.0.0.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['short IPv4', 'https://127.1/r.git', 'URL_PRIVATE_ADDRESS'],
  ['mixed hex/octal metadata', 'https://0xa9.0376.169.254/r.git', 'URL_PRIVATE_ADDRESS'],
  [
    'name resolving to a private address',
    'https://internal.example.com/r.git',
    'URL_PRIVATE_ADDRESS',
  ],
  ['name resolving to metadata', 'https://metadata.example.com/r.git', 'URL_PRIVATE_ADDRESS'],
  [
    'name with one private answer among public',
    'https://rebind.example.com/r.git',
    'URL_PRIVATE_ADDRESS',
  ],
  ['localhost', 'https://localhost/r.git', 'URL_PRIVATE_ADDRESS'],
  ['unresolvable name', 'https://nowhere.example.com/r.git', 'URL_RESOLVE_FAILED'],
  ['name without addresses', 'https://empty.example.com/r.git', 'URL_RESOLVE_FAILED'],
  ['underscore host', 'https://bad_host.example.com/r.git', 'URL_INVALID'],
];

describe('GitUrlPolicy rejections', () => {
  it.each(rejected)('%s → %s', async (_name, url, code) => {
    const result = await policy.check(url);
    expect(result.ok ? 'accepted' : result.error.code).toBe(code);
  });
});

describe('GitUrlPolicy acceptance', () => {
  it('pins the checked address of a public name and hands git the parsed href', async () => {
    const result = await policy.check('https://Git.Example.com:443/org/repo.git');
    expect(result).toEqual({
      ok: true,
      url: {
        href: 'https://git.example.com/org/repo.git',
        hostname: 'git.example.com',
        port: 443,
        address: '93.184.216.34',
        curloptResolve: 'git.example.com:443:93.184.216.34',
        protocol: 'https',
      },
    });
  });

  it('brackets a pinned IPv6 address', async () => {
    const result = await policy.check('https://v6.example.com/r.git');
    expect(result.ok && result.url.curloptResolve).toBe(
      'v6.example.com:443:[2606:2800:220:1:248:1893:25c8:1946]',
    );
  });

  it('accepts a public IP literal without a pin', async () => {
    const result = await policy.check('https://93.184.216.34/r.git');
    expect(result.ok && result.url.curloptResolve).toBeNull();
  });
});

describe('the test-only loopback escape hatch', () => {
  const local = { 'git.test': ['127.0.0.1'], 'lan.test': ['192.168.0.5'] } as Record<
    string,
    string[]
  >;
  const testResolver: HostResolver = (host) =>
    Promise.resolve((local[host] ?? []).map((address) => ({ address, family: 4 })));

  it('is off by default: a loopback http server is refused', async () => {
    const strict = new GitUrlPolicy({ resolver: testResolver });
    expect(strict.allowsPlainHttpForTests).toBe(false);
    const result = await strict.check('http://git.test:8080/r.git');
    expect(result.ok ? 'accepted' : result.error.code).toBe('URL_SCHEME');
  });

  it('when set, admits http on loopback with a port, and nothing private beyond loopback', async () => {
    const loose = new GitUrlPolicy({ resolver: testResolver, testOnlyAllowLoopback: true });
    const ok = await loose.check('http://git.test:8080/r.git');
    expect(ok.ok && ok.url.curloptResolve).toBe('git.test:8080:127.0.0.1');
    const lan = await loose.check('http://lan.test:8080/r.git');
    expect(lan.ok ? 'accepted' : lan.error.code).toBe('URL_PRIVATE_ADDRESS');
    const creds = await loose.check('http://u:p@git.test:8080/r.git');
    expect(creds.ok ? 'accepted' : creds.error.code).toBe('URL_USERINFO');
  });
});
