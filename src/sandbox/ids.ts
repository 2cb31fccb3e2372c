import { createHash, randomBytes } from 'node:crypto';
import { cnpjCheckDigit } from './tax-id';

/**
 * Source of every identifier the sandbox hands out. With a seed the sequence is reproducible
 * (stable AppIDs between runs, deterministic tests); without one it is cryptographically random.
 */
export class IdSource {
  private counter = 0;

  constructor(private readonly seed?: string) {}

  bytes(count: number): Buffer {
    if (this.seed === undefined) return randomBytes(count);
    const blocks: Buffer[] = [];
    let length = 0;
    while (length < count) {
      const block = createHash('sha256')
        .update(`${this.seed}\0${this.counter++}`)
        .digest();
      blocks.push(block);
      length += block.length;
    }
    return Buffer.concat(blocks).subarray(0, count);
  }

  hex(byteCount: number): string {
    return this.bytes(byteCount).toString('hex');
  }

  /** 24 hex digits, the shape of the real service's object ids. */
  objectId(): string {
    return this.hex(12);
  }

  /** RFC 4122 version 4 UUID (the shape of an EVP Pix key). */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** A CNPJ (14 digits, head office branch 0001) with valid check digits. */
  cnpj(): string {
    const base = [...this.bytes(8)].map((byte) => byte % 10);
    const digits = [...base, 0, 0, 0, 1];
    digits.push(cnpjCheckDigit(digits));
    digits.push(cnpjCheckDigit(digits));
    return digits.join('');
  }

  /** Application credentials; the AppID is base64 of `clientId:clientSecret`, like the real service's. */
  credentials(): { clientId: string; clientSecret: string; appId: string } {
    const clientId = `Client_Id_${this.uuid()}`;
    const clientSecret = this.clientSecret();
    return { clientId, clientSecret, appId: Buffer.from(`${clientId}:${clientSecret}`).toString('base64') };
  }

  clientSecret(): string {
    return `Client_Secret_${this.bytes(24).toString('base64').replace(/[+/=]/g, '')}`;
  }
}
