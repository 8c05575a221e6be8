import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';

/** Test-side git: isolated from the machine's config, with a fixed identity and dates. */
export async function testGit(
  cwd: string,
  args: readonly string[],
  input?: string | Buffer,
): Promise<string> {
  const result = await execa('git', args, {
    cwd,
    extendEnv: false,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Fixture',
      GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
      GIT_COMMITTER_NAME: 'Fixture',
      GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
      GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z',
    },
    ...(input === undefined ? {} : { input }),
  });
  return result.stdout.trim();
}

export interface FixtureRepo {
  readonly bare: string;
  readonly main: string;
  readonly feature: string;
  readonly tagged: string;
}

/**
 * A bare repository `<root>/<name>.git` with two commits on main, a tag `v1.0` on the first and a
 * branch `feature` adding a file.
 */
export async function makeFixtureRepo(root: string, name: string): Promise<FixtureRepo> {
  const work = join(root, `${name}-work`);
  await mkdir(join(work, 'src'), { recursive: true });
  await testGit(work, ['init', '-q', '-b', 'main']);
  await writeFile(join(work, 'README.md'), '# fixture\n');
  await writeFile(join(work, 'src', 'lib.js'), 'export const v = 1;\n');
  await testGit(work, ['add', '-A']);
  await testGit(work, ['commit', '-q', '-m', 'first']);
  await testGit(work, ['tag', 'v1.0']);
  const tagged = await testGit(work, ['rev-parse', 'HEAD']);
  await writeFile(join(work, 'src', 'lib.js'), 'export const v = 2;\n');
  await testGit(work, ['commit', '-q', '-am', 'second']);
  const main = await testGit(work, ['rev-parse', 'HEAD']);
  await testGit(work, ['checkout', '-q', '-b', 'feature']);
  await writeFile(join(work, 'feature.txt'), 'feature\n');
  await testGit(work, ['add', '-A']);
  await testGit(work, ['commit', '-q', '-m', 'feature']);
  const feature = await testGit(work, ['rev-parse', 'HEAD']);
  await testGit(work, ['checkout', '-q', 'main']);
  const bare = join(root, `${name}.git`);
  await testGit(root, ['clone', '-q', '--bare', work, bare]);
  return { bare, main, feature, tagged };
}

/**
 * A bare repository whose only commit has a tree git's porcelain would never produce, built with
 * `mktree`: `entries` are mktree lines with `{blob}` standing for a blob of `content`.
 */
export async function makeCraftedRepo(
  root: string,
  name: string,
  build: (
    blob: string,
    git: (args: string[], input?: string | Buffer) => Promise<string>,
  ) => Promise<string>,
): Promise<string> {
  const bare = join(root, `${name}.git`);
  await mkdir(bare);
  const run = (args: string[], input?: string | Buffer) => testGit(bare, args, input);
  await run(['init', '-q', '--bare', '-b', 'main']);
  const blob = await run(['hash-object', '-w', '--stdin'], 'payload\n');
  const tree = await build(blob, run);
  const commit = await run(['commit-tree', tree, '-m', 'crafted']);
  await run(['update-ref', 'refs/heads/main', commit]);
  return bare;
}

/** A tree entry for `writeTree`: a file's content, or a symbolic link's target. */
export type TreeSpec = Readonly<Record<string, string | { readonly linkTo: string }>>;

/**
 * Writes the tree that flat `/`-separated paths describe (links as mode 120000 blobs holding their
 * target, exactly, with no newline added) and returns its id, for `makeCraftedRepo`.
 */
export async function writeTree(
  git: (args: string[], input?: string | Buffer) => Promise<string>,
  spec: TreeSpec,
): Promise<string> {
  const here = new Map<string, string | { readonly linkTo: string }>();
  const below = new Map<string, Record<string, string | { readonly linkTo: string }>>();
  for (const [path, entry] of Object.entries(spec)) {
    const slash = path.indexOf('/');
    if (slash === -1) {
      here.set(path, entry);
    } else {
      const sub = below.get(path.slice(0, slash)) ?? {};
      sub[path.slice(slash + 1)] = entry;
      below.set(path.slice(0, slash), sub);
    }
  }
  const lines: string[] = [];
  for (const [name, entry] of here) {
    const content = typeof entry === 'string' ? entry : entry.linkTo;
    const blob = await git(['hash-object', '-w', '--stdin'], content);
    lines.push(`${typeof entry === 'string' ? '100644' : '120000'} blob ${blob}\t${name}\n`);
  }
  for (const [name, sub] of below) {
    lines.push(`040000 tree ${await writeTree(git, sub)}\t${name}\n`);
  }
  return git(['mktree'], lines.join(''));
}
