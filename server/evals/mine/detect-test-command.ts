import type { SetupTree } from '../../engine/setup';

// The test command of a repository when the miner is given none, from the tree alone. Tasks get
// theirs from the person creating them; a mined set needs one for every instance, and the
// ecosystem's usual runner is what a maintainer would type. The command policy still checks it.

export interface DetectedTestCommand {
  readonly argv: readonly string[];
  readonly reason: string;
}

const pythonMarkers = [
  'pytest.ini',
  'conftest.py',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'tox.ini',
];
const pythonTest = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;

/** Node's `npm test` only when package.json names a test script (npm's default one fails). */
async function npmTest(tree: SetupTree): Promise<boolean> {
  const text = await tree.read('package.json');
  if (text === null) return false;
  try {
    const manifest = JSON.parse(text) as { scripts?: { test?: unknown } };
    return typeof manifest.scripts?.test === 'string';
  } catch {
    return false;
  }
}

/** The first ecosystem at the root with tests wins: Rust, Go, Python, then Node. */
export async function detectTestCommand(tree: SetupTree): Promise<DetectedTestCommand | null> {
  const files = new Set(tree.files);
  if (files.has('Cargo.toml'))
    return { argv: ['cargo', 'test'], reason: 'Cargo.toml → cargo test' };
  if (files.has('go.mod')) {
    return { argv: ['go', 'test', './...'], reason: 'go.mod → go test ./...' };
  }
  const marker = pythonMarkers.find((file) => files.has(file));
  const pythonTests = tree.files.some((file) => pythonTest.test(file));
  if (marker !== undefined || pythonTests) {
    return {
      argv: ['python3', '-m', 'pytest', '-q'],
      reason: `${marker ?? 'test_*.py files'} → python3 -m pytest -q`,
    };
  }
  if (await npmTest(tree)) {
    return { argv: ['npm', 'test'], reason: 'package.json has a test script → npm test' };
  }
  return null;
}
