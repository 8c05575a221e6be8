import { describe, expect, it } from 'vitest';
import {
  buildMatrix,
  type ColumnTests,
  type KnownStatus,
  type MatrixColumn,
} from './compare-matrix';

const header = (name: string, winner = false): MatrixColumn['header'] => ({
  name,
  kind: name === 'baseline' ? 'baseline' : 'hypothesis',
  iteration: name === 'baseline' ? null : 1,
  runId: `run-${name}`,
  verdict: winner ? 'winner' : null,
  rank: null,
  winner,
  fixed: null,
  broken: null,
  changedLines: null,
  durationMs: null,
  origin: null,
  author: null,
  readAs: null,
  basis: null,
  totals: null,
  note: null,
});

const byTest = (statuses: Record<string, KnownStatus>): ColumnTests => ({
  evidence: 'by test',
  statuses: new Map(Object.entries(statuses)),
  complete: true,
});

const column = (name: string, tests: ColumnTests, winner = false): MatrixColumn => ({
  header: header(name, winner),
  tests,
});

describe('buildMatrix', () => {
  it('makes no row for a test with the same status in every column', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ a: 'pass', b: 'fail' })),
      column('h1', byTest({ a: 'pass', b: 'pass' })),
      column('h2', byTest({ a: 'pass', b: 'fail' })),
    ]);
    expect(matrix.rows.map((r) => r.test)).toEqual(['b']);
    expect(matrix.rows[0]?.cells).toEqual(['fail', 'pass', 'fail']);
  });

  it('tells missing (absent from a complete list), skipped (reported) and not run apart', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ a: 'pass', b: 'pass' })),
      column('deletes', byTest({ b: 'pass' })),
      column('skips', byTest({ a: 'skipped', b: 'pass' })),
      column('no-build', { evidence: 'not run' }),
    ]);
    expect(matrix.rows).toEqual([
      { test: 'a', cells: ['pass', 'missing', 'skipped', 'not run'], broken: true, fixed: false },
    ]);
  });

  it('shows a totals-only column as unknown in every row and never makes a row from it', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ a: 'fail', b: 'pass' })),
      column('fixes', byTest({ a: 'pass', b: 'pass' })),
      column('counts', { evidence: 'totals only' }),
    ]);
    expect(matrix.columns.map((c) => c.evidence)).toEqual(['by test', 'by test', 'totals only']);
    expect(matrix.rows).toEqual([
      { test: 'a', cells: ['fail', 'pass', 'unknown'], broken: false, fixed: true },
    ]);
  });

  it('makes no row when only one column knows its tests', () => {
    const matrix = buildMatrix([
      column('baseline', { evidence: 'totals only' }),
      column('h1', byTest({ a: 'pass', b: 'fail' })),
      column('h2', { evidence: 'not run' }),
    ]);
    expect(matrix.rows).toEqual([]);
  });

  it('leaves a test an incomplete list does not name unknown, not missing', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ a: 'fail', b: 'pass' })),
      column('h1', {
        evidence: 'failures only',
        statuses: new Map([['b', 'fail']]),
        complete: false,
      }),
    ]);
    expect(matrix.rows).toEqual([
      { test: 'b', cells: ['pass', 'fail'], broken: true, fixed: false },
    ]);
  });

  it('marks the winner and keeps the columns in the order given, the baseline first', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ a: 'fail' })),
      column('zeta', byTest({ a: 'pass' }), true),
      column('alpha', byTest({ a: 'fail' })),
    ]);
    expect(matrix.columns.map((c) => [c.name, c.winner])).toEqual([
      ['baseline', false],
      ['zeta', true],
      ['alpha', false],
    ]);
  });

  it('orders rows by test id, whatever order the runs named them in', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ 'z::b': 'pass', 'a::c': 'pass', B: 'pass', a: 'pass' })),
      column('h1', byTest({ a: 'fail', B: 'fail', 'a::c': 'fail', 'z::b': 'fail' })),
    ]);
    expect(matrix.rows.map((r) => r.test)).toEqual(['B', 'a', 'a::c', 'z::b']);
  });

  it('shows a test only a hypothesis added as missing at the baseline, neither fixed nor broken', () => {
    const matrix = buildMatrix([
      column('baseline', byTest({ a: 'pass' })),
      column('h1', byTest({ a: 'pass', new: 'pass' })),
    ]);
    expect(matrix.rows).toEqual([
      { test: 'new', cells: ['missing', 'pass'], broken: false, fixed: false },
    ]);
  });
});
