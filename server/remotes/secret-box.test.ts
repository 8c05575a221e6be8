import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecretBox, SecretBox } from './secret-box';

const key = 'k'.repeat(40);

describe('SecretBox', () => {
  it('opens what it sealed, for the same context only; the sealed text holds no plaintext', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('ghp_topsecret', 'origin');
    expect(sealed).not.toContain('topsecret');
    expect(Buffer.from(sealed, 'base64').toString('latin1')).not.toContain('topsecret');
    expect(box.open(sealed, 'origin')).toBe('ghp_topsecret');
    expect(() => box.open(sealed, 'other')).toThrow(
      'the credential of other cannot be opened: it was sealed with another SHADOWBOX_SECRETS_KEY',
    );
    expect(box.seal('ghp_topsecret', 'origin')).not.toBe(sealed);
  });

  it('refuses a box sealed under another key, or cut short', () => {
    const sealed = new SecretBox(key).seal('pw', 'origin');
    expect(() => new SecretBox('x'.repeat(40)).open(sealed, 'origin')).toThrow(/cannot be opened/);
    expect(() => new SecretBox(key).open(sealed.slice(0, 8), 'origin')).toThrow(/cannot be opened/);
  });
});

describe('loadSecretBox', () => {
  it('makes a key once in the data directory, private, and keeps using it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-secrets-'));
    try {
      const sealed = (await loadSecretBox(dir, undefined)).seal('pw', 'origin');
      expect((await stat(path.join(dir, 'secrets-key'))).mode & 0o777).toBe(0o600);
      expect(
        (await readFile(path.join(dir, 'secrets-key'), 'utf8')).trim().length,
      ).toBeGreaterThanOrEqual(32);
      expect((await loadSecretBox(dir, undefined)).open(sealed, 'origin')).toBe('pw');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a short SHADOWBOX_SECRETS_KEY', async () => {
    await expect(loadSecretBox('/nonexistent', 'short')).rejects.toThrow(
      'SHADOWBOX_SECRETS_KEY must be at least 32 characters, got 5',
    );
  });
});
