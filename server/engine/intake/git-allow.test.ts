import { describe, expect, it } from 'vitest';
import { parseGitAllow } from './git-allow';
import { GitUrlPolicy, type HostResolver } from './git-url-policy';

// Injected DNS: no test reaches a real resolver.
const zone: Record<string, string[]> = {
  'git.corp.example': ['10.20.0.5'],
  'plain.corp.example': ['192.168.7.7'],
  'public.example.com': ['93.184.216.34'],
  'sneaky.corp.example': ['10.20.0.6', '169.254.169.254'],
  'self.corp.example': ['127.0.0.1'],
};
const resolver: HostResolver = (hostname) => {
  const addresses = zone[hostname];
  if (addresses === undefined) return Promise.reject(new Error(`ENOTFOUND ${hostname}`));
  return Promise.resolve(addresses.map((address) => ({ address, family: 4 })));
};
const policy = new GitUrlPolicy({
  resolver,
  forges: parseGitAllow(
    'git.corp.example:3000=local, http://plain.corp.example:8080=local, public.example.com:8443, sneaky.corp.example=local, self.corp.example=local',
  ),
});

const refusal = async (url: string) => {
  const result = await policy.check(url);
  return result.ok ? null : { code: result.error.code, message: result.error.message };
};

describe('SHADOWBOX_GIT_ALLOW: the team forges a Git URL may name', () => {
  it('admits a listed forge on its port and private address', async () => {
    const pinned = await policy.pin('https://git.corp.example:3000/team/app.git');
    expect(pinned).toMatchObject({ port: 3000, address: '10.20.0.5', protocol: 'https' });
    expect(pinned.curloptResolve).toBe('git.corp.example:3000:10.20.0.5');
  });

  it('admits plain HTTP only for an http:// entry', async () => {
    expect(await policy.pin('http://plain.corp.example:8080/app.git')).toMatchObject({
      protocol: 'http',
      port: 8080,
    });
    expect(await refusal('http://git.corp.example:3000/app.git')).toEqual({
      code: 'URL_SCHEME',
      message:
        'only https URLs are accepted, not http: (SHADOWBOX_GIT_ALLOW admits git.corp.example over https only)',
    });
  });

  it('admits another port only where an entry names it', async () => {
    expect(await policy.pin('https://public.example.com:8443/app.git')).toMatchObject({
      port: 8443,
    });
    expect((await refusal('https://git.corp.example:3001/app.git'))?.code).toBe('URL_PORT');
    expect((await refusal('https://git.corp.example/app.git'))?.code).toBe('URL_PRIVATE_ADDRESS');
  });

  it('never admits a private address without =local, nor a metadata or loopback one with it', async () => {
    const unmarked = new GitUrlPolicy({ resolver, forges: parseGitAllow('git.corp.example:3000') });
    expect(await unmarked.check('https://git.corp.example:3000/app.git')).toMatchObject({
      ok: false,
      error: {
        code: 'URL_PRIVATE_ADDRESS',
        message:
          'address 10.20.0.5 is not public (private) (mark the SHADOWBOX_GIT_ALLOW entry =local to admit a private address)',
      },
    });
    expect(await refusal('https://sneaky.corp.example/app.git')).toEqual({
      code: 'URL_PRIVATE_ADDRESS',
      message:
        "address 169.254.169.254 is not public (linkLocal) (SHADOWBOX_GIT_ALLOW's =local admits private addresses only)",
    });
    expect((await refusal('https://self.corp.example/app.git'))?.code).toBe('URL_PRIVATE_ADDRESS');
  });

  it('leaves every other URL to the public https policy', async () => {
    expect((await refusal('https://10.20.0.5:3000/app.git'))?.code).toBe('URL_PORT');
    expect((await refusal('https://user:pw@git.corp.example:3000/app.git'))?.code).toBe(
      'URL_USERINFO',
    );
  });
});

describe('parseGitAllow', () => {
  it('is empty when unset', () => {
    expect(parseGitAllow(undefined)).toEqual([]);
    expect(parseGitAllow('  ')).toEqual([]);
  });

  it.each([
    [
      'git.corp.example,,x.example',
      'SHADOWBOX_GIT_ALLOW: entry 2 is empty (entries are separated by single commas)',
    ],
    [
      '*.corp.example',
      "SHADOWBOX_GIT_ALLOW: entry '*.corp.example' has a wildcard: name each host",
    ],
    [
      'https://git.corp.example/team',
      "SHADOWBOX_GIT_ALLOW: entry 'https://git.corp.example/team' has a path, query or space: name a host",
    ],
    [
      'git.corp.example=trusted',
      "SHADOWBOX_GIT_ALLOW: entry 'git.corp.example=trusted' has an unknown flag: only '=local' exists",
    ],
    [
      '169.254.169.254',
      "SHADOWBOX_GIT_ALLOW: entry '169.254.169.254' names the cloud metadata address 169.254.169.254, which no setup command may reach",
    ],
  ])('refuses %s, naming the entry', (value, message) => {
    expect(() => parseGitAllow(value)).toThrow(message);
  });
});
