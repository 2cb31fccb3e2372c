import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction } from '../support/interactions';
import { waitFor } from '../support/wait';

const VIEWER = 'U0STMTVW1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0STMT001';

type Message = { blocks?: Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }> };
const buttonsOf = (message: unknown) =>
  ((message as Message).blocks ?? [])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? [])
    .map(({ action_id, value }) => ({ action_id, value }));

let sandbox: SandboxHandle;

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}/sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as unknown;
}

describe('/pix statement and /pix transaction through the real app', () => {
  let h: Harness;
  let main: SandboxHandle['companies']['main'];
  let clicks = 0;
  let campaign: string;

  beforeAll(async () => {
    // A sandbox of our own, so that its MASTER AppID can be configured (PIX_MASTER_APP_ID).
    sandbox = await startSandbox({ port: 0 });
    main = sandbox.companies.main;
    h = await startHarness({
      ACCESS_VIEWERS: VIEWER,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: main.mainAppId,
      PIX_MASTER_APP_ID: main.masterAppId,
    });
    // A campaign account with a long statement: 40 credits of R$12.34.
    const res = await fetch(`${sandbox.url}/api/v1/account`, { method: 'POST', headers: { authorization: main.masterAppId } });
    campaign = ((await res.json()) as { account: { accountId: string } }).account.accountId;
    await control('POST', `/accounts/${campaign}/transactions`, { type: 'CREDIT', value: 1234, description: 'Campaign Pix', count: 40 });
  });
  afterAll(async () => {
    await h.close();
    await sandbox.close();
  });

  const answerTo = async (userId: string, text: string) => {
    const res = await h.slash(userId, text, { channelId: CHANNEL });
    if (res.ack && Object.keys(res.ack).length > 0) return res.ack;
    return (await waitFor(`the answer to ${text}`, () => h.slack.responsesTo(res.responseId)[0], 10_000)).body;
  };

  const click = async (userId: string, actionId: string, value: string) => {
    const responseId = `stmt-${++clicks}`;
    const res = await blockAction(h, { userId, actionId, value, channelId: CHANNEL, responseId, blockId: 'statement_nav' });
    expect(res.status).toBe(200);
    return (await waitFor(`the answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0], 10_000)).body;
  };

  test('the main account: entries with their amounts in R$ (cents), the arrow by type, balance, Brasília dates', async () => {
    const before = sandbox.calls.length;
    const answer = await answerTo(VIEWER, 'statement');
    const text = messageText(answer);
    expect(text).toContain('Statement of the main account');
    expect(text).toContain('entries 1–3 of 3');
    expect(text).toContain(':arrow_down_small: *R$10,000.00*');
    expect(text).toContain(':arrow_down_small: *R$7,000.00*');
    expect(text).toContain(':arrow_up_small: *R$2,000.00*');
    expect(text).toContain('balance R$15,000.00');
    expect(text).not.toContain('1500000');
    const statement = sandbox.calls.slice(before).find((c) => c.path === '/api/v1/statement')!;
    expect(statement.query).toEqual({});
    expect(statement.authorization).toBe(main.mainAppId);
    // The newest entry's time as people in Brazil read it.
    const entries = (await (
      await fetch(`${sandbox.url}/api/v1/statement`, { headers: { authorization: main.mainAppId } })
    ).json()) as Array<{ time: string; transactionId: string }>;
    const brasilia = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', dateStyle: 'medium', timeStyle: 'short' })
      .format(new Date(entries[0]!.time))
      .replace(/[\u00a0\u202f]/g, ' ');
    expect(text).toContain(brasilia);
    expect(buttonsOf(answer)).toEqual([]);
  });

  test('another account without MASTER_APP_READ_ANY_ACCOUNT: the API text and what is needed', async () => {
    const text = messageText(await answerTo(VIEWER, `statement ${campaign}`));
    expect(text).toContain('Application is not allowed to read another account');
    expect(text).toContain('MASTER_APP_READ_ANY_ACCOUNT');
  });

  test('another account, paged 15 at a time with Next / Previous, read with companyBankAccount', async () => {
    await control('POST', `/companies/${main.companyId}/features`, { feature: 'MASTER_APP_READ_ANY_ACCOUNT', enabled: true });
    const before = sandbox.calls.length;
    const first = await answerTo(VIEWER, `statement ${campaign}`);
    const call = sandbox.calls.slice(before).find((c) => c.path === '/api/v1/statement')!;
    expect(call.query).toEqual({ companyBankAccount: campaign });
    expect(call.authorization).toBe(main.masterAppId);
    expect(messageText(first)).toContain('entries 1–15 of 40 · page 1 of 3');
    expect(messageText(first)).toContain('*R$12.34*');
    expect(messageText(first)).toContain('Campaign Pix');
    expect((messageText(first).match(/Campaign Pix/g) ?? []).length).toBe(15);
    expect(buttonsOf(first)).toEqual([{ action_id: 'statement_next', value: JSON.stringify({ page: 2, accountId: campaign }) }]);

    const second = await click(VIEWER, 'statement_next', JSON.stringify({ page: 2, accountId: campaign }));
    expect(second).toMatchObject({ replace_original: true });
    expect(messageText(second)).toContain('entries 16–30 of 40 · page 2 of 3');
    expect(buttonsOf(second).map((b) => b.action_id)).toEqual(['statement_prev', 'statement_next']);

    const third = await click(VIEWER, 'statement_next', JSON.stringify({ page: 3, accountId: campaign }));
    expect(messageText(third)).toContain('entries 31–40 of 40 · page 3 of 3');
    expect(buttonsOf(third)).toEqual([{ action_id: 'statement_prev', value: JSON.stringify({ page: 2, accountId: campaign }) }]);
  });

  test('a transaction: its fields, its amount in R$, unknown → not found', async () => {
    const entries = (await (
      await fetch(`${sandbox.url}/api/v1/statement`, { headers: { authorization: main.mainAppId } })
    ).json()) as Array<{ transactionId: string }>;
    const id = entries[0]!.transactionId;
    const before = sandbox.calls.length;
    const text = messageText(await answerTo(VIEWER, `transaction ${id}`));
    expect(text).toContain(`Transaction* \`${id}\``);
    expect(text).toContain('*R$2,000.00*');
    expect(text).toContain('*value*\nR$2,000.00');
    expect(text).not.toContain('200000');
    expect(text).toContain('endToEndId');
    expect(sandbox.calls.slice(before).find((c) => c.path === `/api/v1/transaction/${id}`)!.query).toEqual({});

    const withAccount = messageText(await answerTo(VIEWER, `transaction ${id} ${main.defaultAccountId}`));
    expect(withAccount).toContain('*R$2,000.00*');
    expect(sandbox.calls.at(-1)!.query).toEqual({ companyBankAccount: main.defaultAccountId });

    const unknown = messageText(await answerTo(VIEWER, 'transaction ffffffffffffffffffffffff'));
    expect(unknown).toContain('not found');
    expect(unknown).toContain('Transaction not found');
  });

  test('bad input gets the usage line, and nothing reaches the Pix API', async () => {
    const before = sandbox.calls.length;
    expect(messageText(await answerTo(VIEWER, 'statement ../x'))).toContain('That is not an account id.');
    expect(messageText(await answerTo(VIEWER, 'transaction'))).toContain('Usage');
    expect(messageText(await answerTo(VIEWER, 'transaction a/b'))).toContain('That is not a transaction id.');
    expect(messageText(await answerTo(VIEWER, 'statement a b'))).toContain('Usage');
    expect(sandbox.calls.slice(before)).toEqual([]);
  });

  test('an unauthorized user is refused, for the commands and the buttons', async () => {
    const before = sandbox.calls.length;
    expect(messageText(await answerTo(STRANGER, 'statement'))).toMatch(/need the \*viewer\* role/);
    expect(messageText(await answerTo(STRANGER, `transaction ${main.defaultAccountId}`))).toMatch(/need the \*viewer\* role/);
    const refusal = await click(STRANGER, 'statement_next', JSON.stringify({ page: 2 }));
    expect(messageText(refusal)).toMatch(/need the \*viewer\* role/);
    expect(refusal).toMatchObject({ replace_original: false });
    expect(sandbox.calls.slice(before)).toEqual([]);
  });

  test('a button with a value that is not a page', async () => {
    const before = sandbox.calls.length;
    const answer = await click(VIEWER, 'statement_next', 'nonsense');
    expect(messageText(answer)).toContain('does not name a statement page');
    expect(sandbox.calls.slice(before)).toEqual([]);
  });

  test('the Pix API failing: the API text, for the command and for a page', async () => {
    await control('POST', '/faults', { fail: { status: 503, count: 20, pathPrefix: '/api/v1/statement' } });
    try {
      const text = messageText(await answerTo(VIEWER, 'statement'));
      expect(text).toContain('Could not read the statement');
      expect(text).toContain('Sandbox fault');
      const page = await click(VIEWER, 'statement_next', JSON.stringify({ page: 2, accountId: campaign }));
      expect(messageText(page)).toContain('Could not read the statement');
      expect(page).toMatchObject({ replace_original: false });
    } finally {
      await control('DELETE', '/faults');
    }
  });
});
