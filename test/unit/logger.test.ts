import { createLogger, SecretRegistry } from '../../src/runtime/logger';

/** A logger at debug whose lines are kept, with the app's registry of secrets. */
function logged(secrets: SecretRegistry) {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', secrets, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

describe('the log scrubber: a STORE_URL’s password never reaches a log line', () => {
  // What the app registers of a STORE_URL: its password as written and decoded. A short one is not
  // kept as a secret on its own (it would redact ordinary words), so where it stands, in a URL, is what
  // tells it is one.
  const register = (secrets: SecretRegistry, url: string) => {
    const { password } = new URL(url);
    secrets.add(password);
    secrets.add(decodeURIComponent(password));
  };

  test.each([
    ['postgres://pix:abc@db.internal:5432/pix', 'abc'],
    ['postgresql://pix:s3cr%40t@db.internal/pix?sslmode=require', 's3cr%40t'],
    ['postgres://pix:a@127.0.0.1:5432/test', 'a'],
    ['redis://:pw1@cache:6379', 'pw1'],
    ['rediss://default:Zz9@cache.example.com:6380', 'Zz9'],
  ])('%s: the URL as written, in the message and in a field, shows no password', (url, password) => {
    const secrets = new SecretRegistry();
    register(secrets, url);
    const { logger, lines } = logged(secrets);
    logger.warn({ url, config: { connectionString: url } }, `could not reach ${url} (${url})`);
    const line = lines.join('');
    expect(line).not.toContain(`:${password}@`);
    expect(line.split('[REDACTED]@').length - 1).toBe(4);
    expect(line).toContain(new URL(url).host);
  });

  test('a password with an @ of its own, written unencoded: the whole of it goes, up to the host', () => {
    const { logger, lines } = logged(new SecretRegistry());
    logger.error(`connect ECONNREFUSED postgres://pix:p@ss@db:5432/pix`);
    expect(lines.join('')).toContain('postgres://pix:[REDACTED]@db:5432/pix');
  });

  test('a password with a quote or a backslash, escaped in the JSON line: removed whole', () => {
    const { logger, lines } = logged(new SecretRegistry());
    logger.error({ url: 'postgres://pix:a"b\\c@db:5432/pix' }, 'refused');
    const line = lines.join('');
    expect(line).toContain('postgres://pix:[REDACTED]@db:5432/pix');
    expect(line).not.toContain('a\\"b');
  });

  test('URLs without a password, and text that only looks like one, are left as they are', () => {
    const { logger, lines } = logged(new SecretRegistry());
    logger.info({ a: 'postgres://pix@db:5432/pix', b: 'http://127.0.0.1:8080/x@y', c: 'mailto:a@b.com', d: '<@U0ABEL001>' }, 'as is');
    const line = lines.join('');
    for (const text of ['postgres://pix@db:5432/pix', 'http://127.0.0.1:8080/x@y', 'mailto:a@b.com', '<@U0ABEL001>'])
      expect(line).toContain(text);
    expect(line).not.toContain('[REDACTED]');
  });

  test('a long password is still removed wherever it appears, in a URL or not', () => {
    const secrets = new SecretRegistry();
    register(secrets, 'postgres://pix:long-enough-password@db/pix');
    const { logger, lines } = logged(secrets);
    logger.warn('the password long-enough-password was refused');
    expect(lines.join('')).not.toContain('long-enough-password');
  });
});
