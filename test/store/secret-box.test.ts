import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { UnreadableSealedValueError } from '../../src/store/errors';
import { SecretBox } from '../../src/store/secret-box';

const APP_ID = 'Q2xpZW50X0lkX3NlY3JldC1hcHAtaWQtZm9yLXRlc3Q=';

describe('SecretBox', () => {
  test('a sealed value is bound to its record', () => {
    const box = new SecretBox('x'.repeat(32));
    const sealed = box.seal(APP_ID, 'account-app:acc1');
    expect(sealed).not.toContain(APP_ID);
    expect(box.open(sealed, 'account-app:acc1')).toBe(APP_ID);
    expect(() => box.open(sealed, 'account-app:acc2')).toThrow();
    expect(box.seal(APP_ID, 'c')).not.toBe(box.seal(APP_ID, 'c'));
  });

  test('a truncated tag is refused: a 4-byte tag would be a forgery away (authTagLength 16)', () => {
    const box = new SecretBox('x'.repeat(32));
    const [version, iv, tag, data] = box.seal(APP_ID, 'ctx').split(':') as [string, string, string, string];
    const short = Buffer.from(tag, 'base64').subarray(0, 4).toString('base64');
    expect(() => box.open([version, iv, short, data].join(':'), 'ctx')).toThrow();
  });

  test('an IV of any length but 12 bytes is refused, even when the value is otherwise genuine', () => {
    const secret = 'x'.repeat(32);
    // The same key the box derives, to seal a value exactly as it would but with a 16-byte IV.
    const key = Buffer.from(hkdfSync('sha256', secret, 'pix-ops-slack', 'store-values-v1', 32));
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('ctx'));
    const data = Buffer.concat([cipher.update(APP_ID, 'utf8'), cipher.final()]);
    const sealed = ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
    expect(() => new SecretBox(secret).open(sealed, 'ctx')).toThrow('Unreadable sealed value');
    expect(() => new SecretBox(secret).open(sealed, 'ctx')).toThrow(UnreadableSealedValueError);
  });
});
