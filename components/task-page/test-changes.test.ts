import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TestChanges } from './test-changes';
import type { TestDelta } from './timeline-state';

// A test id's head and name are spans of one <code>: they join without a space.
const text = (html: string): string =>
  html
    .replace(/<\/?span[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const shown = (tests: TestDelta): string =>
  text(renderToStaticMarkup(createElement(TestChanges, { tests })));

const none = { fixed: [], broken: [], stillFailing: [], missing: [], added: [] };

describe('TestChanges', () => {
  it('never shows net counts as facts: "fixed 3, broke 2" by totals is one fewer failure', () => {
    const html = shown({
      ...none,
      byId: false,
      basis: 'totals',
      counts: { fixed: 1, broken: 0, stillFailing: 2, missing: 0, added: 0 },
    });
    expect(html).toBe(
      'Net change in failures: −1 failure Failing now: 2 (by totals only: the runner names no tests, so which tests changed is unknown)',
    );
    expect(html).not.toMatch(/Fixed|Broke/);
  });

  it('says so when a delta without a basis (stored before it) was by totals', () => {
    const html = shown({
      ...none,
      byId: false,
      counts: { fixed: 0, broken: 2, stillFailing: 1, missing: 1, added: 0 },
    });
    expect(html).toMatch(
      /^Net change in failures: \+2 failures Failing now: 1 Net change in tests run: −1 test/,
    );
  });

  it('lists inferred changes by id, marked as inferred', () => {
    const html = shown({
      ...none,
      fixed: ['t::a'],
      stillFailing: ['t::env'],
      byId: false,
      basis: 'inferred',
      counts: { fixed: 1, broken: 0, stillFailing: 1, missing: 0, added: 0 },
    });
    expect(html).toMatch(/^Fixed: t::a Still failing: t::env \(inferred: /);
  });
});
