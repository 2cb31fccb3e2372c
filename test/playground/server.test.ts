import { type Playground, startPlayground } from '../../src/playground';
import { messageText } from '../support/harness';
import { PDF } from '../support/limit-form';
import { waitFor } from '../support/wait';

/**
 * The playground's page server and its workspace over HTTP, without a browser: what the page posts
 * becomes Slack's signed deliveries to the real bot, and what the bot calls back shows in the state.
 */

let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ port: 0, logLevel: 'silent' });
});
afterAll(() => pg?.stop());

/** A call to the playground's API; `json` is its answer, of the shape `T` the caller names. */
const post = async <T = Record<string, unknown>>(route: string, body: unknown) => {
  const res = await fetch(new URL(route, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
};
type State = {
  ephemerals: Array<{ text?: string; blocks?: unknown }>;
  modals: Array<Record<string, unknown>>;
  home?: Record<string, unknown>;
  refusals: Array<{ problems: string[] }>;
  channel: { messages: Array<{ ts: string; text?: string; files?: unknown[] }> };
  dm: { id: string; messages: unknown[] };
};
const state = async (user: string) => (await (await fetch(new URL(`/api/state?user=${user}`, pg.url))).json()) as State;

test('it listens on loopback only', () => {
  expect(pg.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('bad input is refused with 400 naming the field, and nothing reaches the bot', async () => {
  const answered = () => pg.slack.calls.filter((c) => /^(chat|views)\./.test(c.method)).length + pg.slack.responses.length;
  const before = answered();
  const bad = await post('/api/command', { user: 'not-a-user', channel: 'C0FINANCE', text: 'help' });
  expect(bad.status).toBe(400);
  expect(bad.json.error).toMatch(/^user:/);
  expect((await post('/api/submit', { user: 'U0ADMIN' })).status).toBe(400);
  expect((await fetch(new URL('/api/state?user=x', pg.url))).status).toBe(400);
  expect((await post('/api/nothing', {})).status).toBe(404);
  expect((await post('/api/say', { user: 'U0ADMIN', channel: 'C0FINANCE', text: 'x'.repeat(1024 * 1024) })).status).toBe(413);
  expect(answered()).toBe(before);
});

test('the panel reaches only the sandbox control routes it needs (not its faults or call log)', async () => {
  const faults = await post('/api/sandbox/faults', { fail: { status: 503, count: 5 } });
  expect(faults.status).toBe(404);
  const answer = await post('/api/sandbox/limit-requests/000000000000000000000000/approve', {});
  expect(answer.status).toBe(404);
  expect(JSON.stringify(answer.json)).toMatch(/not found/i);
});

test('a viewer is refused a write, in an ephemeral only they see', async () => {
  await post('/api/command', { user: 'U0VIEWER', channel: 'C0FINANCE', text: 'account create' });
  const mine = await state('U0VIEWER');
  expect(messageText(mine.ephemerals.at(-1))).toMatch(/admin.*role/i);
  expect(messageText((await state('U0ADMIN')).ephemerals)).not.toMatch(/account create/);
});

test('the Pix API failing: the person is told, nothing is left half shown', async () => {
  await fetch(`${pg.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fail: { status: 503, count: 20 } }),
  });
  try {
    const before = (await state('U0OPERATOR')).ephemerals.length;
    await post('/api/command', { user: 'U0OPERATOR', channel: 'C0FINANCE', text: 'limits' });
    const told = await waitFor('the failure told', async () =>
      (await state('U0OPERATOR')).ephemerals.slice(before).find((e) => /could not|unavailable|try again/i.test(messageText(e))),
    );
    expect(messageText(told)).not.toMatch(/undefined|\[object/);
  } finally {
    await fetch(`${pg.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  }
});

test('a payload Slack would refuse is listed as an error on the page, and not shown', async () => {
  const before = (await state('U0ADMIN')).ephemerals.length;
  // What the bot could post to a response_url: a section with neither text nor fields.
  const res = await fetch(pg.slack.responseUrl('pg-refused'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blocks: [{ type: 'section' }] }),
  });
  expect(res.status).toBe(400);
  const after = await state('U0ADMIN');
  expect(after.refusals.at(-1)?.problems.join(' ')).toMatch(/missing required field: text/);
  expect(after.ephemerals).toHaveLength(before);
  pg.workspace.refusals.length = 0;
});

test('a file shared in the channel, then the message shortcut on it: the form opens with that file as proof', async () => {
  const up = await fetch(new URL('/api/upload?name=proof.pdf', pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: PDF,
  });
  const { id } = (await up.json()) as { id: string };
  await post('/api/say', { user: 'U0OPERATOR', channel: 'C0FINANCE', text: 'the proofs', files: [id] });
  const message = (await state('U0OPERATOR')).channel.messages.find((m) => m.text === 'the proofs')!;
  expect(message.files?.[0]).toMatchObject({ id, name: 'proof.pdf', mimetype: 'application/pdf' });
  const served = await fetch(new URL(`/files/${id}/proof.pdf`, pg.url));
  expect(Buffer.from(await served.arrayBuffer())).toEqual(PDF);

  await post('/api/shortcut', { user: 'U0OPERATOR', callbackId: 'limit_request_with_files', channel: 'C0FINANCE', ts: message.ts });
  const modal = await waitFor('the form', async () =>
    (await state('U0OPERATOR')).modals.find((v) => messageText(v.blocks).includes('proof.pdf')),
  );
  expect(modal.callback_id).toBe('limit_request');
  await post('/api/close', { user: 'U0OPERATOR', viewId: modal.id });
  expect((await state('U0OPERATOR')).modals).toEqual([]);
});

test('the Home tab: app_home_opened delivered, views.publish shown to that person alone', async () => {
  await post('/api/home', { user: 'U0ADMIN' });
  const home = await waitFor('the Home tab', async () => (await state('U0ADMIN')).home);
  expect(home.type).toBe('home');
  expect((await state('U0VIEWER')).home).toBeUndefined();
});

/** A person's event stream: each state the page server pushes, in turn (`next` fails after `timeoutMs`). */
async function followState(user: string) {
  const controller = new AbortController();
  const res = await fetch(new URL(`/api/events?user=${user}`, pg.url), { signal: controller.signal });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = res.body!.getReader();
  let buffered = '';
  const read = async (): Promise<State & { version: number; sandboxVersion: string }> => {
    while (!buffered.includes('\n\n')) buffered += new TextDecoder().decode((await reader.read()).value);
    const [event, ...rest] = buffered.split('\n\n');
    buffered = rest.join('\n\n');
    expect(event).toMatch(/^data: \{/);
    return JSON.parse(event!.slice('data: '.length));
  };
  const next = (timeoutMs = 5_000) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no state pushed within ${timeoutMs} ms`)), timeoutMs);
    });
    // A read left waiting when the time is up ends with the stream (close): that is not a failure of its own.
    const reading = read();
    reading.catch(() => undefined);
    return Promise.race([reading, late]).finally(() => clearTimeout(timer));
  };
  return { next, close: () => controller.abort() };
}

test("changes are pushed to the page as server-sent events: the person's whole state", async () => {
  const stream = await followState('U0ADMIN');
  const first = await stream.next();
  await post('/api/say', { user: 'U0ADMIN', channel: 'C0FINANCE', text: 'hello over SSE' });
  const pushed = await stream.next();
  expect(pushed.version).toBeGreaterThan(first.version);
  expect(pushed.channel.messages.at(-1)).toMatchObject({ user: 'U0ADMIN', text: 'hello over SSE' });
  stream.close();
});

test("a change made through the panel's routes is pushed to every page at once: each reads the sandbox again", async () => {
  const [admin, operator] = [await followState('U0ADMIN'), await followState('U0OPERATOR')];
  const account = pg.sandbox.companies.main.defaultAccountId;
  const toggle = (enabled: boolean) => post(`/api/sandbox/accounts/${account}/withdraw-key-api`, { enabled });
  // The next state with another sandbox version (a push of something else may come first).
  const changed = async (stream: typeof admin, was: string) => {
    for (;;) if ((await stream.next()).sandboxVersion !== was) return;
  };
  try {
    const before = [await admin.next(), await operator.next()];
    expect((await toggle(true)).status).toBe(200);
    await changed(admin, before[0]!.sandboxVersion);
    await changed(operator, before[1]!.sandboxVersion);
  } finally {
    admin.close();
    operator.close();
    await toggle(false);
  }
});

test("a file the bot uploads (files.uploadV2) lands in the person's DM with the bot, and is served", async () => {
  await post('/api/command', { user: 'U0ADMIN', channel: 'C0FINANCE', text: 'audit export' });
  const shared = await waitFor('the CSV in the DM', async () => {
    const { dm } = await state('U0ADMIN');
    return (dm.messages as Array<{ files?: Array<{ id: string; name: string }> }>)
      .flatMap((m) => m.files ?? [])
      .find((f) => f.name.endsWith('.csv'));
  });
  expect((await state('U0ADMIN')).dm.id).toBe('D0ADMIN');
  const served = await fetch(new URL(`/files/${shared.id}/${shared.name}`, pg.url));
  expect(served.status).toBe(200);
  expect(await served.text()).toMatch(/^\uFEFF?[^\n]*,/);
  expect((await state('U0VIEWER')).dm.messages).toEqual([]);
});

test('an external select offers what the bot answers to block_suggestion, for what was typed', async () => {
  // Over 100 accounts: the form's account select searches them through the options load URL.
  const master = pg.sandbox.companies.main.masterAppId;
  const created: string[] = [];
  for (let i = 0; i < 101; i++) {
    const res = await fetch(`${pg.sandbox.url}/api/v1/account`, { method: 'POST', headers: { authorization: master } });
    created.push(((await res.json()) as { account: { accountId: string } }).account.accountId);
  }
  await post('/api/command', { user: 'U0OPERATOR', channel: 'C0FINANCE', text: 'limit request' });
  const modal = await waitFor('the form with a searchable account select', async () =>
    (await state('U0OPERATOR')).modals.find((v) => JSON.stringify(v.blocks).includes('"external_select"')),
  );
  const block = (modal.blocks as Array<{ block_id: string; element?: { type: string; action_id: string } }>).find(
    (b) => b.element?.type === 'external_select',
  )!;
  const wanted = created[57]!;
  const answer = await post<{ options?: unknown[]; option_groups?: Array<{ options: unknown[] }> }>('/api/suggest', {
    user: 'U0OPERATOR',
    viewId: modal.id,
    actionId: block.element!.action_id,
    blockId: block.block_id,
    value: wanted.slice(-10),
  });
  const options = (answer.json.options ?? (answer.json.option_groups ?? []).flatMap((g: { options: unknown[] }) => g.options)) as Array<{
    value: string;
  }>;
  expect(options.map((o) => o.value)).toContain(wanted);
  expect(options.length).toBeLessThanOrEqual(100);
  await post('/api/close', { user: 'U0OPERATOR', viewId: modal.id });
});

test('a dispute opened and decided from the panel: its webhooks reach the bot, one root in the channel, the decision in its thread, the bot in sandbox mode', async () => {
  const opened = await post<{ dispute: { id: string; endToEndId: string } }>('/api/sandbox/disputes', {
    type: 'CHARGEBACK',
    value: 12345,
    reason: 'Golpe',
  });
  expect(opened.status).toBe(201);
  const e2e = opened.json.dispute.endToEndId as string;
  const rootOf = () =>
    pg.slack.messages.find(
      (m) =>
        m.channel === 'C0FINANCE' &&
        !m.thread_ts &&
        m.metadata?.event_type === 'pix_dispute' &&
        m.metadata.event_payload.end_to_end_id === e2e,
    );
  const root = await waitFor('the dispute root', rootOf, 20_000);
  const text = messageText(root.blocks);
  expect(text).toContain('SANDBOX');
  expect(text).toContain('R$');
  expect(text).not.toContain('maria.souza@example.com');
  const decided = await post(`/api/sandbox/disputes/${opened.json.dispute.id as string}/decide`, { status: 'ACCEPTED' });
  expect(decided.status).toBe(200);
  await waitFor('the decision in the thread', () => pg.slack.messages.find((m) => m.thread_ts === root.ts), 20_000);
  expect(
    pg.slack.messages.filter(
      (m) => m.metadata?.event_type === 'pix_dispute' && m.metadata.event_payload.end_to_end_id === e2e && !m.thread_ts,
    ),
  ).toHaveLength(1);
});

test("the panel arms the next payment's failure with one of the service's codes, and reads it back; the sandbox's other payment controls stay out of reach", async () => {
  const panel = async () =>
    (await (await fetch(new URL('/api/sandbox', pg.url))).json()) as {
      payments: unknown[];
      paymentOutcomes: { confirmDelayMs: number; failureCodes: Record<string, string>; failNext: unknown };
    };
  const before = await panel();
  expect(before.payments).toEqual([]);
  expect(before.paymentOutcomes).toMatchObject({ confirmDelayMs: 1_500, failNext: null });
  expect(Object.keys(before.paymentOutcomes.failureCodes)).toContain('REACH_TRANSFER_LIMIT');

  // A code the service does not have: the sandbox's 400, as it said it.
  const bad = await post('/api/sandbox/payments/fail', { code: 'NOPE' });
  expect(bad.status).toBe(400);
  expect((await panel()).paymentOutcomes.failNext).toBeNull();

  expect((await post('/api/sandbox/payments/fail', { code: 'REACH_TRANSFER_LIMIT' })).status).toBe(200);
  expect((await panel()).paymentOutcomes.failNext).toEqual({ code: 'REACH_TRANSFER_LIMIT', count: 1 });

  for (const route of ['/api/sandbox/payments/confirm-delay', '/api/sandbox/clock', '/api/sandbox/dict/too-many-requests']) {
    expect((await post(route, { ms: 0, advanceMs: 0, count: 5 })).status).toBe(404);
  }
  expect((await panel()).paymentOutcomes.confirmDelayMs).toBe(1_500);
});
