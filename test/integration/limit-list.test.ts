import type { ResponseUrlCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction, clearFaults, decideLimitRequest, failPixApi, openLimitRequest } from '../support/interactions';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0LIST001';

/** Brasília time as an English reader sees it (the fake Slack's users are `en-US`), apart from the app's helper. */
const brasilia = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', dateStyle: 'medium', timeStyle: 'short' })
    .format(new Date(iso))
    .replace(/[\u00a0\u202f]/g, ' ');

/** `R$5,010.00`-style amounts (English separators) of request number i, written out by hand (not with the app's formatter). */
const dayOf = (i: number) => 500000 + i * 1000;
const nightOf = (i: number) => 100000 + i;
const reais = (cents: number) => {
  const int = Math.floor(cents / 100);
  const thousands = int >= 1000 ? `${Math.floor(int / 1000)},${String(int % 1000).padStart(3, '0')}` : String(int);
  return `R$${thousands}.${String(cents % 100).padStart(2, '0')}`;
};

describe('/pix limit list and its Previous / Next buttons, through the real app (HTTP mode)', () => {
  let h: Harness;
  let main: Harness['sandbox']['companies']['main'];
  /** Oldest first, as they were filed. */
  const filed: Array<{ id: string; createdAt: string }> = [];
  let clicks = 0;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER });
    main = h.sandbox.companies.main;
  });
  afterAll(() => h.close());

  /** Files request number i on the default account, then rejects it (one in review per account) unless `keep`. */
  const file = async (i: number, keep = false) => {
    const request = await openLimitRequest(h, {
      appId: main.mainAppId,
      accountId: main.defaultAccountId,
      limits: { pixDayLimit: dayOf(i), pixNightLimit: nightOf(i) },
    });
    filed.push(request);
    if (!keep) await decideLimitRequest(h, request.id, 'reject');
  };

  const firstResponse = (responseId: string, timeoutMs?: number): Promise<ResponseUrlCall> =>
    waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0], timeoutMs);

  const list = async (userId: string, text: string) => {
    const res = await h.slash(userId, text);
    expect(res.status).toBe(200);
    return res;
  };

  const click = async (userId: string, actionId: string, value: string) => {
    const responseId = `list-${++clicks}`;
    const res = await blockAction(h, { userId, actionId, value, channelId: CHANNEL, responseId, blockId: 'limit_list_nav' });
    expect(res.status).toBe(200);
    return firstResponse(responseId, 15_000);
  };

  const buttonsOf = (message: unknown): Array<{ action_id: string; value: string }> =>
    ((message as { blocks?: Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }> }).blocks ?? [])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .map(({ action_id, value }) => ({ action_id, value }));

  const listCalls = (since: number) =>
    h.sandbox.calls.slice(since).filter((c) => c.method === 'GET' && c.path === '/api/v1/limits/request');

  /** The ids in the order they appear in a message. */
  const idsIn = (message: unknown) => {
    const text = messageText(message);
    return filed
      .map((r) => ({ id: r.id, at: text.indexOf(`\`${r.id}\``) }))
      .filter((r) => r.at >= 0)
      .sort((a, b) => a.at - b.at)
      .map((r) => r.id);
  };

  test('with no requests: "No limit requests yet.", no buttons; page 1 is skip=0&limit=10', async () => {
    const before = h.sandbox.calls.length;
    const res = await list(VIEWER, 'limit list');
    const answer = await firstResponse(res.responseId);
    expect(answer.body.response_type).toBe('ephemeral');
    expect(messageText(answer.body)).toContain('No limit requests yet.');
    expect(buttonsOf(answer.body)).toEqual([]);
    const calls = listCalls(before);
    expect(calls.map((c) => c.query)).toEqual([{ limit: '10', skip: '0' }]);
    expect(calls[0]!.authorization).toBe(main.mainAppId);
  });

  test('exactly ten requests: one full page, newest first, amounts in R$, and no Next', async () => {
    for (let i = 1; i <= 10; i++) await file(i);
    const res = await list(VIEWER, 'limit list');
    const answer = await firstResponse(res.responseId);
    const text = messageText(answer.body);
    expect(idsIn(answer.body)).toEqual(filed.map((r) => r.id).reverse());
    const newest = filed[9]!;
    expect(text).toContain(`\`${newest.id}\`  :x: Rejected`);
    expect(text).toContain(
      `Account \`${main.defaultAccountId}\` · day *${reais(dayOf(10))}* · night *${reais(nightOf(10))}* · created ${brasilia(newest.createdAt)}`,
    );
    expect(reais(dayOf(10))).toBe('R$5,100.00');
    expect(reais(nightOf(10))).toBe('R$1,000.10');
    expect(buttonsOf(answer.body)).toEqual([]);
  });

  test('more than ten: Next appears; Next shows page 2 (skip=10&limit=10), replacing the message; Previous goes back', async () => {
    await file(11);
    await file(12, true);
    // Another company's request never shows.
    const other = h.sandbox.companies.other;
    const theirs = await openLimitRequest(h, {
      appId: other.mainAppId,
      accountId: other.defaultAccountId,
      limits: { pixDayLimit: 990000, pixNightLimit: 100000 },
    });

    const res = await list(VIEWER, 'limit list');
    const page1 = await firstResponse(res.responseId);
    const newestFirst = filed.map((r) => r.id).reverse();
    expect(idsIn(page1.body)).toEqual(newestFirst.slice(0, 10));
    expect(messageText(page1.body)).toContain(`\`${filed[11]!.id}\`  :hourglass_flowing_sand: In review`);
    expect(messageText(page1.body)).not.toContain(theirs.id);
    expect(buttonsOf(page1.body)).toEqual([{ action_id: 'limit_list_next', value: '2' }]);

    let before = h.sandbox.calls.length;
    const page2 = await click(VIEWER, 'limit_list_next', '2');
    expect(page2.body.replace_original).toBe(true);
    expect(idsIn(page2.body)).toEqual(newestFirst.slice(10));
    expect(messageText(page2.body)).toContain(`day *${reais(dayOf(1))}* · night *${reais(nightOf(1))}*`);
    expect(buttonsOf(page2.body)).toEqual([{ action_id: 'limit_list_prev', value: '1' }]);
    expect(listCalls(before).map((c) => c.query)).toEqual([{ limit: '10', skip: '10' }]);

    before = h.sandbox.calls.length;
    const back = await click(VIEWER, 'limit_list_prev', '1');
    expect(back.body.replace_original).toBe(true);
    expect(idsIn(back.body)).toEqual(newestFirst.slice(0, 10));
    expect(buttonsOf(back.body)).toEqual([{ action_id: 'limit_list_next', value: '2' }]);
    expect(listCalls(before).map((c) => c.query)).toEqual([{ limit: '10', skip: '0' }]);
  });

  test('a page can be asked for directly; past the end: "No requests on page N"', async () => {
    const res = await list(VIEWER, 'limit list 2');
    expect(idsIn((await firstResponse(res.responseId)).body)).toEqual([filed[1]!.id, filed[0]!.id]);

    const past = await list(VIEWER, 'limit list 7');
    const answer = await firstResponse(past.responseId);
    expect(messageText(answer.body)).toContain('No requests on page 7');
    expect(buttonsOf(answer.body)).toEqual([{ action_id: 'limit_list_prev', value: '6' }]);
  });

  test('a bad page gets usage and no call', async () => {
    const before = h.sandbox.calls.length;
    for (const bad of ['0', 'abc', '-1', '1.5', '99999999999']) {
      const res = await list(VIEWER, `limit list ${bad}`);
      expect(messageText((await firstResponse(res.responseId)).body)).toContain('Usage: `/pix limit list [page]`');
    }
    expect(messageText((await list(VIEWER, 'limit list 1 2')).ack)).toContain('Usage: `/pix limit list [page]`');
    const forged = await click(VIEWER, 'limit_list_next', '0');
    expect(messageText(forged.body)).toContain('does not name a page');
    expect(forged.body.replace_original).toBe(false);
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('an unauthorized user is refused, naming the role, for the command and the buttons; nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const res = await list(STRANGER, 'limit list');
    expect(res.ack?.response_type).toBe('ephemeral');
    expect(messageText(res.ack)).toContain('*viewer* role');
    for (const [actionId, value] of [
      ['limit_list_next', '2'],
      ['limit_list_prev', '1'],
    ] as const) {
      const answer = await click(STRANGER, actionId, value);
      expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(messageText(answer.body)).toContain('You need the *viewer* role to list the limit requests');
    }
    await h.slash(VIEWER, 'help');
    expect(h.sandbox.calls.length).toBe(before);
    expect(h.slack.responsesTo(res.responseId)).toEqual([]);
  });

  test('the Pix API failing: the user is told, and the list is not replaced', async () => {
    await failPixApi(h);
    try {
      const res = await list(VIEWER, 'limit list');
      const text = messageText((await firstResponse(res.responseId, 15_000)).body);
      expect(text).toContain('Could not list the limit requests');
      expect(text).toContain('Sandbox fault');

      const answer = await click(VIEWER, 'limit_list_next', '2');
      expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(messageText(answer.body)).toContain('Could not list the limit requests');
    } finally {
      await clearFaults(h);
    }
    expect(h.slack.callsOf('chat.postMessage')).toEqual([]);
  });

  test('never a page size above 100 on the wire', () => {
    const all = h.sandbox.calls.filter((c) => c.path === '/api/v1/limits/request' && c.method === 'GET');
    expect(all.length).toBeGreaterThan(0);
    for (const c of all) expect(Number(c.query.limit)).toBeLessThanOrEqual(100);
  });
});
