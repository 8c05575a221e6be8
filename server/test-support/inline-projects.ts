import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { handToSandbox, sandboxIdentity } from '../engine/sandbox';

/**
 * A workspace as the server keeps one: its files belong to the identity runs have (a root server's
 * runs are never root on the host, and may write only what is theirs).
 */
export const asWorkspace = (dir: string): Promise<void> => handToSandbox(dir, sandboxIdentity());

/** Writes a tree of files under a new temporary directory and returns its path. */
export async function writeProject(
  prefix: string,
  files: Readonly<Record<string, string>>,
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await writeFile(path.join(dir, relative), content);
  }
  await asWorkspace(dir);
  return dir;
}

/** A one-function crate whose `add` subtracts: one failing integration test, one passing unit test. */
export const crateFiles = {
  'Cargo.toml':
    '[package]\nname = "shadow_fixture"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  'src/lib.rs':
    'pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn zero_is_neutral() {\n        assert_eq!(super::add(5, 0), 5);\n    }\n}\n',
  'tests/add.rs':
    'use shadow_fixture::add;\n\n#[test]\nfn adds_two_numbers() {\n    assert_eq!(add(2, 3), 5);\n}\n',
} as const;

export const crateLib = {
  fixed:
    'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn zero_is_neutral() {\n        assert_eq!(super::add(5, 0), 5);\n    }\n}\n',
  wrong:
    'pub fn add(a: i32, b: i32) -> i32 {\n    a * b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn zero_is_neutral() {\n        assert_eq!(super::add(5, 0), 5);\n    }\n}\n',
  broken: 'pub fn add(a: i32, b: i32) -> i32 {\n    a + "b"\n}\n',
  slow: 'pub fn add(a: i32, b: i32) -> i32 {\n    std::thread::sleep(std::time::Duration::from_secs(120));\n    a + b\n}\n',
} as const;

/** Builds the crate's tests once, so runs start from a warm target/ as a real workspace would. */
export async function warmCrate(dir: string): Promise<void> {
  await execa('cargo', ['test', '--no-run', '--offline', '--quiet'], { cwd: dir });
  await asWorkspace(dir);
}

/** A module whose `add` subtracts, with one failing and one passing test. */
export const pytestFiles = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'test_calc.py':
    'from calc import add\n\n\ndef test_adds():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(5, 0) == 5\n',
} as const;

export const pytestCalc = {
  fixed: 'def add(a, b):\n    return a + b\n',
  wrong: 'def add(a, b):\n    return a * b\n',
  broken: 'def add(a, b)\n    return a + b\n',
  slow: 'import time\n\n\ndef add(a, b):\n    time.sleep(120)\n    return a + b\n',
} as const;
