import { KeyChecks } from '../../src/payments/key-check';
import type { SandboxCall } from '../../src/sandbox';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { approvalRoots, clickRoot, pendingRoot } from '../support/approvals';
import { type Harness, messageText, startHarness } from '../support/harness';
import { sendInteraction, submittedView, viewSubmission } from '../support/slack-payloads';
import { deliveriesDone, waitFor } from '../support/wait';

// `/pix pay`: the form, what is refused before any Pix call, the key check once, and the approval it
// asks. The sandbox is the Pix API, its DICT seeded with one key of each type.

const OPERATOR = 'U0OPER001';
const CHECKER = 'U0CHECK01';
const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0FINANCE';
const MINUTE = 60_000;

/** Seeded in the sandbox's DICT (GET /sandbox/info), each at another bank. */
const SEEDED = {
  cpf: { key: '71460238001', name: 'Ana Beatriz Costa', taxId: '71460238001', bank: 'Nu Pagamentos S.A.' },
  email: {
    key: 'financeiro@graficarapida.com.br',
    name: 'Gráfica Rápida Impressões Ltda',
    taxId: '19031824000157',
    bank: 'Itaú Unibanco S.A.',
  },
  phone: { key: '+5531991234567', name: 'João Pedro Almeida', taxId: '39053344705', bank: 'Caixa Econômica Federal' },
  evp: { key: 'b2f6c1d4-8e3a-4f7b-9c5d-2a1e0f9b8c7d', name: 'Marina Oliveira Santos', taxId: '12345678909', bank: 'Banco Bradesco S.A.' },
};
/** Valid check digits, in no bank's DICT. */
const UNKNOWN_CPF = '52998224725';
const UNKNOWN_CNPJ = '11222333000181';

type Block = { type: string; block_id?: string; element?: Record<string, unknown>; optional?: boolean };
type View = { blocks: Block[]; private_metadata: string; callback_id: string; title: { text: string } };

const inputBlocks = (view: View) => view.blocks.filter((b) => b.type === 'input');
const keyChecks = (calls: SandboxCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys/check');
const tokenReads = (calls: SandboxCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/pix-keys/tokens');
const updatesOf = (h: Harness, from: number, viewId: string) =>
  h.slack.calls.slice(from).filter((c: SlackApiCall) => c.method === 'views.update' && c.args.view_id === viewId);

async function control(h: Harness, method: string, path: string, body?: unknown) {
  const res = await fetch(`${h.sandbox.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

/** Runs `/pix pay` and returns the form Slack was asked to show (the views.update after views.open). */
async function openPay(h: Harness, userId = OPERATOR, text = 'pay') {
  const before = h.slack.calls.length;
  const pixBefore = h.sandbox.calls.length;
  await h.slash(userId, text, { channelId: CHANNEL });
  const update = await waitFor('the payment form', () =>
    h.slack.calls.slice(before).find((c) => c.method === 'views.update' && inputBlocks(c.args.view as View).length > 0),
  );
  const open = h.slack.calls.slice(before).find((c) => c.method === 'views.open')!;
  return {
    open,
    update,
    view: update.args.view as View,
    viewId: String(update.args.view_id),
    pixCalls: () => h.sandbox.calls.slice(pixBefore),
  };
}

interface Typed {
  accountId?: string;
  key?: string;
  type?: string;
  value?: string;
  comment?: string;
}

/** The state Slack sends for the form. */
function values(view: View, input: Typed) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const b of inputBlocks(view)) {
    const el = b.element!;
    const actionId = String(el.action_id);
    const block = b.block_id!;
    if (block === 'sourceAccountId') {
      const initial = el.initial_option as { value: string };
      out[block] = { [actionId]: { type: el.type, selected_option: { value: input.accountId ?? initial.value } } };
    } else if (block === 'destinationAliasType') {
      out[block] = { [actionId]: { type: 'static_select', selected_option: input.type ? { value: input.type } : null } };
    } else {
      const text = { destinationAlias: input.key, value: input.value, comment: input.comment }[block];
      out[block] = { [actionId]: { type: 'plain_text_input', value: text ?? null } };
    }
  }
  return out;
}

async function submit(h: Harness, form: { view: View; viewId: string }, input: Typed, userId = OPERATOR) {
  return sendInteraction(h, viewSubmission(userId, submittedView(form.view as never, form.viewId, values(form.view, input))));
}

describe('/pix pay: the payment form, its key check, the approval it asks', () => {
  let h: Harness;
  let now: number;
  const companyId = () => h.sandbox.companies.main.companyId;
  /** Tokens as a test wants them, with no refill unless it asks for one. */
  const setTokens = (tokens: number, refreshRate = 0) =>
    control(h, 'POST', `/sandbox/companies/${companyId()}/lookup-tokens`, { tokens, maxTokens: 500, refreshRate });

  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`, ACCESS_VIEWERS: VIEWER });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    // A memory of checks and tokens of its own for each test, on a clock the test moves.
    now = Date.now();
    h.app.deps.keyChecks = new KeyChecks(() => now);
    await control(h, 'DELETE', '/sandbox/faults');
    await control(h, 'POST', `/sandbox/companies/${companyId()}/features`, { feature: 'CHECK_PIX_KEY', enabled: true });
    await setTokens(500);
  });

  test('opens at once, before any Pix call; then the accounts, each with its available balance, the default one chosen', async () => {
    const form = await openPay(h);
    expect(form.open.at).toBeLessThanOrEqual(form.pixCalls()[0]!.at);
    expect((form.open.args.view as View).callback_id).toBe('pix_pay');
    expect(inputBlocks(form.view).map((b) => [b.block_id, b.optional ?? false])).toEqual([
      ['sourceAccountId', false],
      ['destinationAlias', false],
      ['destinationAliasType', true],
      ['value', false],
      ['comment', true],
    ]);
    const account = inputBlocks(form.view)[0]!.element!;
    const options = account.options as Array<{ text: { text: string }; value: string }>;
    expect((account.initial_option as { value: string }).value).toBe(h.sandbox.companies.main.defaultAccountId);
    expect(options.every((o) => o.text.text.length <= 75)).toBe(true);
    expect(messageText(options)).toMatch(/available R\$[\d,]+\.\d{2}/);
    const types = inputBlocks(form.view)[2]!.element!.options as Array<{ value: string }>;
    expect(types.map((o) => o.value)).toEqual(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM']);
    expect((inputBlocks(form.view)[4]!.element as { max_length: number }).max_length).toBe(140);
    // Only the accounts were read: nothing about keys yet.
    expect(form.pixCalls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/account']);
  });

  test('the account given to the command is the one chosen', async () => {
    const res = await fetch(`${h.sandbox.url}/api/v1/account`, {
      method: 'POST',
      headers: { Authorization: h.sandbox.companies.main.masterAppId },
    });
    const { account } = (await res.json()) as { account: { accountId: string } };
    const form = await openPay(h, OPERATOR, `pay ${account.accountId}`);
    expect((inputBlocks(form.view)[0]!.element!.initial_option as { value: string }).value).toBe(account.accountId);
  });

  test('an account argument that is not an account id: the usage, nothing opened, no Pix call', async () => {
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    const res = await h.slash(OPERATOR, 'pay ../accounts', { channelId: CHANNEL });
    const text = messageText(res.ack ?? (await waitFor('the usage', () => h.slack.responsesTo(res.responseId)[0])));
    expect(text).toContain('/pix pay [accountId]');
    expect(h.slack.calls.slice(slackFrom).filter((c) => c.method === 'views.open')).toEqual([]);
    expect(h.sandbox.calls.slice(pixFrom)).toEqual([]);
  });

  test('not an operator: the command and the form are refused, nothing opened, nothing sent to the Pix API', async () => {
    for (const user of [VIEWER, STRANGER]) {
      const slackFrom = h.slack.calls.length;
      const pixFrom = h.sandbox.calls.length;
      const res = await h.slash(user, 'pay', { channelId: CHANNEL });
      await deliveriesDone(h.app, h.app.inFlight.total);
      const refusal = messageText(res.ack ?? (await waitFor('the refusal', () => h.slack.responsesTo(res.responseId)[0])));
      expect(refusal).toContain('operator');
      expect(h.slack.calls.slice(slackFrom).filter((c) => c.method === 'views.open')).toEqual([]);
      expect(h.sandbox.calls.slice(pixFrom)).toEqual([]);
    }
    // A form sent by someone who is not an operator (it was opened before their role changed).
    const form = await openPay(h);
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key: SEEDED.email.key, value: '10' }, VIEWER);
    expect(res.body).toMatchObject({ response_action: 'errors' });
    expect(messageText(res.body)).toContain('operator');
    expect(h.sandbox.calls.slice(pixFrom)).toEqual([]);
  });

  test.each([
    ['a CPF with wrong check digits', '52998224724', undefined, 'destinationAlias', 'check digits'],
    ['a CNPJ with wrong check digits', '11222333000182', undefined, 'destinationAlias', 'check digits'],
    ['an e-mail without a domain', 'fulano@', undefined, 'destinationAlias', 'e-mail'],
    ['a phone without +55', '(31) 99123-4567', undefined, 'destinationAlias', '+55'],
    ['a phone that is not a mobile', '+553133334444', undefined, 'destinationAlias', 'mobile'],
    ['a random key that is not a UUID', 'b2f6c1d4-8e3a-4f7b-9c5d', 'RANDOM', 'destinationAlias', 'UUID'],
    ['a CPF sent as an e-mail', SEEDED.cpf.key, 'EMAIL', 'destinationAlias', 'e-mail'],
    ['a key of no form', 'pix-me', undefined, 'destinationAliasType', 'type'],
    ['eleven digits that may be a CPF or a phone', '11987654374', undefined, 'destinationAliasType', 'CPF or a phone'],
  ])('%s never reaches the Pix API: refused inline', async (_what, key, type, block, words) => {
    const form = await openPay(h);
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key, ...(type ? { type } : {}), value: '10,00' });
    expect(res.body).toMatchObject({ response_action: 'errors' });
    const errors = (res.body as { errors: Record<string, string> }).errors;
    expect(Object.keys(errors)).toEqual([block]);
    expect(errors[block]).toContain(words);
    expect(h.sandbox.calls.slice(pixFrom)).toEqual([]);
  });

  test('amount and comment: refused inline, each on its input, before any Pix call', async () => {
    const form = await openPay(h);
    const pixFrom = h.sandbox.calls.length;
    for (const [value, words] of [
      ['0', 'above zero'],
      ['0,00', 'above zero'],
      ['-5', 'negative'],
      ['ten', 'Not an amount'],
      ['10.999', 'Ambiguous'],
      ['', 'Enter an amount'],
    ]) {
      const res = await submit(h, form, { key: SEEDED.email.key, value });
      expect((res.body as { errors: Record<string, string> }).errors).toEqual({ value: expect.stringContaining(words!) });
    }
    const res = await submit(h, form, { key: SEEDED.email.key, value: '10', comment: 'x'.repeat(141) });
    expect((res.body as { errors: Record<string, string> }).errors).toEqual({ comment: expect.stringContaining('140') });
    expect(h.sandbox.calls.slice(pixFrom)).toEqual([]);
  });

  test('found: the key checked once, then the approval asked with the holder, the check’s id, never the payment', async () => {
    const form = await openPay(h);
    const pixFrom = h.sandbox.calls.length;
    const slackFrom = h.slack.calls.length;
    const res = await submit(h, form, { key: 'Financeiro@GraficaRapida.com.br', value: '1.234,56', comment: 'Nota 981' });
    expect(res.body).toMatchObject({ response_action: 'update' });
    const root = await pendingRoot(h, slackFrom);
    expect(root.channel).toBe(CHANNEL);
    const record = await h.app.deps.store.approvals.get(root.id);
    expect(record?.payload).toEqual({
      action: 'pay',
      sourceAccountId: h.sandbox.companies.main.defaultAccountId,
      value: 123456,
      destinationAlias: SEEDED.email.key,
      destinationAliasType: 'EMAIL',
      comment: 'Nota 981',
      pixKeyEndToEndId: expect.any(String),
      receiver: { verified: true, name: SEEDED.email.name, taxId: SEEDED.email.taxId, bank: SEEDED.email.bank },
    });
    const calls = h.sandbox.calls.slice(pixFrom);
    expect(keyChecks(calls).map((c) => c.body)).toEqual([{ pixKey: SEEDED.email.key }]);
    expect(keyChecks(calls)[0]!.authorization).toBe(h.sandbox.companies.main.mainAppId);
    // Tokens read before the look-up; nothing sent to the payment endpoints.
    expect(tokenReads(calls)[0]!.at).toBeLessThanOrEqual(keyChecks(calls)[0]!.at);
    expect(calls.filter((c) => c.path.startsWith('/api/v1/payment'))).toEqual([]);
    const told = await waitFor('the modal’s answer', () =>
      updatesOf(h, slackFrom, form.viewId).find((c) => messageText(c.args.view).includes('waiting for approval')),
    );
    expect(messageText(told.args.view)).toContain(`<#${CHANNEL}>`);
  });

  test('approved by another operator: the payment carries the check’s id, so the key is not looked up again', async () => {
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    await submit(h, form, { key: SEEDED.phone.key, value: '3,21' });
    const root = await pendingRoot(h, slackFrom);
    const check = keyChecks(h.sandbox.calls.slice(pixFrom))[0]!;
    const checkedId = (await h.app.deps.store.approvals.get(root.id))?.payload as { pixKeyEndToEndId?: string };
    expect(checkedId.pixKeyEndToEndId).toEqual(expect.any(String));
    await clickRoot(h, CHECKER, root, 'approval_approve');
    const created = await waitFor('the payment created', () =>
      h.sandbox.calls.slice(pixFrom).find((c) => c.method === 'POST' && c.path === '/api/v1/payment'),
    );
    expect(created.at).toBeGreaterThan(check.at);
    expect(created.body).toMatchObject({
      type: 'PIX_KEY',
      value: 321,
      destinationAlias: SEEDED.phone.key,
      destinationAliasType: 'PHONE',
      correlationID: root.id,
      pixKeyEndToEndId: checkedId.pixKeyEndToEndId,
    });
    expect(created.body).not.toHaveProperty('autoApprove');
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
  });

  test('the same form sent twice (a double click): one approval, one check', async () => {
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    const [a, b] = await Promise.all([
      submit(h, form, { key: SEEDED.cpf.key, value: '99' }),
      submit(h, form, { key: SEEDED.cpf.key, value: '99' }),
    ]);
    expect([a.body, b.body]).toEqual([
      expect.objectContaining({ response_action: 'update' }),
      expect.objectContaining({ response_action: 'update' }),
    ]);
    await pendingRoot(h, slackFrom);
    await deliveriesDone(h.app, h.app.inFlight.total);
    expect(approvalRoots(h, slackFrom)).toHaveLength(1);
    expect(messageText([a.body, b.body])).toContain('already');
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
  });

  test('the check is in the audit trail with the holder masked (a CPF never whole)', async () => {
    // The earlier tests' checks are in the same trail: only this one's entries are read.
    const since = new Date();
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    await submit(h, form, { key: SEEDED.cpf.key, value: '50' });
    await pendingRoot(h, slackFrom);
    const entries = await waitFor('the check’s entry', async () => {
      const all = await h.app.deps.store.audit.page({ since, limit: 1_000 });
      return all.some((e) => e.detail?.startsWith('checked:')) ? all : undefined;
    });
    const checked = entries.filter((e) => e.detail?.startsWith('checked:'));
    expect(checked).toEqual([
      expect.objectContaining({
        user: OPERATOR,
        outcome: 'ok',
        detail: 'checked: found, holder ***.602.380-**',
        target: expect.stringContaining('key:***01'),
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(SEEDED.cpf.key);
  });

  test('403 (the company has no key check): asked all the same, the receiver not verified', async () => {
    await control(h, 'POST', `/sandbox/companies/${companyId()}/features`, { feature: 'CHECK_PIX_KEY', enabled: false });
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key: SEEDED.phone.key, value: '25' });
    expect(res.body).toMatchObject({ response_action: 'update' });
    const root = await pendingRoot(h, slackFrom);
    const record = await h.app.deps.store.approvals.get(root.id);
    expect(record?.payload).toMatchObject({
      action: 'pay',
      destinationAlias: SEEDED.phone.key,
      destinationAliasType: 'PHONE',
      receiver: { verified: false },
    });
    expect(record?.payload).not.toHaveProperty('pixKeyEndToEndId');
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
  });

  test('404: "registered at no bank" inline, nothing posted; the same key again within 5 minutes is not looked up', async () => {
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    for (let i = 0; i < 2; i++) {
      const res = await submit(h, form, { key: UNKNOWN_CPF, value: '10' });
      expect(res.body).toMatchObject({ response_action: 'errors', errors: { destinationAlias: expect.stringContaining('no bank') } });
    }
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
    expect(approvalRoots(h, slackFrom)).toEqual([]);
    expect(h.slack.calls.slice(slackFrom).filter((c) => c.method === 'chat.postMessage')).toEqual([]);
  });

  test('429 from the service: the tokens message inline, and no look-up until the tokens are read again', async () => {
    await control(h, 'POST', '/sandbox/dict/too-many-requests', { count: 1 });
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key: UNKNOWN_CNPJ, value: '10' });
    expect(res.body).toMatchObject({ response_action: 'errors', errors: { destinationAlias: expect.stringContaining('look-ups') } });
    // Another key within the minute: no look-up at all.
    const again = await submit(h, form, { key: SEEDED.evp.key, value: '10' });
    expect(again.body).toMatchObject({ response_action: 'errors', errors: { destinationAlias: expect.stringContaining('look-ups') } });
    const calls = h.sandbox.calls.slice(pixFrom);
    expect(keyChecks(calls)).toHaveLength(1); // sent once, never again on its own
    expect(tokenReads(calls)).toHaveLength(1);
    expect(approvalRoots(h, slackFrom)).toEqual([]);
  });

  test('tokens under 40: no look-up, inline error with when they are enough again; at 40 the key is checked', async () => {
    await setTokens(39, 20);
    const form = await openPay(h);
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key: SEEDED.cpf.key, value: '10' });
    const text = (res.body as { errors?: Record<string, string> }).errors?.destinationAlias ?? '';
    expect(text).toContain('look-ups');
    expect(text).toMatch(/from [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \(Brasília time\)/);
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toEqual([]);

    await setTokens(40);
    now += MINUTE; // the tokens read again
    const slackFrom = h.slack.calls.length;
    const ok = await submit(h, form, { key: SEEDED.cpf.key, value: '10' });
    expect(ok.body).toMatchObject({ response_action: 'update' });
    await pendingRoot(h, slackFrom);
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
  });

  test('the same key within 5 minutes is checked once; the tokens are read at most once a minute', async () => {
    const form = await openPay(h);
    const pixFrom = h.sandbox.calls.length;
    const slackFrom = h.slack.calls.length;
    await submit(h, form, { key: SEEDED.evp.key, type: 'RANDOM', value: '10' });
    await submit(h, await openPay(h), { key: SEEDED.evp.key.toUpperCase(), value: '11' });
    now += 4 * MINUTE + 59_000;
    await submit(h, await openPay(h), { key: SEEDED.evp.key, value: '12' });
    await waitFor('three roots', () => approvalRoots(h, slackFrom).length === 3);
    let calls = h.sandbox.calls.slice(pixFrom);
    expect(keyChecks(calls)).toHaveLength(1);
    // A new key after the minute: the tokens read again, once.
    await submit(h, await openPay(h), { key: SEEDED.phone.key, value: '13' });
    now += 2_000; // past the five minutes of the first check
    await submit(h, await openPay(h), { key: SEEDED.evp.key, value: '14' });
    await waitFor('five roots', () => approvalRoots(h, slackFrom).length === 5);
    calls = h.sandbox.calls.slice(pixFrom);
    expect(keyChecks(calls).map((c) => (c.body as { pixKey: string }).pixKey)).toEqual([SEEDED.evp.key, SEEDED.phone.key, SEEDED.evp.key]);
    expect(tokenReads(calls)).toHaveLength(2);
  });

  test('the Pix API failing on the check: a clear inline error, nothing posted, the check never sent again', async () => {
    await control(h, 'POST', '/sandbox/faults', { fail: { count: 3, method: 'POST', pathPrefix: '/api/v1/pix-keys/check', status: 503 } });
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key: SEEDED.email.key, value: '10' });
    expect(res.body).toMatchObject({
      response_action: 'errors',
      errors: { destinationAlias: expect.stringContaining('Could not check the Pix key') },
    });
    expect((res.body as { errors: Record<string, string> }).errors.destinationAlias).toContain('Nothing was posted');
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
    expect(approvalRoots(h, slackFrom)).toEqual([]);
  });

  test('a check slower than the answer’s budget: the modal says so, then the approval is asked', async () => {
    await control(h, 'POST', '/sandbox/faults', {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: '/api/v1/pix-keys/check', ms: 2_400 },
    });
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const res = await submit(h, form, { key: SEEDED.phone.key, value: '10' });
    expect(res.body).toMatchObject({ response_action: 'update' });
    expect(messageText(res.body)).toContain('Checking the key');
    await pendingRoot(h, slackFrom);
    await waitFor('the modal’s answer', () =>
      updatesOf(h, slackFrom, form.viewId).find((c) => messageText(c.args.view).includes('waiting for approval')),
    );
  });

  test('a check that times out after the modal was closed: the problem in a direct message; nothing posted in the channel', async () => {
    await control(h, 'POST', '/sandbox/faults', {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: '/api/v1/pix-keys/check', ms: 4_000 },
    });
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    // Closed by the user: Slack answers an update of it with not_found.
    h.slack.on('views.update', (args) =>
      args.view_id === form.viewId ? { ok: false, error: 'not_found' } : h.slack.answerByDefault('views.update', args),
    );
    try {
      const res = await submit(h, form, { key: SEEDED.email.key, value: '5' });
      expect(res.body).toMatchObject({ response_action: 'update' });
      const dm = await waitFor(
        'the direct message',
        () => h.slack.calls.slice(slackFrom).find((c) => c.method === 'chat.postMessage' && String(c.args.channel).startsWith('D')),
        10_000,
      );
      expect(messageText(dm.args)).toContain('could not be reached');
      expect(messageText(dm.args)).toContain('Nothing was posted');
      expect(approvalRoots(h, slackFrom)).toEqual([]);
      expect(h.slack.calls.slice(slackFrom).filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL)).toEqual([]);
    } finally {
      h.slack.off('views.update');
    }
  });

  test('a check that times out after the answer: the form again, as typed, with the problem on top; nothing posted', async () => {
    // Past PIX_TIMEOUT_MS (3 s in the harness): the client gives up, and does not send it again.
    await control(h, 'POST', '/sandbox/faults', {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: '/api/v1/pix-keys/check', ms: 4_000 },
    });
    const form = await openPay(h);
    const slackFrom = h.slack.calls.length;
    const pixFrom = h.sandbox.calls.length;
    const res = await submit(h, form, { key: SEEDED.cpf.key, value: '77,70', comment: 'aluguel' });
    expect(res.body).toMatchObject({ response_action: 'update' });
    const again = await waitFor(
      'the form again',
      () => updatesOf(h, slackFrom, form.viewId).find((c) => inputBlocks(c.args.view as View).length > 0),
      10_000,
    );
    const view = again.args.view as View;
    expect(messageText(view.blocks[0])).toContain('could not be reached');
    expect(messageText(view.blocks[0])).toContain('Nothing was posted');
    const typed = Object.fromEntries(inputBlocks(view).map((b) => [b.block_id, b.element?.initial_value]));
    expect(typed).toMatchObject({ destinationAlias: SEEDED.cpf.key, value: '77,70', comment: 'aluguel' });
    expect(keyChecks(h.sandbox.calls.slice(pixFrom))).toHaveLength(1);
    expect(approvalRoots(h, slackFrom)).toEqual([]);
  });
});
