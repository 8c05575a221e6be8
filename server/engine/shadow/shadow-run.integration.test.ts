import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShadowRunner, type ShadowRunner } from './create-shadow-runner';
import type { Hypothesis } from './hypothesis';
import type { ShadowRunReport } from './shadow-report';
import {
  crateFiles,
  crateLib,
  pytestCalc,
  pytestFiles,
  warmCrate,
  writeProject,
} from '../../test-support/inline-projects';
import { snapshotTreeWithTimes } from '../../test-support/tree-snapshot';

const hypothesis = (
  name: string,
  edits: Record<string, string> = {},
  del: string[] = [],
): Hypothesis => ({
  name,
  edits: Object.entries(edits).map(([p, content]) => ({ path: p, content })),
  delete: del,
});

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const order = (report: ShadowRunReport): string[] => report.hypotheses.map((h) => h.name);
const byName = (report: ShadowRunReport, name: string) =>
  report.hypotheses.find((h) => h.name === name)!;

// In place, the runs themselves write build output into the workspace (which also moves directory
// mtimes); only the sources must come back exactly.
const buildOutput = (relative: string): boolean =>
  /^(target|__pycache__|\.pytest_cache|\.benchmarks)(\/|$)/.test(relative);
// In place, restored files get a new mtime on purpose (see inplace-journal.ts).
const inPlaceView = { skip: buildOutput, directoryTimes: false, fileTimes: false };

describe.each(['overlay', 'inplace'] as const)('shadowRun in %s mode', (mode) => {
  let runner: ShadowRunner;
  let dataDir: string;
  const view = mode === 'overlay' ? {} : inPlaceView;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-data-'));
    runner = await createShadowRunner({ dataDir, mode });
    expect(runner.mode).toBe(mode);
  });

  // Where a run cut short by the timeout ranks is rank.test.ts's; here the timeout is a run of its
  // own, with a short limit, so that no test waits out a limit long enough for honest builds.
  it('ranks cargo hypotheses: the fix wins; the test deleter, the wrong fix and a compile error follow', async () => {
    const crate = await writeProject('sbx-crate-', crateFiles);
    await warmCrate(crate);
    const before = await snapshotTreeWithTimes(crate, view);
    const report = await runner.run({
      workspace: crate,
      command: ['cargo', 'test', '--offline'],
      parallel: 2,
      hypotheses: [
        hypothesis('baseline'),
        hypothesis('wrong', { 'src/lib.rs': crateLib.wrong }),
        hypothesis('broken', { 'src/lib.rs': crateLib.broken }),
        hypothesis('delete-test', {}, ['tests/add.rs']),
        hypothesis('fix', { 'src/lib.rs': crateLib.fixed }),
      ],
    });
    expect(report.mode).toBe(mode);
    expect(report.winner).toBe('fix');
    // `wrong` fails its unit test; in place cargo stops there, in a shadow it runs on with
    // --no-fail-fast (for the canaries) and fails the integration test too. Either way it has
    // fewer passing tests than the baseline.
    // The compile error ranks below every run that ran tests.
    expect(order(report)).toEqual(['fix', 'delete-test', 'baseline', 'wrong', 'broken']);
    expect(byName(report, 'fix')).toMatchObject({
      exitCode: 0,
      passed: 2,
      failed: 0,
      parsed: true,
      changedLines: 2,
      error: null,
    });
    expect(byName(report, 'delete-test')).toMatchObject({ exitCode: 0, passed: 1, failed: 0 });
    expect(byName(report, 'baseline')).toMatchObject({
      exitCode: 101,
      passed: 1,
      failed: 1,
      changedLines: 0,
    });
    // A compile error is read as a build failure (no test ran), never as a failed test.
    expect(byName(report, 'broken')).toMatchObject({
      parsed: true,
      buildFailed: true,
      disqualified: 'the build failed',
    });
    expect(byName(report, 'broken').outputTail).toContain('error[E0277]');
    expect(report.winnerDiff).toContain('-    a - b\n+    a + b\n');
    expect(await snapshotTreeWithTimes(crate, view)).toEqual(before);
    // Regression: in place, restoring a source with its old mtime left cargo's build of the
    // hypothesis looking fresh, so the original sources then "passed". They must still fail.
    const after = await execa('cargo', ['test', '--offline'], {
      cwd: crate,
      reject: false,
      all: true,
    });
    expect(after.exitCode).toBe(101);
    expect(after.all).toContain('test result: FAILED. 0 passed; 1 failed');
  });

  it('kills a cargo hypothesis that runs past the limit, and ranks it last', async () => {
    const crate = await writeProject('sbx-crate-slow-', crateFiles);
    await warmCrate(crate);
    const before = await snapshotTreeWithTimes(crate, view);
    const started = performance.now();
    const report = await runner.run({
      workspace: crate,
      command: ['cargo', 'test', '--offline'],
      // Cut short while it builds or while its test sleeps: a timeout either way.
      timeoutMs: 5_000,
      hypotheses: [hypothesis('slow', { 'src/lib.rs': crateLib.slow })],
    });
    expect(report.winner).toBeNull();
    expect(byName(report, 'slow')).toMatchObject({ timedOut: true, exitCode: null });
    // Not a speed check: the hypothesis sleeps 120 s, so finishing earlier means it was killed.
    expect(performance.now() - started).toBeLessThan(100_000);
    expect(await snapshotTreeWithTimes(crate, view)).toEqual(before);
  });

  it('ranks pytest hypotheses and leaves the workspace untouched', async () => {
    const project = await writeProject('sbx-py-', pytestFiles);
    const before = await snapshotTreeWithTimes(project, view);
    const report = await runner.run({
      workspace: project,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      env: { PYTHONDONTWRITEBYTECODE: '1' },
      hypotheses: [
        hypothesis('baseline'),
        hypothesis('broken', { 'calc.py': pytestCalc.broken }),
        hypothesis('wrong', { 'calc.py': pytestCalc.wrong }),
        hypothesis('fix', { 'calc.py': pytestCalc.fixed }),
        hypothesis('delete-test', {}, ['test_calc.py']),
      ],
    });
    expect(report.winner).toBe('fix');
    expect(order(report).slice(0, 1)).toEqual(['fix']);
    expect(byName(report, 'fix')).toMatchObject({ passed: 2, failed: 0, exitCode: 0 });
    expect(byName(report, 'baseline')).toMatchObject({ passed: 1, failed: 1 });
    expect(byName(report, 'wrong')).toMatchObject({ passed: 0, failed: 2 });
    expect(byName(report, 'broken')).toMatchObject({ failed: 1, parsed: true });
    // pytest exits 5 when it collects nothing: not a pass. In a shadow it collects the canaries
    // and exits 1 for the failing one; without them, the run ran no tests either way.
    expect(byName(report, 'delete-test')).toMatchObject({
      disqualified: 'the run ran no tests',
      passed: 0,
      failed: 0,
    });
    if (mode === 'inplace') expect(byName(report, 'delete-test').exitCode).toBe(5);
    else expect(byName(report, 'delete-test').canaries).toMatchObject({ exitCode: 1 });
    expect(await snapshotTreeWithTimes(project, view)).toEqual(before);
    expect(await readFile(path.join(project, 'calc.py'), 'utf8')).toBe(pytestFiles['calc.py']);
  });

  it('kills a pytest hypothesis that runs past the limit, beside one that finishes', async () => {
    const project = await writeProject('sbx-py-slow-', pytestFiles);
    const before = await snapshotTreeWithTimes(project, view);
    const started = performance.now();
    const report = await runner.run({
      workspace: project,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      env: { PYTHONDONTWRITEBYTECODE: '1' },
      parallel: 2,
      // Far below the slow hypothesis' 120 s sleep, and enough for a pytest start on a loaded
      // machine (4–6 s seen at load 11, where 8 s cut a normal run short).
      timeoutMs: 12_000,
      hypotheses: [
        hypothesis('slow', { 'calc.py': pytestCalc.slow }),
        hypothesis('fix', { 'calc.py': pytestCalc.fixed }),
      ],
    });
    expect(byName(report, 'slow')).toMatchObject({ timedOut: true, exitCode: null });
    expect(report.winner).toBe('fix');
    expect(order(report)).toEqual(['fix', 'slow']);
    // Not a speed check: the slow hypothesis sleeps 120 s, so finishing earlier means it was killed.
    expect(performance.now() - started).toBeLessThan(100_000);
    expect(await snapshotTreeWithTimes(project, view)).toEqual(before);
    expect(await readFile(path.join(project, 'calc.py'), 'utf8')).toBe(pytestFiles['calc.py']);
  });

  it('refuses a hypothesis that escapes the workspace before running anything', async () => {
    const project = await writeProject('sbx-esc-', pytestFiles);
    const before = await snapshotTreeWithTimes(project);
    await expect(
      runner.run({
        workspace: project,
        command: ['python3', '-m', 'pytest'],
        hypotheses: [
          hypothesis('fix', { 'calc.py': pytestCalc.fixed }),
          hypothesis('escape', { '../outside.py': 'x' }),
        ],
      }),
    ).rejects.toMatchObject({
      code: 'INVALID_HYPOTHESIS',
      message: "hypothesis 'escape': path '../outside.py' contains a '..' segment",
    });
    expect(await snapshotTreeWithTimes(project)).toEqual(before);
  });

  it('applies the winner all-or-nothing when asked, and the workspace then passes on its own', async () => {
    const project = await writeProject('sbx-apply-', pytestFiles);
    const report = await runner.run({
      workspace: project,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      env: { PYTHONDONTWRITEBYTECODE: '1' },
      apply: true,
      hypotheses: [
        hypothesis('wrong', { 'calc.py': pytestCalc.wrong }),
        hypothesis('fix', { 'calc.py': pytestCalc.fixed, 'NOTES.md': 'fixed\n' }),
      ],
    });
    expect(report).toMatchObject({ winner: 'fix', applied: true });
    expect(await readFile(path.join(project, 'calc.py'), 'utf8')).toBe(pytestCalc.fixed);
    expect(await readFile(path.join(project, 'NOTES.md'), 'utf8')).toBe('fixed\n');
    await runner.settled();
    expect(await readdir(path.join(dataDir, 'shadows'))).toEqual([]);
    const rerun = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: project,
      reject: false,
    });
    expect(rerun.exitCode).toBe(0);
  });
});

describe('shadowRun isolation (overlay mode)', () => {
  let runner: ShadowRunner;
  beforeAll(async () => {
    runner = await createShadowRunner({
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'sbx-data-')),
      mode: 'overlay',
    });
  });

  const listenTest = `import socket, time


def test_listens_on_8080():
    s = socket.socket()
    s.bind(("127.0.0.1", 8080))
    s.listen()
    c = socket.create_connection(("127.0.0.1", 8080))
    time.sleep(1.5)
    c.close()
    s.close()
`;

  it('lets two hypotheses listen on 127.0.0.1:8080 at the same time', async () => {
    const project = await writeProject('sbx-port-', pytestFiles);
    const report = await runner.run({
      workspace: project,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_port.py'],
      parallel: 2,
      hypotheses: [
        // Two trees (a comment apart): identical hypotheses would run only once.
        hypothesis('first', { 'test_port.py': listenTest }),
        hypothesis('second', { 'test_port.py': `${listenTest}# the second\n` }),
      ],
    });
    expect(report.hypotheses.map((h) => [h.name, h.passed, h.failed])).toEqual([
      ['first', 1, 0],
      ['second', 1, 0],
    ]);
    // Both ran at once: their durations overlap rather than add up.
    expect(report.winner).toBe('first');
  });

  it('fails a hypothesis that tries to reach the network', async () => {
    const server = net.createServer((socket) => socket.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const project = await writeProject('sbx-net-', pytestFiles);
      const reach = `import socket\n\n\ndef test_reaches_host():\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2).close()\n`;
      const report = await runner.run({
        workspace: project,
        command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_net.py'],
        hypotheses: [hypothesis('reach', { 'test_net.py': reach })],
      });
      expect(report.winner).toBeNull();
      expect(byName(report, 'reach')).toMatchObject({ passed: 0, failed: 1 });
      expect(byName(report, 'reach').outputTail).toContain('ConnectionRefusedError');
    } finally {
      server.close();
    }
  });

  const quietPytest = ['python3', '-m', 'pytest', '-p', 'no:terminal', '-p', 'no:cacheprovider'];

  it('counts tests from the JUnit report the command writes into its shadow', async () => {
    const project = await writeProject('sbx-junit-', pytestFiles);
    const report = await runner.run({
      workspace: project,
      command: [...quietPytest, '--junitxml=report.xml'],
      hypotheses: [hypothesis('fix', { 'calc.py': pytestCalc.fixed })],
    });
    expect(byName(report, 'fix').outputTail).toBe('');
    expect(byName(report, 'fix')).toMatchObject({ parsed: true, passed: 2, failed: 0 });
    expect(await readdir(project)).not.toContain('report.xml');
  });

  it('ignores a report the run turned into a symbolic link to a host file', async () => {
    const fake = path.join(await mkdtemp(path.join(os.tmpdir(), 'sbx-fake-')), 'report.xml');
    await writeFile(fake, '<testsuite tests="99" failures="0" errors="0" skipped="0"></testsuite>');
    const swap = `import atexit, os\n\n\ndef _swap():\n    os.remove("report.xml")\n    os.symlink(${JSON.stringify(fake)}, "report.xml")\n\n\natexit.register(_swap)\n`;
    const project = await writeProject('sbx-junit-link-', pytestFiles);
    const report = await runner.run({
      workspace: project,
      command: [...quietPytest, '--junitxml=report.xml'],
      hypotheses: [hypothesis('fix', { 'calc.py': pytestCalc.fixed, 'conftest.py': swap })],
    });
    // The failing canary made pytest exit 1; with the report ignored nothing says more.
    expect(byName(report, 'fix')).toMatchObject({ exitCode: 1, parsed: false, passed: 0 });
  });

  it('leaves the workspace untouched whatever a hypothesis does: rm -rf, .git, target/', async () => {
    const crate = await writeProject('sbx-vandal-', {
      ...crateFiles,
      '.git/HEAD': 'ref: refs/heads/main\n',
    });
    await warmCrate(crate);
    const before = await snapshotTreeWithTimes(crate);
    const report = await runner.run({
      workspace: crate,
      command: [
        'sh',
        '-c',
        'echo x > .git/HEAD; echo junk > target/junk; cargo test --offline -q; rm -rf ./* .git; ls -A | wc -l',
      ],
      timeoutMs: 120_000,
      hypotheses: [
        hypothesis('fix', { 'src/lib.rs': crateLib.fixed }),
        // Another tree, so that both run (identical hypotheses run once).
        hypothesis('fix-again', { 'src/lib.rs': `${crateLib.fixed}// again\n` }),
      ],
    });
    expect(report.hypotheses.every((h) => h.outputTail.trim().endsWith('0'))).toBe(true);
    expect(await snapshotTreeWithTimes(crate)).toEqual(before);
  });
});

describe('shadowRun with identical hypotheses (overlay mode)', () => {
  it("runs the command once per tree; the duplicate shares its twin's outcome and says so", async () => {
    const runner = await createShadowRunner({
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'sbx-data-')),
      mode: 'overlay',
    });
    const project = await writeProject('sbx-same-', pytestFiles);
    const ran: string[] = [];
    const report = await runner.run(
      {
        workspace: project,
        // A token no two runs share: a duplicate that ran would print another.
        command: ['sh', '-c', 'echo "token $(od -An -N8 -tx8 /dev/urandom | tr -d " ")"'],
        parallel: 3,
        hypotheses: [
          hypothesis('fix-1', { 'calc.py': pytestCalc.wrong }),
          hypothesis('fix-2', { 'calc.py': pytestCalc.fixed }),
          // The same tree as fix-2: the same edit, and a rewrite of a file as it already is.
          hypothesis('fix-3', {
            'test_calc.py': pytestFiles['test_calc.py'],
            'calc.py': pytestCalc.fixed,
          }),
        ],
      },
      {
        emit: (event) => {
          if (event.type === 'hypothesis.output' && !ran.includes(event.name)) ran.push(event.name);
        },
      },
    );
    await runner.settled();
    expect(ran.sort()).toEqual(['fix-1', 'fix-2']);
    const token = (name: string): string =>
      /token ([0-9a-f]{16})/.exec(byName(report, name).outputTail)?.[1] ?? 'none';
    expect(byName(report, 'fix-3').sameTreeAs).toBe('fix-2');
    expect(token('fix-3')).toBe(token('fix-2'));
    expect(token('fix-1')).not.toBe(token('fix-2'));
    expect(byName(report, 'fix-1').sameTreeAs).toBeUndefined();
    expect(byName(report, 'fix-2').sameTreeAs).toBeUndefined();
  });
});

describe('shadowRun in-place restore', () => {
  it('restores the workspace after a hypothesis times out', async () => {
    const runner = await createShadowRunner({
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'sbx-data-')),
      mode: 'inplace',
    });
    const project = await writeProject('sbx-restore-', pytestFiles);
    const before = await snapshotTreeWithTimes(project, inPlaceView);
    const report = await runner.run({
      workspace: project,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      env: { PYTHONDONTWRITEBYTECODE: '1' },
      timeoutMs: 3_000,
      hypotheses: [
        hypothesis('slow', { 'calc.py': pytestCalc.slow, 'extra/new_module.py': 'X = 1\n' }),
      ],
    });
    expect(byName(report, 'slow').timedOut).toBe(true);
    expect(await snapshotTreeWithTimes(project, inPlaceView)).toEqual(before);
  });

  it('reports and never ranks as a clean pass a hypothesis whose run changed what it wrote', async () => {
    const runner = await createShadowRunner({
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'sbx-data-')),
      mode: 'inplace',
    });
    const project = await writeProject('sbx-dirty-', pytestFiles);
    const report = await runner.run({
      workspace: project,
      command: ['sh', '-c', 'echo tampered >> calc.py'],
      hypotheses: [hypothesis('tamper', { 'calc.py': pytestCalc.fixed })],
    });
    expect(report.winner).toBeNull();
    expect(byName(report, 'tamper').error).toMatch(/left as the run left them: calc\.py/);
    expect(await readFile(path.join(project, 'calc.py'), 'utf8')).toBe(
      `${pytestCalc.fixed}tampered\n`,
    );
  });
});

describe('recovery after a crash', () => {
  it('restores the workspace of an in-place run whose process was killed with SIGKILL', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-data-'));
    const project = await writeProject('sbx-crash-', pytestFiles);
    const before = await snapshotTreeWithTimes(project, { fileTimes: false });
    // One process (not the tsx CLI, which runs scripts in a child of its own) so SIGKILL hits the runner.
    const script = path.join(import.meta.dirname, 'test-support/inplace-crash-child.ts');
    const child = execa(process.execPath, ['--import', 'tsx', script, dataDir, project], {
      reject: false,
      stdout: 'ignore',
    });
    await until(
      async () => (await readFile(path.join(project, 'calc.py'), 'utf8')) === pytestCalc.fixed,
    );
    child.kill('SIGKILL');
    await child;

    const runner = await createShadowRunner({ dataDir, mode: 'inplace' });
    expect(runner.sweep).toEqual({ removed: 1, notRestored: [] });
    expect(await snapshotTreeWithTimes(project, { fileTimes: false })).toEqual(before);
  });
});
