/**
 * Which changes of a hypothesis edit tests. A hypothesis that edits tests could pass by weakening
 * them, and test-named files are not the only place tests live: a Rust `#[cfg(test)]` module in
 * `src/lib.rs`, a `describe` block in `src/util.ts`, a `pytest.ini` with `--deselect` or a
 * `//go:build ignore` line change what the test run checks just as much.
 *
 * Three kinds, checked per changed file in this order (a file gets the first kind that applies),
 * and a fourth that an ordinary source file gets besides `test-in-source`:
 * - `test-config`: the file configures how tests are collected or run (see `configWhats`; some
 *   files count only where their test sections changed).
 * - `test-file`: the path is a test file by convention (`isTestPath`), or a runner collects it by
 *   a pattern that picks files by name (pytest's `python_files = check_*.py`, jest's
 *   `testMatch`, …; see `collectionOf`) and it holds tests.
 * - `test-in-source`: a test inside an ordinary source file was added, changed or removed. Tests
 *   marked as such count in any file: Rust `#[cfg(test)]` items, `#[test]` functions and
 *   doc-comment examples, Python doctests, `import.meta.vitest` blocks. Tests known only by their
 *   names count only in files a runner collects (a library's `class TestOperation` is not a
 *   test): Python functions and classes named as pytest takes them and `TestCase` subclasses,
 *   JS/TS `describe`/`it`/`test` calls. Go's `TestXxx` counts only in `_test.go` files, which
 *   are test files. Blocks are found by bracket matching over a lexer that skips
 *   strings and comments (approximately: JS regular expressions and JSX text by heuristics),
 *   Python's by indentation; each block is compared as text before and after.
 * - `test-framework`: added lines of an ordinary source file reach into the test framework:
 *   patch pytest's reports or `assert`, define `assert_eq!`, exit before the runner reports,
 *   write the report, make `__eq__` always true (see `frameworkRules`; `rule` says which fired).
 *
 * Not covered: task runners (`Makefile`, `justfile`, CI workflows), Bazel, and tests in languages
 * other than these four.
 *
 * Pure and linear in the size of the files (every bracket is matched once, in one pass).
 */

export { testEditsOf } from './test-edits-of';
export { demotionReason, testEditorsOf, type ChangeSet } from './test-editors';
export { testEditsOfHunks } from './diff-only';
export { frameworkRules, type FrameworkRule } from './framework-rules';
export type { HunkFile } from './hunk-lines';
export { isTestPath } from './test-paths';
export { collectionOf, defaultCollection } from './collection-of';
export type { Collection } from './collection';
export type { FileChange, TestEdit, TestEditKind } from './types';
