import path from 'node:path';
import { oneFileHypothesis, writeTree, type BenchProject } from './project';

/**
 * A TypeScript project compiled incrementally by the repository's own `tsc` (its .tsbuildinfo is
 * the warm cache) and tested with node's built-in runner. Six modules, one test file each.
 */
const moduleNames = ['queue', 'matrix', 'parser', 'ledger', 'graph', 'text'] as const;

function moduleSource(name: string, index: number, variant: 'base' | 'alt' | 'bug'): string {
  const kind = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  const scoreBody =
    variant === 'alt'
      ? `  let total = 0;
  for (const item of items) total += item.weight * ${index + 2};
  return total;`
      : variant === 'bug'
        ? `  return items.reduce((sum, item) => sum + item.weight * ${index + 1}, 0);`
        : `  return items.reduce((sum, item) => sum + item.weight * ${index + 2}, 0);`;
  return `export interface ${kind}Item<T> {
  readonly id: number;
  readonly key: string;
  readonly weight: number;
  readonly payload: T;
}

export type ${kind}Event<T> =
  | { readonly type: 'added'; readonly item: ${kind}Item<T> }
  | { readonly type: 'removed'; readonly id: number }
  | { readonly type: 'cleared' };

export class ${kind}Store<T> {
  readonly #items = new Map<number, ${kind}Item<T>>();
  readonly #listeners: ((event: ${kind}Event<T>) => void)[] = [];
  #nextId = 1;

  subscribe(listener: (event: ${kind}Event<T>) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners.indexOf(listener);
      if (at >= 0) this.#listeners.splice(at, 1);
    };
  }

  add(key: string, weight: number, payload: T): ${kind}Item<T> {
    const item: ${kind}Item<T> = { id: this.#nextId++, key, weight, payload };
    this.#items.set(item.id, item);
    this.#emit({ type: 'added', item });
    return item;
  }

  remove(id: number): boolean {
    const removed = this.#items.delete(id);
    if (removed) this.#emit({ type: 'removed', id });
    return removed;
  }

  clear(): void {
    this.#items.clear();
    this.#emit({ type: 'cleared' });
  }

  get size(): number {
    return this.#items.size;
  }

  values(): ${kind}Item<T>[] {
    return [...this.#items.values()];
  }

  byKey(): Map<string, ${kind}Item<T>[]> {
    const groups = new Map<string, ${kind}Item<T>[]>();
    for (const item of this.#items.values()) {
      const group = groups.get(item.key) ?? [];
      group.push(item);
      groups.set(item.key, group);
    }
    return groups;
  }

  top(n: number): ${kind}Item<T>[] {
    return this.values()
      .sort((a, b) => b.weight - a.weight || a.id - b.id)
      .slice(0, n);
  }

  map<U>(f: (payload: T) => U): ${kind}Store<U> {
    const out = new ${kind}Store<U>();
    for (const item of this.#items.values()) out.add(item.key, item.weight, f(item.payload));
    return out;
  }

  #emit(event: ${kind}Event<T>): void {
    for (const listener of this.#listeners) listener(event);
  }
}

export function score<T>(items: readonly ${kind}Item<T>[]): number {
${scoreBody}
}

export function histogram(values: readonly number[], buckets: number): number[] {
  const counts = new Array<number>(buckets).fill(0);
  if (values.length === 0) return counts;
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  for (const v of values) {
    const at = Math.min(buckets - 1, Math.floor(((v - min) / span) * buckets));
    counts[at] = (counts[at] ?? 0) + 1;
  }
  return counts;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
`;
}

function testSource(name: string, index: number): string {
  const kind = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ${kind}Store, chunk, histogram, score } from '../src/${name}.js';

function sample(): ${kind}Store<string> {
  const store = new ${kind}Store<string>();
  for (let i = 0; i < 50; i += 1) store.add(\`k\${i % 5}\`, (i * 7) % 11, \`p\${i}\`);
  return store;
}

test('${name}: scores weigh every item', () => {
  const store = sample();
  const total = store.values().reduce((sum, item) => sum + item.weight, 0);
  assert.equal(score(store.values()), total * ${index + 2});
});

test('${name}: top items are ordered by weight, then age', () => {
  const top = sample().top(3);
  assert.deepEqual(
    top.map((item) => item.weight),
    [10, 10, 10],
  );
  assert.ok(top[0]!.id < top[1]!.id);
});

test('${name}: events and grouping', () => {
  const store = sample();
  const seen: string[] = [];
  const stop = store.subscribe((event) => seen.push(event.type));
  store.remove(1);
  store.clear();
  stop();
  store.add('x', 1, 'y');
  assert.deepEqual(seen, ['removed', 'cleared']);
  assert.equal(sample().byKey().get('k0')?.length, 10);
  assert.equal(sample().map((p) => p.length).size, 50);
});

test('${name}: helpers', () => {
  assert.deepEqual(histogram([1, 2, 3, 4], 2), [2, 2]);
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});
`;
}

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    outDir: 'dist',
    rootDir: '.',
    incremental: true,
    tsBuildInfoFile: 'dist/.tsbuildinfo',
    types: ['node'],
    skipLibCheck: true,
  },
  include: ['src', 'test'],
};

function file(name: string): string {
  return `src/${name}.ts`;
}

/** Generates the project under `root/ts-project`; `tsc` is the repository's own compiler. */
export async function createTsProject(root: string, tscPath: string): Promise<BenchProject> {
  const dir = path.join(root, 'ts-project');
  const files = new Map<string, string>([
    ['package.json', '{ "name": "ts-bench", "private": true, "type": "module" }\n'],
    ['tsconfig.json', `${JSON.stringify(tsconfig, null, 2)}\n`],
    ['.gitignore', 'dist/\n'],
  ]);
  moduleNames.forEach((name, i) => {
    files.set(file(name), moduleSource(name, i, 'base'));
    files.set(`test/${name}.test.ts`, testSource(name, i));
  });
  const lines = await writeTree(dir, files);
  const build = `"${tscPath}" -p . && node --test dist/test/`;
  return {
    kind: 'ts',
    dir,
    command: ['/bin/sh', '-c', build],
    warmCommand: [tscPath, '-p', '.'],
    hypotheses: [
      oneFileHypothesis('queue-loop', file('queue'), moduleSource('queue', 0, 'alt')),
      oneFileHypothesis('parser-bug', file('parser'), moduleSource('parser', 2, 'bug')),
      oneFileHypothesis('graph-loop', file('graph'), moduleSource('graph', 4, 'alt')),
      oneFileHypothesis('text-loop', file('text'), moduleSource('text', 5, 'alt')),
    ],
    stats: { files: files.size, lines, tests: moduleNames.length * 4 },
  };
}
