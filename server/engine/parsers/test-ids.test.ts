// The named tests of each runner: the exact id lists of captured runs (fixtures.test.ts checks
// every fixture's counts and that its list is complete or empty), and the rules that keep ids
// stable and unique and lists complete.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTestOutput, type RunnerName, type TestCounts } from './index';
import { uniqueTests } from './test-list';

const fixture = (file: string): string =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');
const parse = (runner: RunnerName, file: string): TestCounts =>
  parseTestOutput(runner, fixture(file));
/** `status id` lines, which read like the runner's own report. */
const listed = (result: TestCounts): string[] =>
  result.tests.map((test) => `${test.status} ${test.id}`);
const ids = (result: TestCounts): string[] => result.tests.map((test) => test.id);
const sortedIds = (result: TestCounts): string[] => [...ids(result)].sort();

describe('ids of captured runs', () => {
  it('cargo: each binary labelled by its source and name, never its hash', () => {
    const result = parse('cargo', 'cargo-workspace.txt');
    expect(listed(result)).toEqual([
      'passed src/lib.rs (ledger) tests::posts',
      'skipped src/lib.rs (ledger) tests::replays_history',
      'passed src/lib.rs (ledger) tests::withdraws_exact',
      'passed src/lib.rs (ledger) tests::overflows',
      'skipped tests/flows.rs (flows) bulk_import',
      'passed tests/flows.rs (flows) deposit_then_withdraw',
      'failed tests/flows.rs (flows) negative_deposit_is_refused',
      'passed src/lib.rs (report) tests::posts',
      'passed doc-tests (ledger) ledger/src/lib.rs - post (line 3)',
      'passed doc-tests (ledger) ledger/src/lib.rs - withdraw (line 12)',
    ]);
    expect(fixture('cargo-workspace.txt')).toContain('deps/ledger-b6b687f04409bf96');
    expect(ids(result).join('\n')).not.toMatch(/[0-9a-f]{16}/);
  });

  it('cargo: libtest’s JSON events give the same tests as its text', () => {
    const json = parse('cargo', 'cargo-workspace-json.txt');
    const text = parse('cargo', 'cargo-workspace.txt');
    expect(sortedIds(json)).toEqual(sortedIds(text));
    expect([json.passed, json.failed, json.skipped]).toEqual([
      text.passed,
      text.failed,
      text.skipped,
    ]);
    expect(json.tests).toContainEqual({
      id: 'tests/flows.rs (flows) negative_deposit_is_refused',
      status: 'failed',
    });
  });

  it('nextest: binary id and test name', () => {
    expect(listed(parse('nextest', 'nextest-cancelled.handwritten.txt'))).toEqual([
      'passed mixed tests::adds',
      'failed mixed tests::breaks',
      'failed mixed tests::cannot_start',
    ]);
  });

  it('go -v: every test and subtest, parents included, by import path', () => {
    expect(listed(parse('go', 'go-ids-v.txt'))).toEqual([
      'passed example.com/shapes/geom.TestArea',
      'failed example.com/shapes/geom.TestPerimeter',
      'skipped example.com/shapes/geom.TestVolume',
      'failed example.com/shapes/geom.TestSquares',
      'passed example.com/shapes/geom.TestSquares/unit',
      'passed example.com/shapes/geom.TestSquares/two',
      'failed example.com/shapes/geom.TestSquares/bad',
      'passed example.com/shapes/geom.TestSquares/nested',
      'skipped example.com/shapes/geom.TestSquares/nested/deep',
      'passed example.com/shapes/geom.TestSquares/nested/deeper_ok',
      'passed example.com/shapes/text.TestShout',
    ]);
  });

  it('go: -v and -json of one tree give identical ids, statuses and counts', () => {
    for (const [verbose, json] of [
      ['go-ids-v.txt', 'go-ids-json.txt'],
      ['go-timeout-v.txt', 'go-timeout-json.txt'],
      ['go-mixed-v.txt', 'go-mixed-json.txt'],
      ['go-pass-v.txt', 'go-pass-json.txt'],
    ] as const) {
      const a = parse('go', verbose);
      const b = parse('go', json);
      expect([...listed(a)].sort()).toEqual([...listed(b)].sort());
      expect({ ...a, tests: [] }).toEqual({ ...b, tests: [] });
    }
    // -cover prints `coverage: …` before `ok`; the package still ends there (this run left the
    // broken package out).
    expect(listed(parse('go', 'go-ids-v-cover.txt'))).toEqual(listed(parse('go', 'go-ids-v.txt')));
    expect(parse('go', 'go-ids-v-cover.txt').buildFailed).toBe(false);
  });

  it('pytest: node ids from -v, collection errors by file, -rA when it names them all', () => {
    expect(listed(parse('pytest', 'pytest-ids-v.txt'))).toEqual([
      'passed tests/test_inventory.py::test_restock_adds',
      'passed tests/test_inventory.py::test_restock_rejects_negative',
      'failed tests/test_inventory.py::test_restock_overflow',
      'skipped tests/test_inventory.py::test_sync_remote',
      'skipped tests/test_inventory.py::test_fractional',
      'passed tests/test_inventory.py::test_table[0-1-1]',
      'passed tests/test_inventory.py::test_table[5-5-10]',
      'failed tests/test_inventory.py::test_table[1-1-3]',
      'passed tests/test_inventory.py::TestAudit::test_audit_ok',
      'failed tests/test_inventory.py::TestAudit::test_audit_needs_ledger',
      'passed tests/test_names.py::test_names_trim',
    ]);
    expect(listed(parse('pytest', 'pytest-collect-error.txt'))).toEqual(['failed test_bad.py']);
    expect(listed(parse('pytest', 'pytest-foreign-summaries-rA.txt'))).toEqual([
      'passed test_foreign.py::test_prints_other_runners_summaries',
      'passed test_foreign.py::test_plain',
      'failed test_foreign.py::test_fails_after_printing_them',
    ]);
  });

  it('pytest: a short summary that names only some tests gives no list, not a partial one', () => {
    // -q names the 3 failures of 11 tests; -q -rA names all but the skipped one (by location).
    expect(fixture('pytest-ids-q.txt')).toContain('FAILED tests/test_inventory.py::test_table');
    expect(fixture('pytest-ids-q-rA.txt')).toContain('SKIPPED [1] tests/test_inventory.py:23');
    expect(parse('pytest', 'pytest-ids-q.txt').tests).toEqual([]);
    expect(parse('pytest', 'pytest-ids-q-rA.txt').tests).toEqual([]);
  });

  it('unittest: module.Class.method, the same on Python 3.10 and 3.11', () => {
    const expected = [
      'failed shop.test_cart.CartTest.test_discount',
      'passed shop.test_cart.CartTest.test_documented',
      'skipped shop.test_cart.CartTest.test_known_bug',
      'failed shop.test_cart.CartTest.test_lookup',
      'failed shop.test_cart.CartTest.test_quantities',
      'skipped shop.test_cart.CartTest.test_remote',
      'passed shop.test_cart.CartTest.test_total',
      'passed shop.test_cart.PriceTest.test_total',
    ];
    expect(listed(parse('unittest', 'unittest-ids-v.txt'))).toEqual(expected);
    // 3.10 prints nothing for a test whose subtest failed; it is the one left without a status.
    expect([...listed(parse('unittest', 'unittest-ids-v-py310.txt'))].sort()).toEqual(
      [...expected].sort(),
    );
  });

  it('jest: file › describe › test from the verbose tree', () => {
    expect(listed(parse('jest', 'jest-ids-verbose.txt'))).toEqual([
      'passed test/cart.test.js › cart › totals two items',
      'failed test/cart.test.js › cart › rejects negative quantities',
      'skipped test/cart.test.js › cart › rounds to cents',
      'passed test/cart.test.js › cart › discounts › applies a coupon',
      'skipped test/cart.test.js › cart › discounts › stacks coupons',
      'passed test/price.test.js › formats cents',
      'passed test/price.test.js › formats zero',
      'passed test/price.test.js › formats 1 cent',
      'passed test/price.test.js › formats 2 cent',
      'failed test/price.test.js › fails on purpose',
    ]);
    // Older jest prints `./file`; the id drops it.
    expect(ids(parse('jest', 'jest-mixed-verbose.txt'))).toContain(
      'mixed.test.js › suite › inner ok',
    );
  });

  it('vitest: file > describe > test from the verbose reporter, and a flat default list', () => {
    expect(listed(parse('vitest', 'vitest-ids-verbose.txt'))).toEqual([
      'passed test/cart.test.js > cart > totals two items',
      'failed test/cart.test.js > cart > rejects negative quantities',
      'passed test/cart.test.js > cart > discounts > applies a coupon',
      'skipped test/cart.test.js > cart > discounts > stacks coupons',
      'skipped test/cart.test.js > cart > rounds to cents',
      'passed test/price.test.js > formats cents',
      'passed test/price.test.js > formats zero',
      'passed test/price.test.js > formats 1 cent',
      'passed test/price.test.js > formats 2 cent',
      'failed test/price.test.js > fails on purpose',
    ]);
    expect(ids(parse('vitest', 'vitest-ids-default-flat.txt'))).toEqual(
      ids(parse('vitest', 'vitest-ids-verbose.txt')).slice(5),
    );
    // The default tree hides describe names: no list rather than wrong ids.
    expect(parse('vitest', 'vitest-ids-default.txt').tests).toEqual([]);
    expect(listed(parse('vitest', 'vitest-suite-error-only.txt'))).toEqual([
      'failed broken.test.js',
    ]);
  });

  it('mocha: describe › it from the spec reporter’s indentation', () => {
    expect(listed(parse('mocha', 'mocha-ids-spec.txt'))).toEqual([
      'passed top-level check',
      'passed cart › totals two items',
      'failed cart › rejects negative quantities',
      'passed cart › discounts › applies a coupon',
      'skipped cart › discounts › stacks coupons',
      'skipped cart › discounts › rounds to cents',
      'passed price › formats cents',
      'failed price › fails on purpose',
    ]);
    expect(parse('mocha', 'mocha-dot.txt').tests).toEqual([]);
  });

  it('node: spec and TAP, suites left out as node counts them', () => {
    expect(listed(parse('node', 'node-ids-spec.txt'))).toEqual([
      'passed label › pads codes',
      'skipped label › prints barcodes',
      'passed reserve › takes from stock',
      'passed reserve › refuses more than in stock',
      'failed reserve › keeps zero',
      'passed reserve › bulk › reserves a pallet',
      'skipped reserve › bulk › splits across warehouses',
    ]);
    expect(listed(parse('node', 'node-ids-tap.txt'))).toEqual([
      'passed cart › totals two items',
      'failed cart › rejects negative quantities',
      'passed cart › discounts › applies a coupon',
      'skipped cart › discounts › stacks coupons',
      'skipped cart › discounts › rounds to cents',
      'passed formats cents › whole dollars',
      'failed formats cents › fractions',
      'failed formats cents',
      'passed top-level check',
    ]);
    // The same tree under spec: `formats cents` (a test) and `cart` (a suite) look alike there.
    expect(parse('node', 'node-ids-spec-subtests.txt').tests).toEqual([]);
    // A file that does not load is named by its file, not by its checkout's absolute path.
    expect(fixture('node-syntax-error-spec.txt')).toContain('/tmp/fx/node/syntax.test.mjs');
    expect(ids(parse('node', 'node-syntax-error-spec.txt'))).toEqual(['syntax.test.mjs']);
    expect(ids(parse('node', 'node-syntax-error-tap.txt'))).toEqual(['syntax.test.mjs']);
  });

  it('bun: file > describe > test; a file that does not load is its file', () => {
    expect(listed(parse('bun', 'bun-mixed.txt'))).toEqual([
      'passed mixed.test.ts > adds',
      'failed mixed.test.ts > fails',
      'skipped mixed.test.ts > skipped',
      'skipped mixed.test.ts > write this',
      'passed mixed.test.ts > suite > inner ok',
      'failed mixed.test.ts > suite > inner fail',
      'passed other.test.ts > other ok',
    ]);
    expect(listed(parse('bun', 'bun-load-error.txt'))).toEqual([
      'failed broken.test.ts',
      'passed other.test.ts > other ok',
    ]);
  });

  it('tap: descriptions, or the point number', () => {
    expect(listed(parse('tap', 'tap-perl-mixed.txt'))).toEqual([
      'passed first passes',
      'failed second fails',
      'passed third passes',
      'skipped #4',
      'skipped #5',
      'skipped todo fails as expected',
      'passed last passes',
    ]);
    // Bailed out before points 2-4: they have no names, so no list.
    expect(parse('tap', 'tap-perl-bail.txt').tests).toEqual([]);
  });

  it('xctest and swift-testing: case names, macOS’s -[Module.Class test] spelled with dots', () => {
    expect(listed(parse('xctest', 'xctest-macos-skipped.handwritten.txt'))).toEqual([
      'skipped MixedTests.NetworkTests.testFetch',
      'passed MixedTests.NetworkTests.testParse',
      'failed MixedTests.NetworkTests.testRetry',
    ]);
    expect(listed(parse('xctest', 'xctest-and-swift-testing.handwritten.txt'))).toEqual([
      'passed LegacyTests.testOld',
      'failed LegacyTests.testBroken',
      'passed newStyle()',
      'passed newStyleToo()',
      'skipped later()',
    ]);
    expect(listed(parse('swift-testing', 'swift-testing-mixed.handwritten.txt'))).toEqual([
      'passed adds()',
      'failed fails()',
      'failed Parsing rejects junk',
      'passed knownBug()',
      'skipped needsNetwork()',
      'passed subs()',
    ]);
  });

  it('ctest and meson: test names', () => {
    expect(listed(parse('ctest', 'ctest-ids.txt'))).toEqual([
      'passed parse_units',
      'passed convert_celsius',
      'failed convert_kelvin',
      'skipped probe_hardware',
      'skipped calibrate',
    ]);
    expect(sortedIds(parse('ctest', 'ctest-ids-j2.txt'))).toEqual(
      sortedIds(parse('ctest', 'ctest-ids.txt')),
    );
    // `Summary of Failures:` repeats two of the six lines.
    expect(listed(parse('meson', 'meson-mixed-verbose.txt'))).toEqual([
      'passed passes',
      'passed passes_too',
      'failed fails',
      'skipped skipped',
      'skipped xfail',
      'failed xpass',
    ]);
  });

  it('maven: package.Class.method when surefire prints every test', () => {
    expect(listed(parse('maven', 'maven-mixed-plain.txt'))).toEqual([
      'passed com.example.shop.PriceTest.zeroQuantity',
      'passed com.example.shop.PriceTest.singleItem',
      'skipped com.example.shop.CartTest',
      'failed com.example.shop.CartTest.appliesDiscount',
      'failed com.example.shop.CartTest.rejectsNegative',
      'passed com.example.shop.CartTest.totalsItems',
    ]);
    // The default format names the two failures of six tests only.
    expect(parse('maven', 'maven-mixed.txt').tests).toEqual([]);
  });

  it('junit: classname.name, the same ids surefire’s console gives', () => {
    expect(listed(parse('junit', 'maven-surefire-junit.xml'))).toEqual([
      'skipped com.example.shop.CartTest.syncsPrices',
      'failed com.example.shop.CartTest.appliesDiscount',
      'failed com.example.shop.CartTest.rejectsNegative',
      'passed com.example.shop.CartTest.totalsItems',
    ]);
    const console = ids(parse('maven', 'maven-mixed-plain.txt'));
    for (const id of ['appliesDiscount', 'rejectsNegative', 'totalsItems']) {
      expect(console).toContain(`com.example.shop.CartTest.${id}`);
    }
    // ctest's report repeats the name as the classname: the id is the name once.
    expect(ids(parse('junit', 'ctest-junit.xml'))).toEqual(ids(parse('ctest', 'ctest-mixed.txt')));
  });
});

describe('zero tests and build failures', () => {
  it.each([
    ['pytest', 'pytest-no-tests.txt'],
    ['unittest', 'unittest-no-tests.txt'],
    ['unittest', 'unittest-no-tests-v-py313.txt'],
    ['jest', 'jest-no-tests.txt'],
    ['vitest', 'vitest-no-tests.txt'],
    ['bun', 'bun-no-tests.txt'],
    ['ctest', 'ctest-no-tests.txt'],
    ['ctest', 'ctest-no-config.txt'],
    ['meson', 'meson-no-tests.txt'],
    ['maven', 'maven-no-tests.txt'],
    ['go', 'go-no-test-files.txt'],
  ] as const)('%s: %s is read as a run of zero tests', (runner, file) => {
    expect(parse(runner, file)).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      parsed: true,
      tests: [],
      buildFailed: false,
    });
  });

  it('cargo: `running 0 tests` is zero tests too', () => {
    const output = [
      '     Running unittests src/lib.rs (target/debug/deps/empty-0123456789abcdef)',
      '',
      'running 0 tests',
      '',
      'test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    ].join('\n');
    expect(parseTestOutput('cargo', output)).toMatchObject({ parsed: true, passed: 0, failed: 0 });
  });

  it.each([
    ['cargo', 'cargo-compile-error-e0425.txt'],
    ['cargo', 'cargo-compile-error.txt'],
    ['go', 'go-build-fail-v.txt'],
    ['go', 'go-build-fail-json.txt'],
    ['go', 'go-setup-fail-v.txt'],
    ['go', 'go-setup-fail-json.txt'],
    ['go', 'go-ids-plain.txt'],
    ['maven', 'maven-compile-error.txt'],
  ] as const)('%s: %s is a build failure, not a failed test', (runner, file) => {
    expect(parse(runner, file)).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      parsed: true,
      tests: [],
      buildFailed: true,
    });
  });

  it('go: a package that does not build leaves the other packages’ tests standing', () => {
    for (const file of ['go-ids-v.txt', 'go-ids-json.txt']) {
      const result = parse('go', file);
      expect(result.buildFailed).toBe(true);
      expect(ids(result).some((id) => id.startsWith('example.com/shapes/broken'))).toBe(false);
      expect(result.failed).toBe(3);
    }
  });

  it('maven: tests of the modules that built, and the build failure of the one that did not', () => {
    expect(parse('maven', 'maven-multi-test-compile-error.txt')).toMatchObject({
      passed: 1,
      failed: 1,
      buildFailed: true,
    });
  });

  it('go: without -v, tests are not counted from package lines', () => {
    const plain = ['ok  \texample.com/a\t0.002s', 'ok  \texample.com/b\t0.003s'].join('\n');
    expect(parseTestOutput('go', plain).parsed).toBe(false);
  });

  it('go: a test that never reported in a failed package is the one that failed', () => {
    expect(listed(parse('go', 'go-timeout-json.txt'))).toEqual([
      'passed example.com/shapes/slow.TestQuick',
      'failed example.com/shapes/slow.TestHangs',
    ]);
  });
});

describe('counts of summaries that name no tests', () => {
  it('maven: the module totals, never the class lines as well', () => {
    // billing: 2 tests in one class; catalog: 1. Summing class lines and totals would give 6.
    expect(parse('maven', 'maven-multi-plain.txt')).toMatchObject({ passed: 2, failed: 1 });
    const output = fixture('maven-multi-plain.txt');
    expect(output.match(/Tests run: \d+/g)).toHaveLength(4);
  });

  it('node: the dot reporter’s dots, a node 20 run that prints no summary', () => {
    const output = fixture('node-dot.txt');
    expect(output.split('\n')[0]).toBe('.X....X.XX.');
    expect(parse('node', 'node-dot.txt')).toMatchObject({ passed: 7, failed: 4, skipped: 0 });
    expect(parseTestOutput('node', '...\n').passed).toBe(3);
  });
});

describe('unique and complete lists', () => {
  it('suffixes repeated ids in report order, skipping ids already taken', () => {
    expect(
      uniqueTests([
        { id: 'a', status: 'passed' },
        { id: 'a', status: 'failed' },
        { id: 'a #2', status: 'passed' },
        { id: 'a', status: 'skipped' },
      ]),
    ).toEqual([
      { id: 'a', status: 'passed' },
      { id: 'a #3', status: 'failed' },
      { id: 'a #2', status: 'passed' },
      { id: 'a #4', status: 'skipped' },
    ]);
  });

  it('mocha: the same title in two files becomes `title #2`', () => {
    const output = ['', '  ✔ works', '  ✔ works', '', '  2 passing (3ms)', ''].join('\n');
    expect(ids(parseTestOutput('mocha', output))).toEqual(['works', 'works #2']);
  });

  it('pytest: a teardown error reports a passed test a second time, as pytest counts it', () => {
    const output = [
      'tests/test_db.py::test_insert PASSED                                     [ 50%]',
      'tests/test_db.py::test_insert ERROR                                      [ 50%]',
      'tests/test_db.py::test_query PASSED                                      [100%]',
      '==================== 2 passed, 1 error in 0.05s ====================',
    ].join('\n');
    expect(listed(parseTestOutput('pytest', output))).toEqual([
      'passed tests/test_db.py::test_insert',
      'failed tests/test_db.py::test_insert #2',
      'passed tests/test_db.py::test_query',
    ]);
  });

  it('a tail whose beginning was cut names no tests where no summary covers the whole run', () => {
    const cut = (file: string): string => `[… 81234 bytes omitted …]\n${fixture(file)}`;
    for (const [runner, file] of [
      ['go', 'go-ids-v.txt'],
      ['go', 'go-ids-json.txt'],
      ['cargo', 'cargo-workspace.txt'],
      ['maven', 'maven-multi-plain.txt'],
    ] as const) {
      expect(parse(runner, file).tests.length).toBeGreaterThan(0);
      const result = parseTestOutput(runner, cut(file));
      expect(result.tests).toEqual([]);
      expect(result.parsed).toBe(true);
    }
    // pytest's summary covers the whole run: a list that tallies with it is complete.
    expect(parseTestOutput('pytest', cut('pytest-ids-v.txt')).tests).toHaveLength(11);
  });

  it('a list that lost its first lines does not tally with the summary and is dropped', () => {
    const lines = fixture('pytest-ids-v.txt').split('\n');
    const first = lines.findIndex((line) => line.includes('::test_restock_adds PASSED'));
    const tail = lines.slice(first + 1).join('\n');
    expect(parseTestOutput('pytest', tail)).toMatchObject({ passed: 6, failed: 3, tests: [] });
  });

  it('jest: a suite that failed to run is named by its file', () => {
    const output = [
      'FAIL test/broken.test.js',
      '  ● Test suite failed to run',
      '',
      '    SyntaxError: Unexpected token (2:0)',
      '',
      'PASS test/ok.test.js',
      '  ✓ works (2 ms)',
      '',
      'Test Suites: 1 failed, 1 passed, 2 total',
      'Tests:       1 passed, 1 total',
    ].join('\n');
    expect(listed(parseTestOutput('jest', output))).toEqual([
      'passed test/ok.test.js › works',
      'failed test/broken.test.js',
    ]);
  });

  it('vitest: a failed suite and an unhandled error are failures with ids of their own', () => {
    const output = [
      ' ✓ a.test.ts > works 1ms',
      ' ↓ a.test.ts > db > reads',
      '',
      '⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  a.test.ts > db',
      'Error: no db',
      '',
      '⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯',
      '',
      ' Test Files  1 failed (1)',
      '      Tests  1 passed | 1 skipped (2)',
      '     Errors  1 error',
    ].join('\n');
    expect(listed(parseTestOutput('vitest', output))).toEqual([
      'passed a.test.ts > works',
      'skipped a.test.ts > db > reads',
      'failed a.test.ts > db',
      'failed (unhandled error)',
    ]);
  });
});
