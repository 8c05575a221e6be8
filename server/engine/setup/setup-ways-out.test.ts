import { describe, expect, it } from 'vitest';
import { failedRequirement, withWaysOut } from './setup-ways-out';

// Outputs captured on this machine: pip 23.2 against an index it cannot reach, npm 11 asking the
// registry for a package and a version that do not exist, go mod download with GOPROXY=off.
const pipOutput = [
  'Looking in indexes: http://127.0.0.1:9/simple',
  'ERROR: Could not find a version that satisfies the requirement tinypkg==0.1 (from versions: none)',
  'ERROR: No matching distribution found for tinypkg==0.1',
].join('\n');
const npm404 = [
  'npm error code E404',
  'npm error 404 Not Found - GET https://registry.npmjs.org/shadowbox-surely-absent-pkg-xyz',
  'npm error 404',
  "npm error 404  The requested resource 'shadowbox-surely-absent-pkg-xyz@*' could not be found or you do not have permission to access it.",
].join('\n');
const npmTarget = [
  'npm error code ETARGET',
  'npm error notarget No matching version found for is-number@99.0.0.',
  "npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.",
].join('\n');
const goDownload = 'go: example.com/x@v1.2.3: module lookup disabled by GOPROXY=off';
const cargoFetch = [
  'error: failed to get `itoa` as a dependency of package `rs1 v0.1.0 (/tmp/fc/rs1)`',
  '',
  'Caused by:',
  '  download of config.json failed',
].join('\n');

describe('failedRequirement', () => {
  it.each([
    ['pip', pipOutput, 'tinypkg==0.1'],
    ['npm E404', npm404, 'shadowbox-surely-absent-pkg-xyz@*'],
    ['npm ETARGET', npmTarget, 'is-number@99.0.0'],
    ['go mod download', goDownload, 'example.com/x@v1.2.3'],
    ['cargo fetch', cargoFetch, 'itoa'],
    ['anything else', 'make: *** [all] Error 2', null],
  ])('%s', (_name, output, requirement) => {
    expect(failedRequirement(output)).toBe(requirement);
  });
});

describe('withWaysOut', () => {
  const facts = {
    error: 'setup command `.venv/bin/pip install -r requirements.txt` exited with code 1',
    failedCommand: ['.venv/bin/pip', 'install', '-r', 'requirements.txt'],
    outputTail: pipOutput,
    egress: [{ host: 'pypi.org', allowed: false }],
    detected: true,
    toolEnv: { npm_config_registry: 'https://registry.npmjs.org/' },
  };

  it("a detected pip setup names the requirement, no setup, pip's index settings and the allowlist", () => {
    expect(withWaysOut(facts)).toBe(
      "setup command `.venv/bin/pip install -r requirements.txt` exited with code 1: tinypkg==0.1 could not be installed. Ways out: run no setup (give the task setupCommands [], or your own commands); point the server's pip at an index it can reach (PIP_INDEX_URL or PIP_EXTRA_INDEX_URL in its environment, or index-url in its pip.conf; now none: pip uses the public index): setup's pip gets the same setting and the egress allowlist allows its host; or add the refused host to SHADOWBOX_EGRESS_ALLOW",
    );
  });

  it("a task's own commands: change them; the configured index is shown", () => {
    const text = withWaysOut({
      ...facts,
      detected: false,
      egress: [],
      toolEnv: { PIP_INDEX_URL: 'https://pypi.corp.example/simple' },
    });
    expect(text).toContain("Ways out: change the task's setupCommands (or give [] for no setup)");
    expect(text).toContain('now https://pypi.corp.example/simple');
    expect(text).not.toContain('SHADOWBOX_EGRESS_ALLOW');
  });

  it.each([
    [
      ['npm', 'ci'],
      npmTarget,
      /is-number@99\.0\.0 could not be installed.*registry in its \.npmrc/,
    ],
    [['go', 'mod', 'download'], goDownload, /example\.com\/x@v1\.2\.3 could not be .*GOPROXY/],
    [['cargo', 'fetch', '--locked'], cargoFetch, /itoa could not be .*cargo config\.toml/],
  ])('%j: the requirement and its own setting', (command, outputTail, expected) => {
    expect(withWaysOut({ ...facts, failedCommand: command, outputTail })).toMatch(expected);
  });

  it('a command that is no package manager keeps its reason as it was', () => {
    expect(withWaysOut({ ...facts, failedCommand: ['make', 'deps'] })).toBe(facts.error);
  });
});
