import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { loadKeptSecret } from '../auth/auth-secret';
import { AppError } from '../errors/app-error';

/** The environment variable holding the key credentials are sealed with (≥ 32 characters). */
export const secretsKeyVariable = 'SHADOWBOX_SECRETS_KEY';

/**
 * Seals what the server must keep but never show (a remote's password or token): AES-256-GCM
 * under a key derived from `SHADOWBOX_SECRETS_KEY`, or from one made once in the data directory
 * (mode 0600). Each box is bound to what it belongs to (`context`, the remote's name): a sealed
 * value copied onto another row does not open.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'shadowbox', 'remote credentials', 32));
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  open(box: string, context: string): string {
    const bytes = Buffer.from(box, 'base64');
    if (bytes.length < 28) throw unopenable(context);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw unopenable(context);
    }
  }
}

function unopenable(context: string): AppError {
  return new AppError(
    'INVALID_STATE',
    `the credential of ${context} cannot be opened: it was sealed with another ${secretsKeyVariable} (or another data directory's key); add the remote again`,
  );
}

export async function loadSecretBox(
  dataDir: string,
  fromEnv: string | undefined,
): Promise<SecretBox> {
  return new SecretBox(
    await loadKeptSecret({ dataDir, file: 'secrets-key', fromEnv, variable: secretsKeyVariable }),
  );
}
