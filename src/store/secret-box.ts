import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { UnreadableSealedValueError } from './errors';

const VERSION = 'v1';
/** GCM's recommended IV: 96 bits. Any other length is not one this box wrote. */
const IV_BYTES = 12;
/** The full tag: a shorter one (Node accepts down to 4 bytes unless told) is easier to forge. */
const TAG_BYTES = 16;

/**
 * AES-256-GCM for values kept at rest (AppIDs). The key is derived from STORE_SECRET with HKDF, and
 * each value is bound to its record (`context`, as additional data) so that a ciphertext copied onto
 * another record does not decrypt.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'pix-ops-slack', 'store-values-v1', 32));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  open(sealed: string, context: string): string {
    const [version, ivText, tagText, data] = sealed.split(':');
    if (version !== VERSION || !ivText || !tagText || data === undefined) throw new UnreadableSealedValueError('Unreadable sealed value');
    const iv = Buffer.from(ivText, 'base64');
    const tag = Buffer.from(tagText, 'base64');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new UnreadableSealedValueError('Unreadable sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}
