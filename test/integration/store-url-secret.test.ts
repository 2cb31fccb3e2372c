import { type Harness, startHarness } from '../support/harness';
import { dropSchema, pgNamespace } from '../support/postgres';

// The password of a Postgres STORE_URL is a secret like the tokens: never in a log line, however the
// URL reaches one (a driver's message, a line that quotes it).
describe('a STORE_URL with a password', () => {
  const namespace = pgNamespace('url-secret');
  const PASSWORD = 'Sup3r-Secret/Pw9';
  const url = `postgres://postgres:${encodeURIComponent(PASSWORD)}@127.0.0.1:5432/test`;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ STORE_URL: url, STORE_SECRET: 's'.repeat(40), STORE_NAMESPACE: namespace });
  });
  afterAll(async () => {
    await h.close();
    await dropSchema(namespace);
  });

  test('a log line quoting the URL or the password, as written or decoded, shows neither', () => {
    h.app.deps.logger.warn({ url, password: PASSWORD }, `could not reach ${url}`);
    const line = h.logs.find((l) => l.includes('could not reach'));
    expect(line).toBeDefined();
    expect(line).not.toContain(encodeURIComponent(PASSWORD));
    expect(line).not.toContain(PASSWORD);
    expect(line).toContain('127.0.0.1:5432/test');
  });
});
