import { describe, expect, it } from 'vitest';
import { allowlistOfToolConfig, formatEgressAllowlist } from './allowlist';
import { cargoSourceUrls, pipFileSettings, toolConfigFrom } from './tool-config';

// What `pip config list` printed here for a PIP_CONFIG_FILE with an index and an extra index
// (pip 23.2), plus this machine's own /etc/xdg/pip/pip.conf and PIP_* variables.
const listing = [
  ":env:.cert='/etc/ssl/certs/ca-certificates.crt'",
  ":env:.config-file='/tmp/fc/pip.conf'",
  ":env:.find-links='/opt/wheels'",
  "global.cert='/etc/ssl/certs/ca-certificates.crt'",
  "global.constraint='/etc/xdg/pip/constraints.txt'",
  "global.extra-index-url='http://10.0.0.5/simple https://mirror.example/simple file:///opt/pypi/simple'",
  "global.index-url='http://127.0.0.1:9999/simple'",
  "global.trusted-host='10.0.0.5'",
].join('\n');

const npm = 'https://registry.npmjs.org/';

describe("pip's own configuration reaches setup and the allowlist", () => {
  it('reads the files pip reads (install over global), not the variables it lists', () => {
    const settings = pipFileSettings(
      `${listing}\ninstall.index_url='https://install.example/simple'`,
    );
    expect(settings.get('index-url')).toBe('https://install.example/simple');
    expect(settings.get('trusted-host')).toBe('10.0.0.5');
    expect(settings.has('config-file')).toBe(false);
    expect(pipFileSettings(null).size).toBe(0);
  });

  it("a pip.conf index is allowed and handed to setup's pip; a file: index is not", () => {
    const config = toolConfigFrom({}, npm, { pipListing: listing });
    expect(config.pipIndexUrls).toEqual([
      'http://127.0.0.1:9999/simple',
      'http://10.0.0.5/simple',
      'https://mirror.example/simple',
    ]);
    expect(config.env).toMatchObject({
      PIP_INDEX_URL: 'http://127.0.0.1:9999/simple',
      PIP_EXTRA_INDEX_URL: 'http://10.0.0.5/simple https://mirror.example/simple',
      PIP_TRUSTED_HOST: '10.0.0.5',
    });
    const allowed = formatEgressAllowlist(allowlistOfToolConfig(config));
    expect(allowed).toContain('127.0.0.1:9999');
    expect(allowed).toContain('10.0.0.5:80');
    expect(allowed).toContain('mirror.example:443');
    // The index replaces the public one.
    expect(allowed).not.toContain('pypi.org');
  });

  it("the server's variables win over pip's files, as in pip", () => {
    const config = toolConfigFrom({ PIP_INDEX_URL: 'https://pypi.corp.example/simple' }, npm, {
      pipListing: listing,
    });
    expect(config.env.PIP_INDEX_URL).toBe('https://pypi.corp.example/simple');
    expect(config.pipIndexUrls[0]).toBe('https://pypi.corp.example/simple');
  });

  it('extra indexes only add to the public index, which stays allowed', () => {
    const config = toolConfigFrom({ PIP_EXTRA_INDEX_URL: 'https://extra.example/simple' }, npm);
    const allowed = formatEgressAllowlist(allowlistOfToolConfig(config));
    expect(allowed).toContain('pypi.org:443');
    expect(allowed).toContain('extra.example:443');
  });

  it('an index with credentials in pip.conf is allowed but never handed to setup', () => {
    const config = toolConfigFrom({}, npm, {
      pipListing: "global.index-url='https://user:secret@pypi.corp.example/simple'",
    });
    expect(config.env.PIP_INDEX_URL).toBeUndefined();
    expect(formatEgressAllowlist(allowlistOfToolConfig(config))).toContain('pypi.corp.example:443');
  });
});

describe("cargo's own configuration reaches the allowlist", () => {
  const cargoConfig = [
    '[source.crates-io]',
    'replace-with = "mirror"',
    '',
    '[source.mirror]',
    'registry = "sparse+https://crates-mirror.corp.example/index/"',
    '',
    '[registries.internal]',
    'index = "https://cargo.corp.example/git/index" # an alternative registry',
    '',
    '[net]',
    'registry = "https://not-a-source.example/"',
  ].join('\n');

  it('source replacements and alternative registries, not other tables', () => {
    expect(cargoSourceUrls(cargoConfig)).toEqual([
      'https://crates-mirror.corp.example/index/',
      'https://cargo.corp.example/git/index',
    ]);
    const allowed = formatEgressAllowlist(
      allowlistOfToolConfig(toolConfigFrom({}, npm, { cargoConfig })),
    );
    expect(allowed).toContain('crates-mirror.corp.example:443');
    expect(allowed).toContain('cargo.corp.example:443');
    expect(allowed).not.toContain('not-a-source.example');
  });
});
