import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  alwaysExcludedOutputs,
  excludeBlockEnd,
  excludeBlockStart,
  excludeLine,
  excludeOutputs,
  excludePatternsFor,
} from './setup-outputs';

describe('excludeLine', () => {
  it('anchors plain paths as root directories and writes globs as they are', () => {
    expect(excludeLine('node_modules')).toBe('/node_modules/');
    expect(excludeLine('.shadowbox/go')).toBe('/.shadowbox/go/');
    expect(excludeLine('build/')).toBe('/build/');
    expect(excludeLine('**/__pycache__/')).toBe('**/__pycache__/');
    expect(excludeLine('*.egg-info')).toBe('*.egg-info');
  });

  it.each(['', '/abs', '../up', 'a/../b', './x', '!negated', '#comment', 'a\\b', 'a\nb', 'a//b'])(
    'refuses %j',
    (pattern) => {
      expect(() => excludeLine(pattern)).toThrow(/not an output pattern/);
    },
  );

  it('covers every always-excluded output, and a plan adds its own once', () => {
    const patterns = excludePatternsFor({ outputs: ['node_modules', '.venv', 'cmake-out'] });
    expect(patterns).toEqual([...alwaysExcludedOutputs, 'node_modules', 'cmake-out']);
    expect(patterns.map(excludeLine)).toContain('/.shadowbox/');
    for (const name of ['.tox', '.gradle', 'target', 'build', '.venv']) {
      expect(patterns).toContain(name);
    }
  });
});

describe('excludeOutputs', () => {
  let gitDir: string;
  const exclude = () => readFile(join(gitDir, 'info', 'exclude'), 'utf8');

  beforeEach(async () => {
    gitDir = await mkdtemp(join(tmpdir(), 'sb-exclude-'));
  });
  afterEach(async () => {
    await rm(gitDir, { recursive: true, force: true });
  });

  it('writes one marked block, creating info/', async () => {
    await excludeOutputs(gitDir, ['node_modules', '**/__pycache__/']);
    expect(await exclude()).toBe(
      `${excludeBlockStart}\n/node_modules/\n**/__pycache__/\n${excludeBlockEnd}\n`,
    );
  });

  it('is idempotent and keeps what others wrote in the file', async () => {
    await mkdir(join(gitDir, 'info'));
    await writeFile(join(gitDir, 'info', 'exclude'), '# git ls-files --others\n*.swp\n');
    await excludeOutputs(gitDir, ['node_modules']);
    const once = await exclude();
    await excludeOutputs(gitDir, ['node_modules']);
    expect(await exclude()).toBe(once);
    expect(once).toBe(
      `# git ls-files --others\n*.swp\n\n${excludeBlockStart}\n/node_modules/\n${excludeBlockEnd}\n`,
    );
  });

  it('rewrites the block with the union, never a second block', async () => {
    await excludeOutputs(gitDir, ['node_modules']);
    await writeFile(join(gitDir, 'info', 'exclude'), `${await exclude()}*.tmp\n`);
    await excludeOutputs(gitDir, ['.venv', 'node_modules']);
    const text = await exclude();
    expect(text.split(excludeBlockStart)).toHaveLength(2);
    // Lines others wrote stay; the block is rewritten at the end.
    expect(text).toBe(
      `*.tmp\n\n${excludeBlockStart}\n/node_modules/\n/.venv/\n${excludeBlockEnd}\n`,
    );
  });

  it('leaves no temporary file and refuses a bad pattern before writing anything', async () => {
    await excludeOutputs(gitDir, ['target']);
    const before = await exclude();
    await expect(excludeOutputs(gitDir, ['ok', '!target'])).rejects.toThrow(/not an output/);
    expect(await exclude()).toBe(before);
    expect(await readdir(join(gitDir, 'info'))).toEqual(['exclude']);
  });

  it('serialises concurrent writers on one repository', async () => {
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => excludeOutputs(gitDir, [name])));
    const lines = (await exclude()).split('\n');
    expect(lines.filter((l) => /^\/[a-d]\/$/.test(l)).sort()).toEqual(['/a/', '/b/', '/c/', '/d/']);
  });
});
