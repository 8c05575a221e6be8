import { describe, expect, it } from 'vitest';
import { filtersFromParams, hasFilters, noFilters, queryOf, searchOf } from './list-filters';

const read = (search: string) => filtersFromParams(new URLSearchParams(search));

describe('the task list filters in the address', () => {
  it('reads every filter, several statuses comma-separated', () => {
    expect(
      read('status=failed,approved&owner=alice&team=red&source=x.tar&q=%20parser%20&sort=updated'),
    ).toEqual({
      status: ['failed', 'approved'],
      owner: 'alice',
      team: 'red',
      source: 'x.tar',
      q: 'parser',
      sort: 'updated',
    });
  });

  it('drops what the server would refuse instead of breaking the page', () => {
    expect(read('status=done,,failed,failed&sort=oldest&q=' + 'x'.repeat(300))).toEqual({
      ...noFilters,
      status: ['failed'],
      q: 'x'.repeat(200),
    });
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(searchOf(noFilters)).toBe('');
    const filters = {
      ...noFilters,
      status: ['queued' as const],
      q: '100% done',
      sort: 'updated' as const,
    };
    expect(searchOf(filters)).toBe('?status=queued&q=100%25+done&sort=updated');
    expect(read(searchOf(filters).slice(1))).toEqual(filters);
  });

  it('gives tasks.list only the filters set', () => {
    expect(queryOf(noFilters)).toEqual({});
    expect(queryOf({ ...noFilters, owner: ' bob ', team: '  ' })).toEqual({ owner: 'bob' });
    expect(hasFilters({ ...noFilters, sort: 'updated' })).toBe(false);
    expect(hasFilters({ ...noFilters, source: 'x' })).toBe(true);
  });
});
