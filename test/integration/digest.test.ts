import { checkMessage } from '../../src/slack-standin/block-kit-rules';
import type { ResponseUrlCall } from '../../src/slack-standin/web-api';
import { idOf, MAKER, seedApprovals, seedOpenDisputes, seedRequestsInReview, setBalance, setWithdrawBlocked } from '../support/digest';
import { type Harness, messageText, startHarness } from '../support/harness';
import { clearFaults, failPixApi } from '../support/interactions';
import { newAccount } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const OPERATOR = 'U0OPERATOR';
const ADMIN = 'U0ADMIN01';
const STRANGER = 'U0NOBODY1';

type Block = { type: string; text?: { text: string }; elements?: Array<{ text: string }> };
const blocksOf = (answer: ResponseUrlCall) => (answer.body as { blocks: Block[] }).blocks;
const textOf = (block: Block) => block.text?.text ?? block.elements?.map((e) => e.text).join('\n') ?? '';

/**
 * `/pix digest` through the real app (HTTP mode), the store seeded as the app's flows leave it, the
 * sandbox Pix API behind: what waits, oldest first, money in R$, within Slack's limits at any size.
 */
describe('/pix digest: what waits for the team, now, to the caller alone', () => {
  let h: Harness;
  let lowAccount: string;

  beforeAll(async () => {
    h = await startHarness({
      ACCESS_VIEWERS: VIEWER,
      ACCESS_OPERATORS: OPERATOR,
      ACCESS_ADMINS: ADMIN,
      PIX_EVENTS_CHANNEL: 'C0EVENTS1',
      BALANCE_ALERT_BELOW: '10.000,00',
    });
    lowAccount = await newAccount(h.sandbox);
  });
  afterAll(() => h.close());
  afterEach(() => clearFaults(h));

  let asked = 0;
  /** The answer: in the acknowledgement (a usage line), or on the command's response_url. */
  const ask = async (userId: string, text = 'digest'): Promise<ResponseUrlCall> => {
    const res = await h.slash(userId, text);
    expect(res.status).toBe(200);
    ++asked;
    if (res.ack) return { body: res.ack } as unknown as ResponseUrlCall;
    return waitFor(`the answer to /pix ${text} (${asked})`, () => h.slack.responsesTo(res.responseId)[0], 15_000);
  };

  test('nothing waiting yet: it says so (the new account at R$ 0,00 aside, once the threshold counts it)', async () => {
    // The only account below the threshold is the new one: raise it, and nothing waits.
    await setBalance(h.sandbox, lowAccount, 5_000_000);
    const answer = await ask(VIEWER);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral' });
    const text = messageText(answer.body);
    expect(text).toContain('Nothing is waiting');
    expect(text).toContain('What waits for the team: nothing.');
    expect(h.slack.messages.filter((m) => m.metadata?.event_type === 'pix_digest')).toEqual([]);
  });

  test('every section, oldest first, with who asked, how long ago, who may decide, and money in R$', async () => {
    await seedApprovals(h.app.deps.store, 2);
    await seedRequestsInReview(h.app.deps.store, 2);
    await seedOpenDisputes(h.app.deps.store, 1);
    await setBalance(h.sandbox, lowAccount, 912_345);
    await setWithdrawBlocked(h.sandbox, h.sandbox.companies.main.defaultAccountId, true);
    const before = h.sandbox.calls.length;
    const answer = await ask(VIEWER);
    const text = messageText(answer.body);
    expect(text).toContain('*Approvals waiting* (2)');
    expect(text).toMatch(/\*Add a Pix key\*, asked by <@U0MAKER01> \d+ d ago · may decide: <@U0ADMIN01>, <@U0OPERATOR> · <#C0WAITING>/);
    expect(text).toContain('*Limit requests in review* (2)');
    expect(text).toContain(`\`${idOf('b', 0)}\` · account \`${idOf('c', 0)}\` · filed 13 d ago by <@${MAKER}>`);
    expect(text).toContain('*Open disputes* (1)');
    expect(text).toMatch(/`E0{31}` · R\$150\.00 · opened 20 d ago · <#C0WAITING>/);
    expect(text).toContain('*Accounts below R$10,000.00* (1), lowest first');
    expect(text).toContain(`\`${lowAccount}\` · available R$9,123.45`);
    expect(text).toContain('*Withdrawals blocked* (1)');
    expect(text).toContain(`\`${h.sandbox.companies.main.defaultAccountId}\``);
    expect(text).not.toContain('Nothing is waiting');
    // Oldest first: request 0 was filed before request 1.
    expect(text.indexOf(idOf('b', 0))).toBeLessThan(text.indexOf(idOf('b', 1)));
    // Its one Pix read: the account list.
    expect(h.sandbox.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/account']);
    await setWithdrawBlocked(h.sandbox, h.sandbox.companies.main.defaultAccountId, false);
  });

  test('in the caller’s language: pt-BR with R$ 9.123,45', async () => {
    h.slack.locales.set(ADMIN, 'pt-BR');
    const text = messageText((await ask(ADMIN)).body);
    expect(text).toContain('*Aprovações pendentes* (2)');
    expect(text).toContain('*Contas abaixo de R$ 10.000,00* (1), a mais baixa primeiro');
    expect(text).toContain('disponível R$ 9.123,45');
  });

  // Its deadline is a hang guard, not a speed check: seeding 2,700 records is as many sqlite commits,
  // which a busy disk takes minutes over.
  test('500 approvals, 2,000 requests in review, 200 disputes, 8 low accounts: the oldest five of each and "and N more", within Slack’s limits', async () => {
    const store = h.app.deps.store;
    await seedApprovals(store, 498, 2);
    await seedRequestsInReview(store, 1_998, 2);
    await seedOpenDisputes(store, 199, 1);
    for (let i = 0; i < 7; i++) await newAccount(h.sandbox);
    const answer = await ask(VIEWER);
    // The stand-in judged it as Slack does (it refuses what Slack would): and here is why it passed.
    expect(checkMessage(answer.body)).toEqual([]);
    const blocks = blocksOf(answer);
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const b of blocks) expect(textOf(b).length).toBeLessThanOrEqual(3_000);
    expect((answer.body as { text: string }).text.length).toBeLessThanOrEqual(4_000);
    expect(blocks.reduce((n, b) => n + textOf(b).length, 0)).toBeLessThan(12_000);
    const text = messageText(answer.body);
    expect(text).toContain('*Approvals waiting* (500)');
    expect(text).toContain('And 495 more: each waits in its thread');
    expect(text).toContain('*Limit requests in review* (2000)');
    expect(text).toContain('And 1995 more: `/pix limit list` lists every request');
    expect(text).toContain('*Open disputes* (200)');
    expect(text).toContain('And 195 more: the Home tab lists the open disputes');
    expect(text).toContain('*Accounts below R$10,000.00* (8)');
    expect(text).toContain('And 3 more: `/pix accounts` lists every account with its balance.');
    // The oldest five: requests 0 to 4, not the newest.
    for (let i = 0; i < 5; i++) expect(text).toContain(idOf('b', i));
    expect(text).not.toContain(idOf('b', 5));
    expect(text).not.toContain(idOf('b', 1_999));
    expect(text).toContain(
      'What waits for the team: 500 approval(s) waiting, 2000 limit request(s) in review, 200 open dispute(s), 8 account(s) below R$10,000.00.',
    );
  }, 240_000);

  test('a user without a role is refused, and nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(STRANGER, 'digest');
    const said = messageText(res.ack ?? (await waitFor('the refusal', () => h.slack.responsesTo(res.responseId)[0])).body);
    expect(said).toContain('You need the *viewer* role to use `/pix digest`');
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('bad input: anything after `digest` gets its usage line, and nothing is read', async () => {
    const before = h.sandbox.calls.length;
    const text = messageText((await ask(VIEWER, 'digest now please')).body);
    expect(text).toContain('/pix digest');
    expect(text).not.toContain('What waits');
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('the Pix API failing: the parts from the store are still there, and the accounts part says it could not be read', async () => {
    await failPixApi(h, 503, 50);
    const text = messageText((await ask(VIEWER)).body);
    expect(text).toContain('*Approvals waiting* (500)');
    expect(text).toContain('*Limit requests in review* (2000)');
    expect(text).toMatch(/:warning: .*list the accounts/);
    expect(text).toContain('some parts could not be read');
    expect(text).not.toContain('Accounts below');
    expect(text).not.toContain('Nothing is waiting');
  });
});
