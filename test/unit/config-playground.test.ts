import { wantsPlayground } from '../../src/runtime/config';

/**
 * `npm start` serves the playground only when nothing of a deployment is set: a production variable
 * that is set (a secret mount that half failed) means the configuration is checked, never a playground.
 */
describe('wantsPlayground', () => {
  test('nothing set, blanks, or a sqlite store: the playground', () => {
    expect(wantsPlayground({})).toBe(true);
    expect(wantsPlayground({ SLACK_BOT_TOKEN: '  ', PIX_API_URL: '', SLACK_APP_TOKEN: '' })).toBe(true);
    expect(wantsPlayground({ STORE_URL: 'sqlite://data/pix-ops.sqlite', PLAYGROUND_PORT: '0', LOG_LEVEL: 'debug' })).toBe(true);
  });

  test.each([
    ['SLACK_BOT_TOKEN', 'xoxb-1-2-3'],
    ['SLACK_APP_TOKEN', 'xapp-1-2-3'],
    ['SLACK_SIGNING_SECRET', '0123456789abcdef'],
    ['PIX_API_URL', 'https://api.woovi.com'],
    ['STORE_URL', 'redis://127.0.0.1:6379'],
    ['STORE_URL', 'rediss://cache.example.com:6380'],
    ['STORE_URL', 'postgres://pix@db.example.com/pix'],
    ['STORE_URL', 'postgresql://pix@db.example.com/pix'],
    ['STORE_URL', ' POSTGRES://pix@db.example.com/pix'],
    ['STORE_URL', 'mysql://db.example.com/pix'],
  ])('%s set (%p): the configuration is checked, no playground', (name, value) => {
    expect(wantsPlayground({ [name]: value })).toBe(false);
  });
});
