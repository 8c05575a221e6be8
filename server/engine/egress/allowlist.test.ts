import { describe, expect, it } from 'vitest';
import {
  allowlistOfToolConfig,
  defaultEgressAllowlist,
  findEgressEntry,
  formatEgressAllowlist,
  parseEgressAllow,
  parseEgressEntry,
  type EgressAllowlist,
} from './allowlist';
import { toolConfigFrom } from './tool-config';

const defaults: EgressAllowlist = {
  entries: [parseEgressEntry('registry.npmjs.org'), parseEgressEntry('pypi.org')],
};

describe('parseEgressEntry', () => {
  it('reads a host name as https on port 443', () => {
    expect(parseEgressEntry('Registry.NPMJS.org.')).toEqual({
      host: 'registry.npmjs.org',
      port: 443,
      ipLiteral: false,
      plainHttp: false,
      local: false,
    });
  });

  it('reads an explicit port and scheme; http:// allows plain HTTP and defaults to port 80', () => {
    expect(parseEgressEntry('npm.corp.example:8443')).toMatchObject({
      port: 8443,
      plainHttp: false,
    });
    expect(parseEgressEntry('https://npm.corp.example/')).toMatchObject({ port: 443 });
    expect(parseEgressEntry('http://pypi.corp.example')).toMatchObject({
      port: 80,
      plainHttp: true,
      local: false,
    });
    expect(parseEgressEntry('http://pypi.corp.example:3141')).toMatchObject({ port: 3141 });
  });

  it('reads IP literals (IPv6 in brackets) as local and plain-HTTP-capable', () => {
    expect(parseEgressEntry('10.0.0.5:3141')).toEqual({
      host: '10.0.0.5',
      port: 3141,
      ipLiteral: true,
      plainHttp: true,
      local: true,
    });
    expect(parseEgressEntry('[0:0:0:0:0:0:0:1]:8080')).toMatchObject({ host: '::1', port: 8080 });
    expect(parseEgressEntry('[::1]')).toMatchObject({ host: '::1', port: 443 });
  });

  it('reads =local: the host may resolve to a non-public address', () => {
    expect(parseEgressEntry('npm.internal:4873=local')).toMatchObject({
      host: 'npm.internal',
      port: 4873,
      local: true,
    });
  });
});

describe('parseEgressAllow', () => {
  it('keeps the defaults when unset or empty', () => {
    expect(parseEgressAllow(undefined, defaults)).toBe(defaults);
    expect(parseEgressAllow('  ', defaults)).toBe(defaults);
  });

  it('adds to the defaults with + entries', () => {
    const list = parseEgressAllow('+npm.corp.example, +10.0.0.5:3141', defaults);
    expect(list.entries.map((e) => `${e.host}:${e.port}`)).toEqual([
      'registry.npmjs.org:443',
      'pypi.org:443',
      'npm.corp.example:443',
      '10.0.0.5:3141',
    ]);
  });

  it('replaces the defaults with plain entries', () => {
    const list = parseEgressAllow('npm.corp.example,pypi.corp.example:8443', defaults);
    expect(formatEgressAllowlist(list)).toBe('npm.corp.example:443,pypi.corp.example:8443');
  });

  it('allows nothing with none', () => {
    expect(parseEgressAllow('none', defaults)).toEqual({ entries: [] });
    expect(formatEgressAllowlist({ entries: [] })).toBe('none');
  });

  it('merges an entry repeated with a flag into one (marking a default host =local)', () => {
    const list = parseEgressAllow('+registry.npmjs.org=local', defaults);
    expect(list.entries).toHaveLength(2);
    expect(findEgressEntry(list, 'registry.npmjs.org', 443)?.local).toBe(true);
  });

  const refusals: [string, string][] = [
    ['a.example,,b.example', 'SHADOWBOX_EGRESS_ALLOW: entry 2 is empty'],
    ['+a.example,+', 'SHADOWBOX_EGRESS_ALLOW: entry 2 is empty'],
    ['+a.example,b.example', "entry 'b.example' has no `+` while others do"],
    ['none,a.example', "entry 'none' must stand alone"],
    ['a.example:0', "entry 'a.example:0' has port '0', not a whole number from 1 to 65535"],
    ['a.example:65536', "entry 'a.example:65536' has port '65536'"],
    ['a.example:https', "entry 'a.example:https' has port 'https'"],
    ['a.example:', "entry 'a.example:' has port ''"],
    [
      'ftp://a.example',
      "entry 'ftp://a.example' has scheme 'ftp': only http:// and https:// exist",
    ],
    ['https://a.example/simple', "entry 'https://a.example/simple' has a path, query or space"],
    ['https://a.example?x=1', "entry 'https://a.example?x=1' has a path, query or space"],
    ['https://a.example#top', "entry 'https://a.example#top' has a path, query or space"],
    ['https://user:pw@a.example', "entry 'https://user:pw@a.example' has credentials"],
    ['*.example.com', "entry '*.example.com' has a wildcard: name each host"],
    ['a_b.example', "entry 'a_b.example' is not a host name"],
    ['-a.example', "entry '-a.example' is not a host name"],
    ['a..example', "entry 'a..example' is not a host name"],
    ['127.1', "entry '127.1' is neither a dotted IPv4 address nor a host name"],
    ['0x7f000001', "entry '0x7f000001' is neither a dotted IPv4 address nor a host name"],
    ['2130706433', "entry '2130706433' is neither a dotted IPv4 address nor a host name"],
    [
      '0.0.0.0:80',
      "entry '0.0.0.0:80' names the unspecified address 0.0.0.0, which no connection reaches",
    ],
    ['224.0.0.1', "entry '224.0.0.1' names the multicast address 224.0.0.1"],
    ['255.255.255.255', "entry '255.255.255.255' names the broadcast address"],
    ['::1', "entry '::1' has an IPv6 address without brackets"],
    ['[a.example]:443', "entry '[a.example]:443' has brackets around no IPv6 address"],
    [':443', "entry ':443' has no host"],
    ['a.example=remote', "entry 'a.example=remote' has an unknown flag: only '=local' exists"],
    ['a.example foo', "entry 'a.example foo' has a path, query or space"],
  ];
  it.each(refusals)('refuses %j, naming the entry', (value, message) => {
    expect(() => parseEgressAllow(value, defaults)).toThrow(message);
  });

  it('refuses with an INVALID_ARGUMENT AppError that carries the entry', () => {
    try {
      parseEgressAllow('a.example:99999', defaults);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { entry: 'a.example:99999' },
      });
    }
  });
});

describe('defaultEgressAllowlist', () => {
  const hosts = (list: EgressAllowlist): string[] =>
    list.entries.map((e) => `${e.plainHttp && !e.ipLiteral ? 'http://' : ''}${e.host}:${e.port}`);

  it("follows npm's registry and the public Python, crates and Go hosts by default", async () => {
    const list = await defaultEgressAllowlist({
      config: toolConfigFrom({}, 'https://registry.npmjs.org/'),
    });
    expect(hosts(list)).toEqual([
      'registry.npmjs.org:443',
      'pypi.org:443',
      'files.pythonhosted.org:443',
      'index.crates.io:443',
      'static.crates.io:443',
      'crates.io:443',
      'proxy.golang.org:443',
      'sum.golang.org:443',
    ]);
  });

  it('follows a configured npm registry, PIP_INDEX_URL, GOPROXY and GOSUMDB instead', () => {
    const config = toolConfigFrom(
      {
        PIP_INDEX_URL: 'http://10.0.0.5:3141/root/pypi/+simple/',
        PIP_EXTRA_INDEX_URL: 'https://pypi.corp.example/simple',
        GOPROXY: 'https://goproxy.corp.example,direct',
        GOSUMDB: 'off',
      },
      'http://npm.corp.example:4873/',
    );
    expect(hosts(allowlistOfToolConfig(config))).toEqual([
      'http://npm.corp.example:4873',
      '10.0.0.5:3141',
      'pypi.corp.example:443',
      'goproxy.corp.example:443',
      'index.crates.io:443',
      'static.crates.io:443',
      'crates.io:443',
    ]);
    // The sandbox gets the same settings (its HOME hides the host's ~/.npmrc).
    expect(config.env).toEqual({
      npm_config_registry: 'http://npm.corp.example:4873/',
      PIP_INDEX_URL: 'http://10.0.0.5:3141/root/pypi/+simple/',
      PIP_EXTRA_INDEX_URL: 'https://pypi.corp.example/simple',
      GOPROXY: 'https://goproxy.corp.example,direct',
      GOSUMDB: 'off',
    });
  });

  it('never hands a setup an index URL with credentials (its host is still allowed)', () => {
    const config = toolConfigFrom(
      { PIP_INDEX_URL: 'https://user:token@pypi.corp.example/simple' },
      'https://registry.npmjs.org/',
    );
    expect(config.env).toEqual({ npm_config_registry: 'https://registry.npmjs.org/' });
    expect(hosts(allowlistOfToolConfig(config))).toContain('pypi.corp.example:443');
  });

  it('falls back to the public registry when npm says nothing usable', () => {
    expect(toolConfigFrom({}, null).npmRegistry).toBe('https://registry.npmjs.org/');
    expect(toolConfigFrom({}, 'undefined').npmRegistry).toBe('https://registry.npmjs.org/');
  });
});
