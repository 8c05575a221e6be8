import { describe, expect, it } from 'vitest';
import { change, edits, lines, whats } from './test-support/changes';

const rustLib = (assertion: string, add = 'a + b'): string =>
  lines(
    'pub fn add(a: i32, b: i32) -> i32 {',
    `    ${add}`,
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn adds() {',
    '        assert_eq!(add(1, 2), 3);',
    `        ${assertion}`,
    '    }',
    '',
    '    #[test]',
    '    fn zero() {',
    '        assert_eq!(add(0, 0), 0);',
    '    }',
    '}',
  );

describe('test-in-source: Rust', () => {
  it('flags an assert deleted from a #[cfg(test)] module in src/lib.rs', () => {
    const before = rustLib('assert_eq!(add(-1, 1), 0);');
    const after = rustLib('');
    expect(edits(change('src/lib.rs', before, after))).toEqual([
      {
        path: 'src/lib.rs',
        kind: 'test-in-source',
        what: "test 'tests::adds' changed in src/lib.rs",
      },
    ]);
  });

  it('does not flag an honest fix to src/lib.rs outside the #[cfg(test)] module', () => {
    const before = rustLib('assert_eq!(add(-1, 1), 0);', 'a - b');
    const after = rustLib('assert_eq!(add(-1, 1), 0);', 'a + b');
    expect(edits(change('src/lib.rs', before, after))).toEqual([]);
  });

  it('does not flag a reformatted test whose tokens are the same', () => {
    const before = rustLib('assert_eq!(add(-1, 1), 0);');
    const after = before.replace('assert_eq!(add(-1, 1), 0);', 'assert_eq!( add(-1, 1),\n 0 );');
    expect(edits(change('src/lib.rs', before, after))).toEqual([]);
  });

  it('flags a helper changed inside the test module as a change of the module', () => {
    const before = lines('#[cfg(test)]', 'mod tests {', '    fn two() -> i32 { 2 }', '}');
    const after = lines('#[cfg(test)]', 'mod tests {', '    fn two() -> i32 { 3 }', '}');
    expect(whats(change('src/lib.rs', before, after))).toEqual([
      "test module 'tests' changed in src/lib.rs",
    ]);
  });

  it('flags a test module added or removed once, not once per test inside it', () => {
    const plain = lines('pub fn add(a: i32, b: i32) -> i32 {', '    a + b', '}');
    const withTests = rustLib('');
    expect(whats(change('src/lib.rs', withTests, plain))).toEqual([
      "test module 'tests' removed in src/lib.rs",
    ]);
    expect(whats(change('src/math.rs', null, withTests))).toEqual([
      "test module 'tests' added in src/math.rs",
    ]);
  });

  it('flags #[test] functions outside a module, #[ignore] added, and cfg(test) stubs', () => {
    const before = lines(
      'fn real() -> u8 { 1 }',
      '#[test]',
      'fn works() { assert!(real() == 1); }',
    );
    const ignored = before.replace('#[test]', '#[test]\n#[ignore]');
    expect(whats(change('src/lib.rs', before, ignored))).toEqual([
      "test 'works' changed in src/lib.rs",
    ]);
    const stubbed = lines(
      '#[cfg(test)]',
      'fn real() -> u8 { 1 }',
      '#[cfg(not(test))]',
      'fn real() -> u8 { 2 }',
    );
    expect(whats(change('src/lib.rs', lines('fn real() -> u8 { 2 }'), stubbed))).toEqual([
      "test-only item 'real' added in src/lib.rs",
    ]);
  });

  it('finds tokio tests and tests whose bodies hold braces in strings, chars and comments', () => {
    const body = (n: string): string =>
      lines(
        '#[tokio::test(flavor = "multi_thread")]',
        "async fn braces<'a>() {",
        `    let s = "}}}"; let c = '}'; let r = r#"}"#; // }`,
        `    /* } /* nested } */ */ assert_eq!(${n}, 1);`,
        '}',
        'fn after() {}',
      );
    expect(whats(change('src/lib.rs', body('1'), body('2')))).toEqual([
      "test 'braces' changed in src/lib.rs",
    ]);
  });

  it('flags a changed doc-test example, not a changed doc sentence', () => {
    const doc = (sentence: string, example: string): string =>
      lines(`/// ${sentence}`, '///', '/// ```', `/// ${example}`, '/// ```', 'pub fn add() {}');
    expect(
      whats(change('src/lib.rs', doc('Adds.', 'assert_eq!(add(1, 2), 3);'), doc('Adds.', ''))),
    ).toEqual(['doc tests changed in src/lib.rs']);
    expect(whats(change('src/lib.rs', doc('Adds.', 'x'), doc('Adds two numbers.', 'x')))).toEqual(
      [],
    );
  });

  it('counts a whole file under #![cfg(test)] as a test module', () => {
    const before = lines('#![cfg(test)]', 'use super::*;', 'fn a() {}');
    expect(whats(change('src/checks.rs', before, before.replace('a()', 'b()')))).toEqual([
      "test module '(file)' changed in src/checks.rs",
    ]);
  });
});
