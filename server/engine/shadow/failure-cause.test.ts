import { describe, expect, it } from 'vitest';
import { failureCause, unreadableReason } from './failure-cause';

// Outputs captured on this machine (go 1.19.8, cargo 1.95) from a module requiring example.com/x
// v1.2.3 and a crate depending on itoa 1.0.11, with nothing downloaded, GOPROXY=off and
// CARGO_NET_OFFLINE=true as every test run has them.
const captured = {
  goLookupOff: [
    'go: downloading example.com/x v1.2.3',
    'app.go:3:8: module lookup disabled by GOPROXY=off',
  ].join('\n'),
  goModDownloadOff: 'go: example.com/x@v1.2.3: module lookup disabled by GOPROXY=off',
  goMissingSum: [
    'app.go:3:8: missing go.sum entry for module providing package example.com/x (imported by example.com/app); to add:',
    '\tgo get example.com/app',
  ].join('\n'),
  goProxyUnreachable: [
    'go: downloading example.com/x v1.2.3',
    'app.go:3:8: example.com/x@v1.2.3: Get "https://proxy.golang.org/example.com/x/@v/v1.2.3.zip": dial tcp: lookup proxy.golang.org on 10.255.255.53:53: no such host',
  ].join('\n'),
  cargoOffline: [
    'error: no matching package named `itoa` found',
    'location searched: crates.io index',
    'required by package `rs1 v0.1.0 (/tmp/fc/rs1)`',
    "As a reminder, you're using offline mode (--offline) which can sometimes cause surprising resolution failures, if this error is too confusing you may wish to retry without `--offline`.",
  ].join('\n'),
  cargoUnreachable: [
    '    Updating crates.io index',
    'error: failed to get `itoa` as a dependency of package `rs1 v0.1.0 (/tmp/fc/rs1)`',
    '',
    'Caused by:',
    '  download of config.json failed',
    '',
    'Caused by:',
    '  failed to download from `https://index.crates.io/config.json`',
    '',
    'Caused by:',
    '  [7] Could not connect to server (Failed to connect to 127.0.0.1 port 9 after 0 ms: Could not connect to server)',
  ].join('\n'),
};

const refusedProxy = {
  commands: [['go', 'mod', 'download']],
  egress: [
    { host: 'proxy.golang.org', port: 443, allowed: false },
    { host: 'sum.golang.org', port: 443, allowed: true },
  ],
};

describe('failureCause: dependencies tests could not fetch offline', () => {
  it.each([
    [
      'go, module lookup off (go 1.19 names the module on its downloading line)',
      captured.goLookupOff,
      'go',
      'example.com/x',
      'module example.com/x is not in the workspace, and tests run offline: setup must download it (go mod download)',
    ],
    [
      'go mod download, module lookup off',
      captured.goModDownloadOff,
      'go',
      'example.com/x',
      'module example.com/x is not in the workspace, and tests run offline: setup must download it (go mod download)',
    ],
    [
      'go, a missing go.sum entry',
      captured.goMissingSum,
      'go',
      'example.com/x',
      "the module providing example.com/x has no entry in go.sum: add it to the project's go.sum (go mod tidy) and commit it",
    ],
    [
      'go, the module proxy unreachable',
      captured.goProxyUnreachable,
      'go',
      'example.com/x',
      'module example.com/x is not in the workspace, and tests run offline: setup must download it (go mod download); proxy.golang.org could not be reached: dial tcp: lookup proxy.golang.org on 10.255.255.53:53: no such host',
    ],
    [
      'cargo offline, crate never downloaded',
      captured.cargoOffline,
      'cargo',
      'itoa',
      'crate itoa is not in the workspace, and tests run offline: setup must download it (cargo fetch)',
    ],
    [
      'cargo, registry unreachable',
      captured.cargoUnreachable,
      'cargo',
      'itoa',
      'crate itoa is not in the workspace, and tests run offline: setup must download it (cargo fetch); index.crates.io could not be reached: [7] Could not connect to server (Failed to connect to 127.0.0.1 port 9 after 0 ms: Could not connect to server)',
    ],
  ])('%s', (_name, output, ecosystem, name, message) => {
    expect(failureCause(output)).toEqual({ kind: 'dependency', ecosystem, name, message });
  });

  it('names the refused hosts when setup asked for them', () => {
    expect(failureCause(captured.goLookupOff, refusedProxy)?.message).toBe(
      "module example.com/x is not in the workspace, and tests run offline: setup must download it (go mod download); the egress allowlist refused proxy.golang.org:443 during setup (add it to SHADOWBOX_EGRESS_ALLOW, or point the server's GOPROXY at a mirror it allows)",
    );
  });

  it('says how to ask for setup when the task ran none', () => {
    expect(failureCause(captured.cargoOffline, null)?.message).toMatch(
      /; this task ran no setup \(give it setupCommands \[\["cargo", "fetch"\]\], or leave setupCommands out to have them detected\)$/,
    );
    expect(failureCause(captured.cargoOffline, { commands: [], egress: [] })?.message).toMatch(
      /this task ran no setup/,
    );
  });

  it('says what setup ran when it fetched nothing and nothing was refused', () => {
    expect(
      failureCause(captured.goLookupOff, { commands: [['make', 'deps']], egress: [] })?.message,
    ).toMatch(/; setup ran make deps, none of which downloads it$/);
    expect(
      failureCause(captured.goLookupOff, { commands: [['go', 'mod', 'download']], egress: [] })
        ?.message,
    ).toMatch(/; setup ran go mod download, which did not bring it$/);
  });
});

describe('failureCause: missing tools, and nothing', () => {
  it('a program that is not there', () => {
    expect(failureCause('sh: 1: mocha: not found')).toEqual({
      kind: 'missing-tool',
      name: 'mocha',
      message: 'mocha: not found — is a setup command missing?',
    });
  });

  it('an ordinary failing test is no cause', () => {
    expect(failureCause('--- FAIL: TestAdd (0.00s)\nFAIL\nFAIL\texample.com/app\t0.002s')).toBe(
      null,
    );
  });

  it('a run whose output could not be read says its cause, or that it could not be read', () => {
    expect(unreadableReason({ outputTail: captured.cargoOffline })).toMatch(/^crate itoa is not/);
    expect(unreadableReason({ outputTail: 'some words' })).toBe(
      'the test output could not be read',
    );
    expect(unreadableReason({})).toBe('the test output could not be read');
  });
});
