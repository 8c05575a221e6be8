import { describe, expect, it } from 'vitest';
import { linkStaysInside, setupCacheKey, toolchainPrograms } from './setup-cache';
import { setupCacheScope } from './task-setup';

const base = {
  scope: 'team-1',
  tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  commands: [['npm', 'ci', '--no-audit', '--no-fund']],
  toolchains: { node: 'v20.20.0', npm: '11.19.0' },
};

describe('setupCacheKey', () => {
  it('is a sha256 hex digest, the same for the same inputs', () => {
    const key = setupCacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(setupCacheKey({ ...base })).toBe(key);
  });

  it('does not depend on the order of toolchains', () => {
    const key = setupCacheKey(base);
    expect(setupCacheKey({ ...base, toolchains: { npm: '11.19.0', node: 'v20.20.0' } })).toBe(key);
  });

  it('changes with the tree, the scope, the commands, a toolchain or env', () => {
    const key = setupCacheKey(base);
    const variants = [
      { ...base, tree: 'ac9ed26b8ce7ce9a2a8b6af3ad2ffc67ec2d0c59' },
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

describe('linkStaysInside', () => {
  it('takes links that resolve inside the worktree by their text alone', () => {
    expect(linkStaysInside('node_modules/.bin/pkg', '../pkg/index.js')).toBe(true);
    expect(linkStaysInside('node_modules/pkg', '../packages/pkg')).toBe(true);
    expect(
      linkStaysInside('node_modules/.pnpm/a@1/node_modules/b', '../../b@2/node_modules/b'),
    ).toBe(true);
    expect(linkStaysInside('.venv/lib64', 'lib')).toBe(true);
    expect(linkStaysInside('.venv/lib64', './lib/')).toBe(true);
  });

  it('refuses absolute targets, climbs past the root and `..` after a name', () => {
    expect(linkStaysInside('.venv/bin', '/srv/data/sources/other.git/worktrees/t')).toBe(false);
    expect(linkStaysInside('.venv/bin/python3', '/usr/bin/python3')).toBe(false);
    expect(linkStaysInside('.venv/bin', '../../other-task/.git')).toBe(false);
    expect(linkStaysInside('node_modules', '..')).toBe(false);
    // `l → .` then `l/../..`: lexically inside, physically one level above.
    expect(linkStaysInside('node_modules/l2', 'l1/../..')).toBe(false);
    expect(linkStaysInside('node_modules/x', '')).toBe(false);
  });
});

describe('setupCacheScope', () => {
  const archive = { kind: 'archive', name: 'p.tar.gz' } as const;
  const git = { kind: 'git', url: 'https://git.example.com/p.git', ref: null } as const;

  it("is the task's team when it is a team's, else its person; for Git also the URL", () => {
    expect(setupCacheScope({ ownerId: 'p1', teamId: 't1', source: archive })).toBe(
      '["team:t1","archive"]',
    );
    expect(setupCacheScope({ ownerId: 'p1', teamId: null, source: archive })).toBe(
      '["person:p1","archive"]',
    );
    expect(setupCacheScope({ ownerId: 'p1', teamId: null, source: git })).toBe(
      '["person:p1","git:https://git.example.com/p.git"]',
    );
  });

  it('is null for a task that belongs to no one: it is never cached', () => {
    expect(setupCacheScope({ ownerId: null, teamId: null, source: archive })).toBeNull();
  });
});
