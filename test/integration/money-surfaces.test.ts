import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { control } from '../sandbox/helpers';
import { setBalance } from '../support/digest';
import { type Harness, messageText, SIGNING_SECRET, startHarness } from '../support/harness';
import { openLimitForm } from '../support/limit-form';
import { newAccount } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const LEITOR = 'U0LEITOR1';
const OPERATOR = 'U0OPERATOR';

/**
 * Balances set in cents in the sandbox, read back as R$ on every surface the contract names: the
 * account list and view, the Home tab, the limit form's account choice, Pix key lists, the statement
 * and the digest; a value that is not a whole number is shown as the API sent it.
 */
describe('money in reais on every surface', () => {
  let h: Harness;
  let campaign: string;
  let main: Harness['sandbox']['companies']['main'];

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: `${VIEWER},${LEITOR}`, ACCESS_OPERATORS: OPERATOR, BALANCE_ALERT_BELOW: '1.000.000' });
    main = h.sandbox.companies.main;
    campaign = await newAccount(h.sandbox);
    await setBalance(h.sandbox, main.defaultAccountId, 1_234_567, 8_900);
    await setBalance(h.sandbox, campaign, 1500.5);
  });
  afterAll(() => h.close());

  let n = 0;
  const answer = async (userId: string, text: string) => {
    const res = await h.slash(userId, text);
    if (res.ack) return messageText(res.ack);
    return messageText((await waitFor(`the answer to ${text} (${++n})`, () => h.slack.responsesTo(res.responseId)[0], 10_000)).body);
  };

  test('/pix accounts and /pix account: total, available and blocked in R$; a fractional value as sent', async () => {
    const list = await answer(VIEWER, 'accounts');
    expect(list).toContain('Balance: total R$12,434.67 · available R$12,345.67 · blocked R$89.00');
    expect(list).toContain('Balance: total 1500.5 · available 1500.5 · blocked R$0.00');
    const one = await answer(VIEWER, `account ${main.defaultAccountId}`);
    expect(one).toContain('*Balance*\ntotal R$12,434.67 · available R$12,345.67 · blocked R$89.00');
    h.slack.locales.set(LEITOR, 'pt-BR');
    expect(await answer(LEITOR, 'accounts')).toContain('Saldo: total R$ 12.434,67 · disponível R$ 12.345,67 · bloqueado R$ 89,00');
  });

  test('the Home tab', async () => {
    const before = h.slack.calls.length;
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0FAKE',
      api_app_id: 'A0PIXOPS',
      event_id: 'Ev0MONEY1',
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: 'T0FAKE', user_id: 'U0BOT', is_bot: true }],
      event: { type: 'app_home_opened', user: VIEWER, channel: 'D0VIEWER1', tab: 'home', event_ts: `${Math.floor(Date.now() / 1000)}.1` },
    });
    expect((await h.post(body, { 'content-type': 'application/json', ...slackSignatureHeaders(body, SIGNING_SECRET) })).status).toBe(200);
    const published = await waitFor('the Home tab', () =>
      h.slack.calls.slice(before).find((c: SlackApiCall) => c.method === 'views.publish' && c.args.user_id === VIEWER),
    );
    expect(messageText(published.args.view)).toContain('Balance: total R$12,434.67 · available R$12,345.67 · blocked R$89.00');
  });

  test('the limit form’s account choice', async () => {
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: main.defaultAccountId, channelId: 'C0MONEY01' });
    const text = messageText(form.view);
    expect(text).toContain(`${main.defaultAccountId} (default) · available R$12,345.67`);
    expect(text).toContain(`${campaign} · available 1500.5`);
  });

  test('the Pix key list of an account', async () => {
    expect(await answer(VIEWER, `keys ${main.defaultAccountId}`)).toContain(
      'Balance: total R$12,434.67 · available R$12,345.67 · blocked R$89.00',
    );
  });

  test('the statement: each entry’s amount and running balance', async () => {
    const res = await control(h.sandbox, 'POST', `/accounts/${main.defaultAccountId}/transactions`, { type: 'CREDIT', value: 12_345 });
    expect(res.status).toBe(201);
    const text = await answer(VIEWER, 'statement');
    expect(text).toContain(':arrow_down_small: *R$123.45*');
    expect(text).toContain('balance R$12,558.12');
  });

  test('the digest: the accounts below the threshold, each with its available balance', async () => {
    const text = await answer(VIEWER, 'digest');
    expect(text).toContain('*Accounts below R$1,000,000.00* (2)');
    expect(text).toContain(`\`${main.defaultAccountId}\` · available R$12,469.12`);
    expect(text).toContain(`\`${campaign}\` · available 1500.5`);
  });
});
