import { describe, expect, it } from 'vitest';
import { downloadResponse, safeFileName } from './download';
import { hostileFileNames } from './test-support/hostile-file-names';

describe('downloadResponse', () => {
  it.each(hostileFileNames)('names %j safely in the header', (fileName, safe) => {
    const response = downloadResponse(
      { bytes: Buffer.from('diff\n'), sha256: 'a'.repeat(64), fileName },
      'patch',
    );
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toBe(`attachment; filename="${safe}"`);
    expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"$/);
  });

  it('sends the bytes as a patch, never cached or sniffed', async () => {
    const response = downloadResponse(
      { bytes: Buffer.from('diff\n'), sha256: 'b'.repeat(64), fileName: 'x.patch' },
      'patch',
    );
    expect(await response.text()).toBe('diff\n');
    expect(response.headers.get('content-type')).toBe('text/x-patch; charset=utf-8');
    expect(response.headers.get('content-length')).toBe('5');
    expect(response.headers.get('x-content-sha256')).toBe('b'.repeat(64));
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('safeFileName', () => {
  it('falls back to a name of the kind when nothing usable is left', () => {
    expect(safeFileName('', 'patch')).toBe('shadowbox.patch');
    expect(safeFileName('..', 'series')).toBe('shadowbox.series');
    expect(safeFileName('.', 'bundle')).toBe('shadowbox.bundle');
  });
});
