import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentBuild } from '../../bin/cli-build.mjs';
import { projectRoot } from './project-root';

const bin = path.join(projectRoot, 'bin', 'shadowbox.mjs');
const outdir = path.join(projectRoot, 'dist', 'cli');

const cargoOutput =
  'running 2 tests\ntest tests::a ... ok\ntest tests::b ... FAILED\n\n' +
  'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n';

/** The bin's answer to `args`, from the build or (SHADOWBOX_CLI_SOURCE=1) from the sources. */
async function run(args: readonly string[], from: 'build' | 'sources', input = '') {
  const result = await execa(process.execPath, [bin, ...args], {
    cwd: projectRoot,
    env: { SHADOWBOX_CLI_SOURCE: from === 'sources' ? '1' : '0' },
    input,
    reject: false,
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/** Every chunk and module `chunk` loads statically, following the chunks it imports. */
async function staticImports(chunk: string, seen = new Set<string>()): Promise<Set<string>> {
  seen.add(chunk);
  const text = await readFile(path.join(outdir, chunk), 'utf8');
  for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?from "([^"]+)"/gms)) {
    const name = specifier?.startsWith('./') === true ? specifier.slice(2) : (specifier ?? '');
    if (seen.has(name)) continue;
    if (name.endsWith('.js')) await staticImports(name, seen);
    else seen.add(name);
  }
  return seen;
}

describe('the built CLI (scripts/build-cli.mjs)', () => {
  beforeAll(async () => {
    await execa(process.execPath, [path.join(projectRoot, 'scripts', 'build-cli.mjs')]);
  });

  it('is what the bin runs right after a build', () => {
    expect(currentBuild(projectRoot)).toBe(path.join(outdir, 'main.js'));
  });

  it.each([
    ['--help', ['--help'], ''],
    ['no command', [], ''],
    ['an unknown command', ['nope'], ''],
    ['parse of cargo output', ['parse', '--runner', 'auto'], cargoOutput],
    ['parse with an unknown runner', ['parse', '--runner', 'nope'], ''],
    ['parse with an unknown option', ['parse', '--frobnicate'], ''],
    ['ingest --help', ['ingest', '--help'], ''],
    ['shadow-run --help', ['shadow-run', '--help'], ''],
    ['serve --help', ['serve', '--help'], ''],
  ])('answers %s exactly as the sources do', async (_, args, input) => {
    const built = await run(args, 'build', input);
    expect(built).toEqual(await run(args, 'sources', input));
    expect(built.stdout + built.stderr).not.toBe('');
  });

  it('keeps each command in a chunk of its own, so parse loads no other command', async () => {
    const manifest = JSON.parse(await readFile(path.join(outdir, 'manifest.json'), 'utf8')) as {
      inputs: { path: string }[];
    };
    const sources = manifest.inputs.map((input) => input.path);
    expect(sources).toContain('server/cli/commands/parse.ts');
    // Bundled from the generated sources (not a package), and so watched for staleness.
    expect(sources).toContain('server/db/generated/sqlite/client.ts');
    // Packages stay external but for the few plain-JavaScript ones every command loads (and
    // what they import): those are bundled, and watched like the sources.
    const packages = new Set(
      sources
        .filter((source) => source.startsWith('node_modules/'))
        .map((source) =>
          source
            .split('/')
            .slice(1, source.split('/')[1]?.startsWith('@') ? 3 : 2)
            .join('/'),
        ),
    );
    expect(packages).toContain('execa');
    expect(packages).toContain('zod');
    for (const external of ['@prisma/client', 'pg', 'pg-boss', 'better-auth', 'next', 'esbuild']) {
      expect(packages).not.toContain(external);
    }
    const main = await readFile(path.join(outdir, 'main.js'), 'utf8');
    const parseChunk = /import\("\.\/(parse-[A-Z0-9]+\.js)"\)/.exec(main)?.[1];
    expect(parseChunk).toBeDefined();
    const loaded = await staticImports(parseChunk ?? '');
    expect(
      [...loaded].filter((file) => /^(shadow-run|ingest|mcp|token|serve)-/.test(file)),
    ).toEqual([]);
    // Nothing but Node's own modules: the parsers need no package.
    expect(
      [...loaded].filter((file) => !file.endsWith('.js') && !file.startsWith('node:')),
    ).toEqual([]);
  });

  it('ships the files its modules read next to themselves', async () => {
    const source = path.join(projectRoot, 'server', 'engine', 'egress', 'egress-forwarder.mjs');
    expect(await readFile(path.join(outdir, 'egress-forwarder.mjs'), 'utf8')).toBe(
      await readFile(source, 'utf8'),
    );
  });
});
