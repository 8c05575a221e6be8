/**
 * The rules for code outside test files that reaches into the test framework: what a hypothesis
 * would add to an ordinary module to make the run report a pass the code did not earn (patch the
 * runner's report, replace its assertions, exit before failures are counted, write the report
 * itself, make every comparison equal). Each is a set of patterns over one view of the new text
 * (see `sourceViews`); a pattern counts where it matches an added line.
 *
 * Kept narrow on purpose: honest fixes of library code never import the test framework, never
 * assign to `assert`'s members, never name a macro `assert_eq`. Calls that are ordinary in a
 * program's entry point (`process.exit`, `os.Exit`, `std::process::exit`) count only outside one
 * (`scope: 'library'`).
 */

import type { RuleLanguage, SourceViews } from './source-views';

export interface FrameworkRule {
  /** Stable id, shown to the reviewer and in the reason a hypothesis was demoted. */
  readonly id: string;
  readonly language: RuleLanguage;
  /** What the matched line does, in words: "patches pytest's internals". */
  readonly does: string;
  /**
   * `library`: only outside programs' entry points (main files, bin/, scripts/, cmd/…, and files
   * that already were programs: see `isEntryPoint`).
   */
  readonly scope: 'any' | 'library';
  /** A `text` pattern counts only where its match starts in code (not inside a string). */
  readonly patterns: readonly { readonly view: keyof SourceViews; readonly re: RegExp }[];
}

// Report files a test runner writes, inside a string: JUnit XML and the JSON reporters' files, the
// options that name them (as an argument of their own, not in a sentence), report XML itself.
const reportPath =
  /(?<=['"`=])--(?:junit-?xml|json-report|report-log)\b|\bjunit[\w.-]*\.xml\b|<testsuites?[\s>/]|<testcase[\s>/]|(?<![\w.-])(?:[\w-]*[-_.])?(?:reports?|results?)(?:[-_.][\w.-]*)?\.(?:xml|json)\b/gi;

const rustAssertMacros =
  'assert|assert_eq|assert_ne|assert_matches|debug_assert|debug_assert_eq|debug_assert_ne|debug_assert_matches|panic|unreachable|todo|unimplemented';

// An import or require of one of `specifiers` (a regular-expression alternation), in the `text` view.
const importOf = (specifiers: string): RegExp =>
  new RegExp(
    String.raw`(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^[ \t]*import[ \t]+)(['"\`])(?:${specifiers})\1`,
    'gm',
  );

export const frameworkRules: readonly FrameworkRule[] = [
  {
    id: 'python-pytest-internals',
    language: 'python',
    does: "reaches into pytest's internals",
    scope: 'any',
    patterns: [
      { view: 'code', re: /\b_pytest\b/g },
      {
        view: 'code',
        re: /^[ \t]*(?:import[ \t]+(?:pytest|pluggy)\b|from[ \t]+(?:pytest|pluggy)\b)/gm,
      },
      { view: 'code', re: /\b(?:pytest|pluggy)\s*\.\s*\w+/g },
      { view: 'code', re: /^[ \t]*(?:async[ \t]+)?def[ \t]+pytest_\w+[ \t]*\(/gm },
      { view: 'code', re: /\b(?:TestReport|CollectReport|hookimpl|hookwrapper)\b/g },
      { view: 'strings', re: /\bPYTEST_[A-Z_]+|(['"])_?pytest\1/g },
    ],
  },
  {
    id: 'python-unittest-result',
    language: 'python',
    does: "reaches into unittest's results or runner",
    scope: 'any',
    patterns: [
      { view: 'code', re: /\b_?(?:TestResult|TextTestResult|TextTestRunner|TestProgram)\b/g },
      { view: 'code', re: /\bunittest\s*\.\s*(?:result|runner|main)\b/g },
      { view: 'code', re: /\bTestCase\s*\.\s*\w+\s*=(?!=)/g },
      { view: 'code', re: /\bsetattr\s*\(\s*(?:unittest\s*\.\s*)?TestCase\b/g },
    ],
  },
  {
    id: 'python-os-exit',
    language: 'python',
    does: 'exits the interpreter at once (no cleanup, no report)',
    scope: 'library',
    patterns: [
      { view: 'code', re: /\b(?:os|posix|nt)\s*\.\s*_exit\b/g },
      { view: 'code', re: /^[ \t]*from[ \t]+(?:os|posix)[ \t]+import\b[^\n]*\b_exit\b/gm },
    ],
  },
  {
    id: 'python-report-write',
    language: 'python',
    does: 'names a test report file or writes report XML',
    scope: 'any',
    patterns: [{ view: 'strings', re: reportPath }],
  },
  {
    id: 'python-eq-always-true',
    language: 'python',
    does: 'defines an __eq__ that always returns True',
    scope: 'any',
    patterns: [
      {
        // The body's first statement is `return True` (comments and docstrings are blank here).
        view: 'code',
        re: /^[ \t]*def[ \t]+__eq__[ \t]*\([^)]{0,400}\)[^:\n]*:[ \t\n]*return[ \t]+\(?[ \t]*True[ \t);]*$/gm,
      },
      {
        view: 'code',
        re: /\b__eq__[ \t]*=[ \t]*lambda\b[^:\n]*:[ \t]*\(?[ \t]*True[ \t);]*$/gm,
      },
    ],
  },
  {
    id: 'js-node-test',
    language: 'js',
    does: 'imports the node:test runner',
    scope: 'any',
    patterns: [{ view: 'text', re: importOf(String.raw`(?:node:)?test(?:\/[\w/-]+)?`) }],
  },
  {
    id: 'js-assert-patch',
    language: 'js',
    does: 'patches assert',
    scope: 'any',
    patterns: [
      { view: 'code', re: /\bassert(?:\s*\.\s*strict)?\s*\.\s*\w+\s*=(?![=>])/g },
      {
        view: 'code',
        re: /\b(?:strictEqual|deepStrictEqual|notStrictEqual|notDeepStrictEqual|partialDeepStrictEqual)\s*=(?![=>])/g,
      },
      {
        view: 'code',
        re: /\b(?:Object|Reflect)\s*\.\s*(?:defineProperty|defineProperties|assign|set|setPrototypeOf)\s*\(\s*assert\b/g,
      },
      {
        view: 'text',
        re: /\brequire\s*\(\s*(['"`])(?:node:)?assert(?:\/strict)?\1\s*\)(?:\s*\.\s*strict)?\s*\.\s*\w+\s*=(?![=>])/g,
      },
    ],
  },
  {
    id: 'js-test-globals',
    language: 'js',
    does: 'reaches into jest/vitest/mocha globals',
    scope: 'any',
    patterns: [
      {
        view: 'text',
        re: importOf(
          String.raw`vitest|@vitest\/[\w-]+|@jest\/[\w-]+|jest(?:-[\w-]+)?|mocha|expect`,
        ),
      },
      { view: 'code', re: /\bjest\s*\.\s*\w+/g },
      {
        view: 'code',
        re: /\bvi\s*\.\s*(?:fn|mock|doMock|unmock|spyOn|stubGlobal|stubEnv|hoisted|mocked|importActual|resetModules|useFakeTimers|setSystemTime|restoreAllMocks)\b/g,
      },
      {
        view: 'code',
        re: /\bexpect\s*\.\s*(?:extend|addSnapshotSerializer|getState|setState|assertions|hasAssertions)\b/g,
      },
      {
        view: 'code',
        re: /\b(?:globalThis|global|window|self)\s*\.\s*(?:describe|it|test|expect|jest|vi|suite|assert|beforeEach|afterEach|beforeAll|afterAll)\s*=(?![=>])/g,
      },
      { view: 'strings', re: /\$\$jest|jest-matchers|jest\.asymmetricMatcher/g },
    ],
  },
  {
    id: 'js-process-exit',
    language: 'js',
    does: 'ends the process from library code',
    scope: 'library',
    patterns: [
      { view: 'code', re: /\bprocess\s*\.\s*(?:exit|reallyExit|abort)\b(?!\s*[<>!=]=)/g },
      { view: 'code', re: /\bprocess\s*\.\s*exitCode\s*=(?![=>])/g },
      { view: 'code', re: /\bprocess\s*\.\s*kill\s*\(\s*process\s*\.\s*pid\b/g },
    ],
  },
  {
    id: 'js-report-write',
    language: 'js',
    does: 'names a test report file or writes report XML',
    scope: 'any',
    patterns: [{ view: 'strings', re: reportPath }],
  },
  {
    id: 'js-equals-always-true',
    language: 'js',
    does: 'defines an equality that always returns true',
    scope: 'any',
    patterns: [
      {
        view: 'code',
        re: /\b(?:equals|isEqual|eq|asymmetricMatch)\s*(?:[:=]\s*)?(?:function\s*)?\([^)]{0,400}\)\s*(?::[ \t]*[\w<>[\]|.]+\s*)?(?:=>\s*)?(?:\{\s*return\s+(?:true|\(\s*true\s*\))[\s;]*\}|true(?=[ \t]*(?:[;,)}]|$)))/gm,
      },
    ],
  },
  {
    id: 'rust-assertion-macro',
    language: 'rust',
    does: 'defines a macro named like a standard assertion',
    scope: 'any',
    patterns: [
      { view: 'code', re: new RegExp(String.raw`\bmacro_rules!\s*(?:${rustAssertMacros})\b`, 'g') },
      { view: 'code', re: new RegExp(String.raw`\bas\s+(?:${rustAssertMacros})\s*[;,}]`, 'g') },
    ],
  },
  {
    id: 'rust-process-exit',
    language: 'rust',
    does: 'ends the process from library code',
    scope: 'library',
    patterns: [
      { view: 'code', re: /\bprocess\s*::\s*(?:exit|abort)\b/g },
      { view: 'code', re: /\bprocess\s*::\s*\{[^}]{0,400}\b(?:exit|abort)\b/g },
      { view: 'code', re: /\blibc\s*::\s*(?:_exit|exit|abort)\b/g },
    ],
  },
  {
    id: 'rust-eq-always-true',
    language: 'rust',
    does: 'implements PartialEq with an eq that always returns true',
    scope: 'any',
    patterns: [
      {
        view: 'code',
        re: /\bfn\s+eq\s*\(\s*&\s*self\b[^)]{0,400}\)\s*->\s*bool\s*\{\s*(?:return\s+)?true[\s;]*\}/g,
      },
      {
        view: 'code',
        re: /\bfn\s+ne\s*\(\s*&\s*self\b[^)]{0,400}\)\s*->\s*bool\s*\{\s*(?:return\s+)?false[\s;]*\}/g,
      },
    ],
  },
  {
    id: 'go-os-exit',
    language: 'go',
    does: 'ends the process outside package main',
    scope: 'library',
    patterns: [{ view: 'code', re: /\b(?:os|syscall)\s*\.\s*Exit\s*\(/g }],
  },
  {
    id: 'go-testing-internals',
    language: 'go',
    does: "reaches into the testing package's internals",
    scope: 'any',
    patterns: [
      {
        view: 'code',
        re: /\btesting\s*\.\s*(?:M|MainStart|Main|Init|Testing|Internal\w*|RegisterCover|CoverMode|Coverage|Short|Verbose|RunTests|RunBenchmarks|RunExamples)\b/g,
      },
      { view: 'raw', re: /^[ \t]*\/\/go:linkname[ \t]+\S+[ \t]+testing\./gm },
      {
        view: 'strings',
        re: /["'`]-?test\.(?:v|run|count|failfast|timeout|paniconexit0|testlogfile|coverprofile)\b/g,
      },
    ],
  },
];

/**
 * A cheap first look at each added line, by language: a line that matches none of these cannot
 * be part of any rule's match, so most files are never lexed. A superset of the rules' words.
 */
export const ruleTriggers: Readonly<Record<RuleLanguage, RegExp>> = {
  python:
    /pytest|pluggy|TestReport|CollectReport|hook|PYTEST_|TestResult|TestRunner|TestProgram|unittest|TestCase|_exit|junit|report|result|testsuite|testcase|__eq__|True/i,
  js: /test|assert|strictEqual|Equal|Object|Reflect|require|jest|mocha|expect|\bvi\b|global|window|self|process|junit|report|result|equals|isEqual|\beq\b|asymmetricMatch|true/i,
  rust: /macro_rules|\bas\b|process|libc|\bfn\s+(?:eq|ne)\b|\btrue\b|\bfalse\b/,
  go: /Exit|testing|linkname|test\./,
};
