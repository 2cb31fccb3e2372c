import { loadConfig } from '../../src/runtime/config';

const base = { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: 'secret' };

describe('PIX_RATE_LIMIT', () => {
  test('5 calls a second unless told otherwise', () => {
    const result = loadConfig(base);
    expect(result.ok && result.config.pix.rateLimit).toBe(5);
    const set = loadConfig({ ...base, PIX_RATE_LIMIT: '50' });
    expect(set.ok && set.config.pix.rateLimit).toBe(50);
  });

  test.each(['0', '-1', '2.5', 'fast', '1001'])('%s is refused, naming the variable', (value) => {
    const result = loadConfig({ ...base, PIX_RATE_LIMIT: value });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.filter((p) => p.startsWith('PIX_RATE_LIMIT: '))).toHaveLength(1);
  });
});
