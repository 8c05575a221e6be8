/** Test files by path: the directory and file names that hold tests by convention. */

// Directory names and file names that hold tests by convention, across ecosystems.
const testDirectory =
  /^(?:tests?|__tests?__|specs?|testdata|e2e|__snapshots__)$|[._-](?:tests?|specs?)$/i;
const testFileName = [
  /_test\.[A-Za-z0-9]+$/, // Go, Python, Ruby, Elixir, Dart, C/C++
  /^test_[^/]*\.py$/,
  /^conftest\.py$/,
  // Django's `tests.py`, a root `test.py`, Rust's `#[cfg(test)] mod tests;` file, `node test.js`.
  /^tests?\.(?:py|rs|js|mjs|cjs|ts|mts|cts)$/,
  /\.(?:test|spec)\.[A-Za-z0-9]+$/, // JS/TS, also *.spec.* anywhere
  /_spec\.[A-Za-z0-9]+$/,
  /[a-z0-9](?:Tests?|IT)\.(?:java|kt|scala|groovy|cs|php)$/,
  /\.snap$/,
];

export function isTestPath(path: string | null): boolean {
  if (path === null) return false;
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  return parts.some((part) => testDirectory.test(part)) || testFileName.some((re) => re.test(name));
}

export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}
