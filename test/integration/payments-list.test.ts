import type { ResponseUrlCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction, clearFaults, failPixApi } from '../support/interactions';
import { waitFor } from '../support/wait';

// `/pix payments`: the company's payments as the service lists them, made through its API (as from
// the service's web app or another system), a page at a time, statuses in words, keys masked.

const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0PAYLIST';

const CPF = { key: '71460238001', type: 'CPF', masked: '***.602.380-**' };
const EMAIL = { key: 'financeiro@graficarapida.com.br', type: 'EMAIL', masked: 'f***@graficarapida.com.br' };
const PHONE = { key: '+5531991234567', type: 'PHONE', masked: '+5531*****4567' };

describe('/pix payments and its Previous / Next buttons, through the real app (HTTP mode)', () => {
  let h: Harness;
  let clicks = 0;

  const sandbox = async (method: string, path: string, body?: unknown, appId?: string) => {
    const res = await fetch(`${h.sandbox.url}${path}`, {
      method,
      headers: { ...(appId ? { Authorization: appId } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json().catch(() => undefined);
  };
  const pay = (n: number, key: { key: string; type: string }) =>
    sandbox(
      'POST',
      '/api/v1/payment',
      {
        type: 'PIX_KEY',
        value: 100_000 + n,
        destinationAlias: key.key,
        destinationAliasType: key.type,
        correlationID: `made-elsewhere-${n}`,
      },
      h.sandbox.companies.main.mainAppId,
    );
  const approve = (n: number) =>
    sandbox('POST', '/api/v1/payment/approve', { correlationID: `made-elsewhere-${n}` }, h.sandbox.companies.main.mainAppId);

  const firstResponse = (responseId: string): Promise<ResponseUrlCall> =>
    waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0], 15_000);
  const list = async (userId: string, text: string) => firstResponse((await h.slash(userId, text, { channelId: CHANNEL })).responseId);
  const click = async (actionId: string, value: string) => {
    const responseId = `payments-${++clicks}`;
    const res = await blockAction(h, { userId: VIEWER, actionId, value, channelId: CHANNEL, responseId, blockId: 'payments_nav' });
    expect(res.status).toBe(200);
    return firstResponse(responseId);
  };
  const buttonsOf = (message: unknown) =>
    ((message as { blocks?: Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }> }).blocks ?? [])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .map(({ action_id, value }) => ({ action_id, value }));
  const listCalls = (since: number) => h.sandbox.calls.slice(since).filter((c) => c.method === 'GET' && c.path === '/api/v1/payment');

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER });
  });
  afterAll(() => h.close());

  test('no payments yet: said so, no buttons', async () => {
    const answer = await list(VIEWER, 'payments');
    expect(messageText(answer.body)).toContain('The company has no payments yet.');
    expect(buttonsOf(answer.body)).toEqual([]);
  });

  test('twelve payments in every state: newest first, ten a page, statuses in words, amounts in R$, keys masked, correlationIDs', async () => {
    const keys = [CPF, EMAIL, PHONE];
    for (let n = 1; n <= 12; n++) await pay(n, keys[n % 3]!);
    // 10 and 11 sent (confirmed once the sandbox's clock passes its delay); 12 fails on the limit; 9 sent, not settled yet.
    await approve(10);
    await approve(11);
    await sandbox('POST', '/sandbox/payments/fail', { code: 'REACH_TRANSFER_LIMIT', count: 1 });
    await approve(12);
    await sandbox('POST', '/sandbox/clock', { advanceMs: 60_000 });
    await approve(9);

    const since = h.sandbox.calls.length;
    const first = await list(VIEWER, 'payments');
    expect(listCalls(since).map((c) => c.query)).toEqual([{ limit: '10', skip: '0' }]);
    const text = messageText(first.body);
    const order = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => text.indexOf(`made-elsewhere-${n}\``));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(text).not.toContain('made-elsewhere-2`');
    expect(text).toContain('page 1 (1–10)');
    const lines = text.split('\n');
    /** A payment's line: the one before its correlationID. */
    const line = (n: number) => lines[lines.findIndex((l) => l.includes(`made-elsewhere-${n}\``)) - 1] ?? '';
    expect(line(12)).toContain(`*R$1,000.12* to \`${CPF.masked}\` · failed (REACH_TRANSFER_LIMIT)`);
    expect(line(11)).toContain(`*R$1,000.11* to \`${PHONE.masked}\` · confirmed`);
    expect(line(10)).toContain(`*R$1,000.10* to \`${EMAIL.masked}\` · confirmed`);
    expect(line(9)).toContain('in progress');
    expect(line(8)).toContain('created, not approved at the service');
    // No key whole, anywhere.
    for (const key of keys) expect(JSON.stringify(first.body)).not.toContain(key.key);
    expect(buttonsOf(first.body)).toEqual([{ action_id: 'payments_next', value: '2' }]);

    const second = await click('payments_next', '2');
    expect(second.body).toMatchObject({ replace_original: true });
    const text2 = messageText(second.body);
    expect(text2).toContain('page 2 (11–12)');
    expect(text2).toContain('made-elsewhere-2`');
    expect(text2).toContain('made-elsewhere-1`');
    expect(buttonsOf(second.body)).toEqual([{ action_id: 'payments_prev', value: '1' }]);
    expect(listCalls(since).map((c) => c.query)).toEqual([
      { limit: '10', skip: '0' },
      { limit: '10', skip: '10' },
    ]);

    const third = await list(VIEWER, 'payments 3');
    expect(messageText(third.body)).toContain('No payments on page 3.');
    expect(buttonsOf(third.body)).toEqual([{ action_id: 'payments_prev', value: '2' }]);
  });

  test.each(['0', 'two', '-1', '1.5', '99999999'])('a bad page (%s): the usage, no Pix call', async (page) => {
    const since = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, `payments ${page}`, { channelId: CHANNEL });
    const text = messageText(res.ack ?? (await firstResponse(res.responseId)).body);
    expect(text).toContain('The page is a whole number, 1 or more.');
    expect(text).toContain('/pix payments [page]');
    expect(listCalls(since)).toEqual([]);
  });

  test('a user with no role: refused, nothing read', async () => {
    const since = h.sandbox.calls.length;
    const res = await h.slash(STRANGER, 'payments', { channelId: CHANNEL });
    const text = messageText(res.ack ?? (await firstResponse(res.responseId)).body);
    expect(text).toContain('viewer');
    const pressed = `payments-${++clicks}`;
    await blockAction(h, {
      userId: STRANGER,
      actionId: 'payments_next',
      value: '2',
      channelId: CHANNEL,
      responseId: pressed,
      blockId: 'payments_nav',
    });
    expect(messageText((await firstResponse(pressed)).body)).toContain('viewer');
    expect(h.sandbox.calls.slice(since)).toEqual([]);
  });

  test('the Pix API failing: told so, and a page turned is not replaced', async () => {
    await failPixApi(h);
    try {
      const text = messageText((await list(VIEWER, 'payments')).body);
      expect(text).toContain('Could not list the payments');
      const answer = await click('payments_next', '2');
      expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(messageText(answer.body)).toContain('Could not list the payments');
    } finally {
      await clearFaults(h);
    }
  });
});
