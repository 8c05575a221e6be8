import { describe, expect, it } from 'vitest';
import { readManifests, setupCacheKey, toolchainPrograms } from './setup-cache';

const base = {
  scope: 'team-1',
  manifests: [
    { path: 'package.json', content: '{"name":"a"}' },
    { path: 'package-lock.json', content: Buffer.from('{"lockfileVersion":3}') },
  ],
  commands: [['npm', 'ci', '--no-audit', '--no-fund']],
  toolchains: { node: 'v20.20.0', npm: '11.19.0' },
};

describe('setupCacheKey', () => {
  it('is a sha256 hex digest, the same for the same inputs', () => {
    const key = setupCacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(setupCacheKey({ ...base })).toBe(key);
  });

  it('does not depend on the order of manifests or toolchains, nor on string vs bytes', () => {
    const key = setupCacheKey(base);
    expect(
      setupCacheKey({
        ...base,
        manifests: [
          { path: 'package-lock.json', content: '{"lockfileVersion":3}' },
          { path: 'package.json', content: Buffer.from('{"name":"a"}') },
        ],
        toolchains: { npm: '11.19.0', node: 'v20.20.0' },
      }),
    ).toBe(key);
  });

  it('changes with a manifest content or path, the scope, the commands, a toolchain or env', () => {
    const key = setupCacheKey(base);
    const variants = [
      { ...base, manifests: [{ path: 'package.json', content: '{"name":"b"}' }] },
      {
        ...base,
        manifests: base.manifests.map((m) => ({ ...m, path: `sub/${m.path}` })),
      },
      { ...base, scope: 'team-2' },
      { ...base, commands: [['npm', 'ci']] },
      { ...base, commands: [...base.commands, ['npm', 'run', 'build']] },
      { ...base, toolchains: { ...base.toolchains, node: 'v22.1.0' } },
      { ...base, toolchains: { ...base.toolchains, python3: 'absent' } },
      { ...base, env: { GOFLAGS: '-modcacherw' } },
    ];
    const keys = variants.map(setupCacheKey);
    expect(new Set([key, ...keys]).size).toBe(variants.length + 1);
  });

  it('keeps the argv boundaries: ["a b"] and ["a", "b"] differ', () => {
    expect(setupCacheKey({ ...base, commands: [['a b']] })).not.toBe(
      setupCacheKey({ ...base, commands: [['a', 'b']] }),
    );
  });
});

describe('toolchainPrograms', () => {
  it('names the programs whose versions decide what each command writes', () => {
    expect(
      toolchainPrograms([
        ['npm', 'ci'],
        ['python3', '-m', 'venv', '.venv'],
        ['.venv/bin/pip', 'install', '-e', '.'],
        ['cargo', 'fetch', '--locked'],
        ['go', 'mod', 'download'],
        ['cmake', '-S', '.', '-B', 'build'],
        ['cmake', '--build', 'build'],
        ['./unknown.sh'],
      ]),
    ).toEqual(['node', 'npm', 'python3', 'cargo', 'rustc', 'go', 'cmake', 'cc', 'c++']);
    expect(toolchainPrograms([['yarn', 'install']])).toEqual(['node', 'yarn']);
  });
});

describe('readManifests', () => {
  it('reads the present manifests and leaves out absent ones', async () => {
    const files: Record<string, string> = { 'go.mod': 'module x\n' };
    const tree = {
      files: Object.keys(files),
      read: (path: string) => Promise.resolve(files[path] ?? null),
    };
    expect(await readManifests(tree, ['go.mod', 'go.sum'])).toEqual([
      { path: 'go.mod', content: 'module x\n' },
    ]);
  });
});
