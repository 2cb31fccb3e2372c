import { createHash } from 'node:crypto';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { messageShortcut, sendInteraction, submittedView, viewBlockAction, viewSubmission } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';
const VIEWER = 'U0VIEWER1';
const CHANNEL = 'C0FINANCE';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64),
]);

type View = {
  blocks: Array<{ type: string; block_id?: string; element?: Record<string, unknown> }>;
  private_metadata: string;
  callback_id: string;
};

let fileCounter = 0;
function addFile(h: Harness, name: string, bytes: Buffer, mimetype = 'application/pdf') {
  return h.slack.fileObject(h.slack.addFile({ id: `F${++fileCounter}TEST`, name, mimetype, bytes }).id);
}

const inputBlocks = (view: View) => view.blocks.filter((b) => b.type === 'input');

/** Runs `/pix limit request` and returns the form Slack was asked to show (the views.update after views.open). */
async function openForm(h: Harness, userId = OPERATOR, text = 'limit request') {
  const before = h.slack.calls.length;
  const pixBefore = h.sandbox.calls.length;
  await h.slash(userId, text, { channelId: CHANNEL });
  const update = await waitFor('the form', () =>
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

/** The state Slack would send for the form: initial values unless overridden. */
function values(view: View, input: { amounts?: Record<string, string>; files?: unknown[]; accountId?: string } = {}) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const b of inputBlocks(view)) {
    const el = b.element!;
    const actionId = String(el.action_id);
    if (el.type === 'static_select') {
      const initial = el.initial_option as { value: string };
      out[b.block_id!] = { [actionId]: { type: 'static_select', selected_option: { value: input.accountId ?? initial.value } } };
    } else if (el.type === 'file_input') {
      out[b.block_id!] = { [actionId]: { type: 'file_input', files: input.files ?? [] } };
    } else {
      const value = input.amounts?.[b.block_id!] ?? (el.initial_value as string | undefined) ?? null;
      out[b.block_id!] = { [actionId]: { type: 'plain_text_input', value } };
    }
  }
  return out;
}

async function submit(h: Harness, form: { view: View; viewId: string }, input: Parameters<typeof values>[1], userId = OPERATOR) {
  return sendInteraction(h, viewSubmission(userId, submittedView(form.view as never, form.viewId, values(form.view, input))));
}

async function readLimits(h: Harness, accountId: string) {
  const res = await fetch(`${h.sandbox.url}/api/v1/limits/${accountId}`, {
    headers: { Authorization: h.sandbox.companies.main.mainAppId },
  });
  return ((await res.json()) as { limits: Record<string, number> }).limits;
}

async function newAccount(h: Harness): Promise<string> {
  const res = await fetch(`${h.sandbox.url}/api/v1/account`, {
    method: 'POST',
    headers: { Authorization: h.sandbox.companies.main.masterAppId },
  });
  return ((await res.json()) as { account: { accountId: string } }).account.accountId;
}

const posted = (h: Harness, from: number) => h.slack.calls.slice(from).filter((c) => c.method === 'chat.postMessage');
const modalUpdates = (h: Harness, from: number, viewId: string) =>
  h.slack.calls
    .slice(from)
    .filter((c: SlackApiCall) => c.method === 'views.update' && c.args.view_id === viewId)
    .map((c) => messageText(c.args.view));

describe('/pix limit request: the modal, filing, the thread root', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
  });
  afterAll(() => h.close());

  test('opens at once, then fills one amount input per requestable field, named after it', async () => {
    const accountId = h.sandbox.companies.main.defaultAccountId;
    const form = await openForm(h);
    const firstPixCall = form.pixCalls()[0]!;
    expect(form.open.at).toBeLessThanOrEqual(firstPixCall.at); // views.open before any Pix API call
    expect(form.open.args.trigger_id).toMatch(/^trigger-/);

    const limits = await readLimits(h, accountId);
    const ids = inputBlocks(form.view).map((b) => b.block_id);
    const ownership = Object.keys(limits).filter((k) => /^pix(Out|In)/.test(k));
    expect(ids).toEqual([
      'companyBankAccountId',
      'pixDayLimit',
      'pixNightLimit',
      ...ownership,
      'documents',
      'description',
      'limitRequestReason',
    ]);
    const day = inputBlocks(form.view).find((b) => b.block_id === 'pixDayLimit')!;
    // The current value, as an English reader types amounts (`5000.00`; `5000,00` reads the same).
    expect(day.element!.initial_value).toBe(`${limits.pixDayLimit! / 100}.00`);
    const account = inputBlocks(form.view)[0]!.element!;
    expect((account.initial_option as { value: string }).value).toBe(accountId);
    const files = inputBlocks(form.view).find((b) => b.block_id === 'documents')!.element!;
    expect(files).toMatchObject({ type: 'file_input', max_files: 10, filetypes: ['pdf', 'png', 'jpg', 'jpeg', 'webp'] });
    // Not limits: shown, never offered.
    expect(ids).not.toContain('dayStartAt');
    expect(ids).not.toContain('boletoEmissionLimit');
    expect(messageText(form.view)).toContain('boletoEmissionLimit 200');
  });

  test('happy path: proof uploaded first, then the request in exact cents, the root posted and tracked', async () => {
    const accountId = h.sandbox.companies.main.defaultAccountId;
    const limits = await readLimits(h, accountId);
    const proof = addFile(h, 'bank-statement.pdf', PDF);
    const form = await openForm(h);
    const slackBefore = h.slack.calls.length;
    const res = await submit(h, form, { amounts: { pixDayLimit: '6.234,56', pixNightLimit: '1000.07' }, files: [proof] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ response_action: 'update' });
    expect(messageText(res.body)).toContain('Uploading proof 1 of 1');

    const root = await waitFor('the thread root', () => posted(h, slackBefore)[0]);
    const calls = form.pixCalls();
    const upload = calls.findIndex((c) => c.method === 'POST' && c.path === '/api/v1/files');
    const file = calls.findIndex((c) => c.method === 'POST' && c.path === '/api/v1/limits/request');
    expect(upload).toBeGreaterThanOrEqual(0);
    expect(file).toBeGreaterThan(upload);
    expect(calls[upload]!.body).toMatchObject({
      purpose: 'ACCOUNT_LIMIT_REQUEST',
      fileName: 'bank-statement.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    const body = calls[file]!.body as Record<string, unknown>;
    expect(body.companyBankAccountId).toBe(accountId);
    expect(body.pixDayLimit).toBe(623456);
    expect(body.pixNightLimit).toBe(100007);
    expect(Object.keys(body).filter((k) => /^pix(Out|In)/.test(k))).toEqual([]); // unchanged ownership fields are not sent
    expect((body.documents as Array<{ fileId: string }>).length).toBe(1);

    // The bytes that reached the Pix API are the proof's bytes.
    const fileId = (body.documents as Array<{ fileId: string }>)[0]!.fileId;
    const stored = (await (await fetch(`${h.sandbox.url}/sandbox/files/${fileId}`)).json()) as { file: { sha256: string } };
    expect(stored.file.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));

    expect(root.args.channel).toBe(CHANNEL);
    expect(root.args.metadata).toMatchObject({ event_type: 'pix_limit_request' });
    const rootText = messageText(root.args);
    const requestId = (root.args.metadata as { event_payload: { limit_request_id: string } }).event_payload.limit_request_id;
    expect(rootText).toContain(requestId);
    expect(rootText).toContain(accountId);
    expect(rootText).toContain(`R$${(limits.pixDayLimit! / 100).toLocaleString('en-US')}.00 → *R$6,234.56*`);
    expect(rootText).toContain('R$1,000.07');
    expect(rootText).toContain('bank-statement.pdf');
    expect(rootText).toContain(`<@${OPERATOR}>`);
    expect(rootText).toContain('In review');

    // The record is written before the id joins the poll set: wait for both.
    const repo = h.app.deps.store.trackedRequests;
    const tracked = await waitFor('tracking', async () => ((await repo.openIds()).includes(requestId) ? repo.get(requestId) : undefined));
    expect(tracked).toMatchObject({
      channel: CHANNEL,
      rootTs: root.args.ts ?? tracked.rootTs,
      requested: { pixDayLimit: 623456, pixNightLimit: 100007 },
      closed: false,
    });
    expect(await repo.openIds()).toContain(requestId);
    const shown = await waitFor('the result in the modal', () =>
      modalUpdates(h, slackBefore, form.viewId).find((t) => t.includes('filed and in review')),
    );
    expect(shown).toContain(requestId);
  });

  test('409: a second request for the same account gets the API text in the modal and posts nothing', async () => {
    const proof = addFile(h, 'proof.pdf', PDF);
    const form = await openForm(h);
    const slackBefore = h.slack.calls.length;
    const res = await submit(h, form, { amounts: { pixDayLimit: '99.999,00' }, files: [proof] });
    expect(res.body).toMatchObject({ response_action: 'update' });
    const text = await waitFor('the error in the modal', () =>
      modalUpdates(h, slackBefore, form.viewId).find((t) => t.includes('already in review')),
    );
    expect(text).toContain('Limit request already in review');
    expect(text).toContain('No request message was posted');
    expect(posted(h, slackBefore)).toEqual([]);
  });

  describe('checked inline before anything is sent', () => {
    let form: Awaited<ReturnType<typeof openForm>>;
    let account: string;
    beforeAll(async () => {
      account = await newAccount(h);
      form = await openForm(h, OPERATOR, `limit request ${account}`);
    });

    const expectErrors = async (input: Parameters<typeof values>[1], expected: Record<string, RegExp>) => {
      const before = h.sandbox.calls.length;
      const slackBefore = h.slack.calls.length;
      const res = await submit(h, form, input);
      expect(res.body?.response_action).toBe('errors');
      const errors = res.body!.errors as Record<string, string>;
      expect(Object.keys(errors).sort()).toEqual(Object.keys(expected).sort());
      for (const [block, pattern] of Object.entries(expected)) expect(errors[block]).toMatch(pattern);
      expect(h.sandbox.calls.slice(before)).toEqual([]);
      expect(
        h.slack.calls.slice(slackBefore).filter((c) => c.method === 'chat.postMessage' || (c.method === 'file.download' && !c.args.range)),
      ).toEqual([]);
    };
    const pdf = () => addFile(h, 'ok.pdf', PDF);

    test.each([
      ['not a number', 'abc', /Not an amount/],
      ['negative', '-10,00', /cannot be negative/],
      ['more than two decimals', '6.000,123', /two decimals/],
      ['too large', '999999999999999999', /too large/],
      ['exponent', '1e9', /Not an amount/],
      ['below the current value', '1,00', /Below the current limit of R\$5,000\.00/],
    ])('an amount that is %s', async (_, text, pattern) => {
      await expectErrors({ amounts: { pixDayLimit: text }, files: [pdf()] }, { pixDayLimit: pattern });
    });

    test('no amount above the current value', async () => {
      await expectErrors({ files: [pdf()] }, { pixDayLimit: /At least one limit must be above/ });
    });

    test('a required amount left empty', async () => {
      await expectErrors({ amounts: { pixNightLimit: '', pixDayLimit: '9.000,00' }, files: [pdf()] }, { pixNightLimit: /Enter an amount/ });
    });

    test('no document, and more than 10', async () => {
      await expectErrors({ amounts: { pixDayLimit: '9.000,00' }, files: [] }, { documents: /at least one proof/ });
      const eleven = Array.from({ length: 11 }, () => pdf());
      await expectErrors({ amounts: { pixDayLimit: '9.000,00' }, files: eleven }, { documents: /At most 10 files/ });
    });

    test('a file with a PDF name and PNG bytes, and one that is not an accepted type at all', async () => {
      const fake = addFile(h, 'statement.pdf', PNG);
      // PNG is accepted, but only as what it is: a .pdf name does not make it one. Send a text file with a PDF name too.
      const text = addFile(h, 'invoice.pdf', Buffer.from('just some text, not a PDF at all'));
      await expectErrors(
        { amounts: { pixDayLimit: '9.000,00' }, files: [text] },
        { documents: /“invoice\.pdf” is not a PDF, PNG, JPEG or WebP/ },
      );
      expect(fake.name).toBe('statement.pdf');
    });

    test('an 11 MiB file is refused from its metadata, without downloading it', async () => {
      const big = addFile(h, 'huge.pdf', Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]));
      const before = h.slack.calls.length;
      await expectErrors({ amounts: { pixDayLimit: '9.000,00' }, files: [big] }, { documents: /“huge\.pdf” is 11\.0 MiB/ });
      expect(h.slack.calls.slice(before).filter((c) => c.method === 'file.download')).toEqual([]);
    });
  });

  test('choosing another account re-reads its limits', async () => {
    const other = await newAccount(h);
    const form = await openForm(h);
    const before = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const view = submittedView(form.view as never, form.viewId, values(form.view));
    const res = await sendInteraction(
      h,
      viewBlockAction(OPERATOR, view, {
        type: 'static_select',
        action_id: 'limit_request_account',
        block_id: 'companyBankAccountId',
        selected_option: { value: other },
      }),
    );
    expect(res.status).toBe(200);
    const update = await waitFor('the rebuilt form', () => h.slack.calls.slice(slackBefore).find((c) => c.method === 'views.update'));
    expect(update.args.view_id).toBe(form.viewId);
    expect(h.sandbox.calls.slice(before).map((c) => c.path)).toContain(`/api/v1/limits/${other}`);
    const account = inputBlocks(update.args.view as View)[0]!.element!;
    expect((account.initial_option as { value: string }).value).toBe(other);
    expect(JSON.parse((update.args.view as View).private_metadata).accountId).toBe(other);
  });

  test('the message shortcut opens the form with the message’s files, and files them without re-upload by the user', async () => {
    const account = await newAccount(h);
    const proof = addFile(h, 'shared-proof.pdf', PDF);
    const before = h.slack.calls.length;
    const pixBefore = h.sandbox.calls.length;
    await sendInteraction(
      h,
      messageShortcut(h, OPERATOR, { callbackId: 'limit_request_with_files', channelId: CHANNEL, files: [proof], responseId: 'sc1' }),
    );
    const update = await waitFor('the form', () =>
      h.slack.calls.slice(before).find((c) => c.method === 'views.update' && inputBlocks(c.args.view as View).length > 0),
    );
    const view = update.args.view as View;
    expect(messageText(view)).toContain('shared-proof.pdf');
    const form = { view, viewId: String(update.args.view_id) };
    const slackBefore = h.slack.calls.length;
    const res = await submit(h, form, { accountId: account, amounts: { pixNightLimit: '2.000,00' }, files: [] });
    expect(res.body).toMatchObject({ response_action: 'update' });
    const root = await waitFor('the thread root', () => posted(h, slackBefore)[0]);
    expect(messageText(root.args)).toContain('shared-proof.pdf');
    const request = h.sandbox.calls.slice(pixBefore).find((c) => c.path === '/api/v1/limits/request')!;
    expect(request.body).toMatchObject({ companyBankAccountId: account, pixNightLimit: 200000 });
  });

  test('the shortcut on a message without files says so', async () => {
    await sendInteraction(
      h,
      messageShortcut(h, OPERATOR, { callbackId: 'limit_request_with_files', channelId: CHANNEL, responseId: 'sc-empty' }),
    );
    const [answer] = await waitFor('the answer', () => {
      const r = h.slack.responsesTo('sc-empty');
      return r.length ? r : undefined;
    });
    expect(messageText(answer!.body)).toContain('has no files');
  });

  test('when the bot cannot post in the channel, the root goes to the requester in a DM', async () => {
    const account = await newAccount(h);
    h.slack.closedChannels.add(CHANNEL);
    try {
      const form = await openForm(h, OPERATOR, `limit request ${account}`);
      const slackBefore = h.slack.calls.length;
      await submit(h, form, { amounts: { pixDayLimit: '7.000,00' }, files: [addFile(h, 'p.pdf', PDF)] });
      await waitFor('the DM root', () => posted(h, slackBefore).find((c) => String(c.args.channel).startsWith('D')));
      expect(h.slack.calls.slice(slackBefore).find((c) => c.method === 'conversations.open')?.args.users).toBe(OPERATOR);
    } finally {
      h.slack.closedChannels.delete(CHANNEL);
    }
  });

  test('the Pix API failing while the form opens: the modal says so', async () => {
    await fetch(`${h.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail: { status: 503, count: 20 } }),
    });
    try {
      const before = h.slack.calls.length;
      await h.slash(OPERATOR, 'limit request', { channelId: CHANNEL });
      const open = await waitFor('the modal', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
      const viewId = (open.response as { view: { id: string } }).view.id;
      const update = await waitFor(
        'the error view',
        () => h.slack.calls.slice(before).find((c) => c.method === 'views.update' && c.args.view_id === viewId),
        15_000,
      );
      expect(messageText(update.args.view)).toContain('Could not read the account’s limits');
    } finally {
      await fetch(`${h.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
  });

  describe('unauthorized users', () => {
    test('at the command: refused, no modal, nothing reaches the Pix API', async () => {
      const before = h.sandbox.calls.length;
      const slackBefore = h.slack.calls.length;
      const res = await h.slash(VIEWER, 'limit request');
      expect(messageText(res.ack)).toContain('*operator* role');
      await h.slash(VIEWER, 'help');
      expect(h.slack.calls.slice(slackBefore).filter((c) => c.method.startsWith('views.'))).toEqual([]);
      expect(h.sandbox.calls.slice(before)).toEqual([]);
    });

    test('at the submission: an inline refusal, nothing uploaded or filed', async () => {
      const form = await openForm(h);
      const before = h.sandbox.calls.length;
      const res = await submit(h, form, { amounts: { pixDayLimit: '9.000,00' }, files: [addFile(h, 'x.pdf', PDF)] }, VIEWER);
      expect(res.body?.response_action).toBe('errors');
      expect((res.body!.errors as Record<string, string>).companyBankAccountId).toMatch(/operator role/);
      expect(h.sandbox.calls.slice(before)).toEqual([]);
    });

    test('at the account select: the modal shows the refusal, no Pix call', async () => {
      const form = await openForm(h);
      const before = h.sandbox.calls.length;
      const slackBefore = h.slack.calls.length;
      const view = submittedView(form.view as never, form.viewId, values(form.view));
      await sendInteraction(
        h,
        viewBlockAction(VIEWER, view, {
          type: 'static_select',
          action_id: 'limit_request_account',
          block_id: 'companyBankAccountId',
          selected_option: { value: 'x' },
        }),
      );
      const update = await waitFor('the refusal', () => h.slack.calls.slice(slackBefore).find((c) => c.method === 'views.update'));
      expect(messageText(update.args.view)).toContain('operator* role');
      expect(h.sandbox.calls.slice(before)).toEqual([]);
    });

    test('at the shortcut: refused ephemerally', async () => {
      const before = h.sandbox.calls.length;
      await sendInteraction(
        h,
        messageShortcut(h, VIEWER, {
          callbackId: 'limit_request_with_files',
          channelId: CHANNEL,
          files: [addFile(h, 'y.pdf', PDF)],
          responseId: 'sc-refused',
        }),
      );
      const [answer] = await waitFor('the refusal', () => {
        const r = h.slack.responsesTo('sc-refused');
        return r.length ? r : undefined;
      });
      expect(messageText(answer!.body)).toContain('*operator* role');
      expect(h.sandbox.calls.slice(before)).toEqual([]);
    });
  });
});
