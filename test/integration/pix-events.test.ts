import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import { type RunningApp, startPixOps } from '../../src/app';
import { loadConfig } from '../../src/runtime/config';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { startSandbox } from '../../src/sandbox';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { queryOf } from '../../src/store/sqlite/query';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction } from '../support/interactions';
import { disputeBody, e2e, FOREIGN_KEY, receiverUrl, repliesOf, rootsOf, sendSigned, sendWebhook, signWith } from '../support/pix-events';
import { FakeSocketMode, socketModeEnv } from '../support/socket-mode';
import { waitFor } from '../support/wait';

const CHANNEL = 'C0PIXEVENTS';
const OPERATOR = 'U0EVOPER1';
const VIEWER = 'U0EVVIEW1';

/** A call to the sandbox's control routes; `json` is its answer, of the shape `T` the caller names. */
const control = async <T = unknown>(h: Harness, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${h.sandbox.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
};

/** The sandbox's public keys (GET /api/v1/webhook/public-keys, or a rotation's answer). */
type PublicKeysAnswer = { public_keys: Array<{ key_identifier: string; is_current: boolean; key: string }> };
/** The sandbox's answer to opening a dispute, as far as these tests read it. */
type OpenedDispute = { dispute: { id: string; endToEndId: string } };

const keyFetches = (h: Harness) => h.sandbox.calls.filter((c) => c.path === '/api/v1/webhook/public-keys');

describe('Pix events: the verified receiver and the dispute desk, through the real app', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      PIX_EVENTS_CHANNEL: CHANNEL,
      PIX_EVENTS: 'DISPUTE_*,CHARGE_COMPLETED',
      ACCESS_OPERATORS: OPERATOR,
      ACCESS_VIEWERS: VIEWER,
    });
    h.sandbox.webhooks.setTarget(receiverUrl(h));
  });
  afterAll(() => h.close());

  const channelPosts = () => h.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === CHANNEL);

  test('a key rotation: an event signed with the new key is verified after one refresh of the keys', async () => {
    // The keys as first loaded (the first event), then rotated by the service.
    const first = e2e();
    expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', first))).status).toBe(200);
    const before = keyFetches(h).length;
    expect(before).toBe(1);
    const rotated = await control<{ public_keys: Array<{ is_current: boolean }> }>(h, 'POST', '/sandbox/webhooks/rotate-key');
    expect(rotated.json.public_keys).toHaveLength(2);
    expect(rotated.json.public_keys.map((k: { is_current: boolean }) => k.is_current)).toEqual([false, true]);
    const id = e2e();
    expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', id))).status).toBe(200);
    expect(keyFetches(h).length).toBe(before + 1);
    expect(keyFetches(h).every((c) => c.authorization === undefined)).toBe(true);
    // A forged signature right after: no second refresh within the minute.
    const forged = disputeBody('DISPUTE_CREATED', e2e());
    expect((await sendWebhook(receiverUrl(h), forged, signWith(FOREIGN_KEY, forged))).status).toBe(401);
    expect(keyFetches(h).length).toBe(before + 1);
    await waitFor('the root', () => rootsOf(h, CHANNEL, id).length === 1);
  });

  test('forged, unsigned, not JSON, too large: refused, nothing recorded or posted, the body never logged', async () => {
    // What the previous test recorded is posted (and marked) first: what is pending after is this test's.
    await waitFor('nothing pending', async () => (await h.app.deps.store.pixEvents.pending()).length === 0);
    const marker = `secret-marker-${Date.now()}`;
    const body = disputeBody('DISPUTE_CREATED', e2e(), { name: marker });
    const postsBefore = channelPosts().length;

    expect((await sendWebhook(receiverUrl(h), body, signWith(FOREIGN_KEY, body))).status).toBe(401);
    expect((await sendWebhook(receiverUrl(h), body, undefined)).status).toBe(401);
    expect((await sendWebhook(receiverUrl(h), body, 'bm90IGEgc2lnbmF0dXJl')).status).toBe(401);
    // Signed with the service's key, but bytes changed after signing.
    const good = signWith(await h.sandbox.webhooks.currentPrivateKey(), body);
    expect((await sendWebhook(receiverUrl(h), body.replace('123456', '123457'), good)).status).toBe(401);

    const notJson = `{"event": "OPENPIX:DISPUTE_CREATED", ${marker}`;
    expect((await sendSigned(h, notJson)).status).toBe(400);
    const big = JSON.stringify({ event: 'OPENPIX:DISPUTE_CREATED', pad: 'x'.repeat(1024 * 1024) });
    expect((await sendSigned(h, big)).status).toBe(413);

    expect(await h.app.deps.store.pixEvents.pending()).toEqual([]);
    // Give an (unwanted) post every chance to show up: a signed, valid event after them is posted first.
    const id = e2e();
    expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', id))).status).toBe(200);
    await waitFor('the valid event posted', () => rootsOf(h, CHANNEL, id).length === 1);
    expect(channelPosts().length).toBe(postsBefore + 1);
    expect(h.logs.join('\n')).not.toContain(marker);
    expect(h.slack.messages.map((m) => messageText(m)).join('\n')).not.toContain(marker);
  });

  test('a dispute opened and decided in the sandbox: one root (masked, in R$), a reply in its thread, the root updated', async () => {
    const opened = await control<OpenedDispute>(h, 'POST', '/sandbox/disputes', {
      type: 'CHARGEBACK',
      value: 98765,
      reason: 'Produto não entregue',
      customer: { name: 'Ana Lima', email: 'ana.lima@example.com', phone: '+5511912345678', taxID: '98765432100' },
    });
    expect(opened.status).toBe(201);
    const { id, endToEndId } = opened.json.dispute;
    const [root] = await waitFor('the root', () => (rootsOf(h, CHANNEL, endToEndId).length ? rootsOf(h, CHANNEL, endToEndId) : undefined));
    const text = messageText(root);
    expect(text).toContain('R$ 987,65');
    expect(text).toContain('Ana Lima');
    expect(text).toContain('chargeback');
    expect(text).toContain('Produto não entregue');
    expect(text).toContain('a***@example.com');
    expect(text).toContain('+5511*****5678');
    expect(text).toContain('***.654.321-**');
    expect(text).not.toContain('ana.lima@');
    expect(text).not.toContain('98765432100');
    expect(text).not.toContain('912345678');
    expect(root!.metadata).toEqual({ event_type: 'pix_dispute', event_payload: { end_to_end_id: endToEndId } });
    const button = JSON.stringify(root!.blocks).includes('dispute_send_evidence');
    expect(button).toBe(true);

    expect((await control(h, 'POST', `/sandbox/disputes/${id}/decide`, { status: 'ACCEPTED' })).status).toBe(200);
    const [reply] = await waitFor('the reply', () => (repliesOf(h, root!).length ? repliesOf(h, root!) : undefined));
    expect(messageText(reply)).toContain('aceita');
    await waitFor('the root updated', () => messageText(rootsOf(h, CHANNEL, endToEndId)[0]).includes('aceita'));
    expect(rootsOf(h, CHANNEL, endToEndId)).toHaveLength(1);
    // Personal data reached neither the log nor the store whole.
    const logs = h.logs.join('\n');
    for (const whole of ['ana.lima@example.com', '98765432100', '+5511912345678']) {
      expect(logs).not.toContain(whole);
      expect(JSON.stringify(await h.app.deps.store.pixEvents.dispute(endToEndId))).not.toContain(whole);
    }
    // The sandbox delivered each event once (answered 200 the first time).
    const deliveries = h.sandbox.webhooks.deliveries.filter((d) => d.event.startsWith('OPENPIX:DISPUTE_'));
    expect(deliveries.every((d) => d.status === 200 && d.attempt === 0)).toBe(true);
  });

  test('a redelivery (the same bytes, also at the same moment) is answered 200 and posted once', async () => {
    const id = e2e();
    const body = disputeBody('DISPUTE_CREATED', id);
    const answers = await Promise.all([sendSigned(h, body), sendSigned(h, body), sendSigned(h, body)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await waitFor('the root', () => rootsOf(h, CHANNEL, id).length === 1);
    expect((await sendSigned(h, body)).status).toBe(200);
    await h.app.pixEvents!.outbox.drain();
    expect(rootsOf(h, CHANNEL, id)).toHaveLength(1);
    expect(h.slack.callsOf('chat.postMessage').filter((c) => JSON.stringify(c.args.metadata ?? {}).includes(id))).toHaveLength(1);
  });

  test('a dispute’s events sent again after their own keys are gone (past EVENT_KEEP_MS): still repeats while the dispute is kept, nothing posted', async () => {
    const id = e2e();
    const created = disputeBody('DISPUTE_CREATED', id);
    const accepted = disputeBody('DISPUTE_ACCEPTED', id);
    expect((await sendSigned(h, created)).status).toBe(200);
    const [root] = await waitFor('the root', () => (rootsOf(h, CHANNEL, id).length ? rootsOf(h, CHANNEL, id) : undefined));
    expect((await sendSigned(h, accepted)).status).toBe(200);
    await waitFor('the reply', () => repliesOf(h, root!).length === 1);
    await waitFor('the dispute closed', async () => (await h.app.deps.store.pixEvents.dispute(id))?.closed);
    // What the store's pruning does to events posted more than EVENT_KEEP_MS ago.
    const hashes = [created, accepted].map((b) => createHash('sha256').update(b).digest('hex'));
    const file = new KeyvSqlite({ uri: `sqlite://${path.join(h.dataDir, 'pix-ops.sqlite')}`, busyTimeout: 5_000 });
    try {
      await queryOf(file)('DELETE FROM pix_events WHERE hash IN (?, ?)', hashes);
    } finally {
      await file.disconnect();
    }
    for (const hash of hashes) expect(await h.app.deps.store.pixEvents.get(hash)).toBeUndefined();

    expect((await sendSigned(h, created)).status).toBe(200);
    expect((await sendSigned(h, accepted)).status).toBe(200);
    await h.app.pixEvents!.outbox.drain();
    for (const hash of hashes) expect(await h.app.deps.store.pixEvents.get(hash)).toBeUndefined();
    expect(rootsOf(h, CHANNEL, id)).toHaveLength(1);
    expect(repliesOf(h, root!)).toHaveLength(1);
  });

  test('an event whose own time is older than the receiver remembers (a replay): 200, kept only as dropped, not posted; a recent one, or one with no time, is posted', async () => {
    const day = 24 * 60 * 60 * 1000;
    const charge = (correlationID: string, times: Record<string, string>) =>
      JSON.stringify({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { value: 1000, correlationID, status: 'COMPLETED', ...times } });
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const old = charge('order-old', { createdAt: ago(9 * day), updatedAt: ago(8 * day), paidAt: ago(8 * day) });
    const oldPix = JSON.stringify({
      event: 'OPENPIX:CHARGE_COMPLETED',
      pix: { value: 2000, time: ago(30 * day), charge: { correlationID: 'order-old-pix' } },
    });
    // Created long ago, paid now: the newest of its times counts.
    const recent = charge('order-recent', { createdAt: ago(40 * day), updatedAt: ago(60_000), paidAt: ago(60_000) });
    const timeless = charge('order-timeless', {});
    for (const body of [old, oldPix]) {
      expect(await sendSigned(h, body)).toMatchObject({ status: 200 });
      const hash = createHash('sha256').update(body).digest('hex');
      expect(await h.app.deps.store.pixEvents.get(hash)).toMatchObject({ dropped: 'too_old' });
      expect(await h.app.deps.store.pixEvents.pending()).not.toContain(hash);
    }
    for (const body of [recent, timeless]) expect((await sendSigned(h, body)).status).toBe(200);
    for (const order of ['order-recent', 'order-timeless'])
      await waitFor(`${order} posted`, () => h.slack.messages.some((m) => m.channel === CHANNEL && messageText(m).includes(order)));
    await h.app.pixEvents!.outbox.drain();
    expect(h.slack.messages.some((m) => messageText(m).includes('order-old'))).toBe(false);
    await h.app.deps.store.audit.flush();
    const entries = await h.app.deps.store.audit.page({ since: new Date(Date.now() - 3_600_000), limit: 500 });
    expect(entries.filter((e) => e.detail === 'too old: not posted')).toHaveLength(2);
    // Anyone who kept a copy can send one again: one line a minute at most, with the count.
    expect(h.logs.filter((l) => l.includes('too old to tell from a replay'))).toHaveLength(1);
  });

  test('out of order: ACCEPTED before CREATED makes one root, which stays accepted', async () => {
    const id = e2e();
    expect((await sendSigned(h, disputeBody('DISPUTE_ACCEPTED', id))).status).toBe(200);
    const [root] = await waitFor('the root', () => (rootsOf(h, CHANNEL, id).length ? rootsOf(h, CHANNEL, id) : undefined));
    expect(messageText(root)).toContain('aceita');
    expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', id))).status).toBe(200);
    await waitFor('the late opening in the thread', () => repliesOf(h, root!).length === 1);
    await h.app.pixEvents!.outbox.drain();
    expect(rootsOf(h, CHANNEL, id)).toHaveLength(1);
    expect(messageText(rootsOf(h, CHANNEL, id)[0])).toContain('aceita');
    expect(messageText(repliesOf(h, root!)[0])).toContain('chegou depois');
  });

  test('a root deleted in Slack: the next event of its dispute posts a new root with what is known', async () => {
    const id = e2e();
    expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', id))).status).toBe(200);
    const first = await waitFor('the root', () => rootsOf(h, CHANNEL, id)[0]);
    h.slack.messages.splice(h.slack.messages.indexOf(first), 1);
    expect((await sendSigned(h, disputeBody('DISPUTE_CANCELED', id))).status).toBe(200);
    const second = await waitFor('a new root', () => rootsOf(h, CHANNEL, id)[0]);
    expect(second.ts).not.toBe(first.ts);
    expect(messageText(second)).toContain('cancelada');
    // Recorded once posted (the post is seen in Slack a moment before): the new root, never the old one.
    const recorded = await waitFor('the new root recorded', async () => {
      const rootTs = (await h.app.deps.store.pixEvents.dispute(id))?.rootTs;
      return rootTs && rootTs !== first.ts ? rootTs : undefined;
    });
    expect(recorded).toBe(second.ts);
  });

  test('other kinds: a listed one is one compact message (R$, correlation ID, masked tax id); an unlisted one is answered 200 and dropped', async () => {
    const listed = JSON.stringify({
      event: 'woovi:CHARGE_COMPLETED',
      charge: {
        value: 4990,
        correlationID: 'order-77',
        status: 'COMPLETED',
        customer: { name: 'Pedro', email: 'pedro@example.com', taxID: { taxID: '39053344705', type: 'BR:CPF' } },
      },
      pix: { value: 4990 },
    });
    const unlisted = JSON.stringify({ event: 'OPENPIX:CHARGE_EXPIRED', charge: { value: 100, correlationID: 'order-78' } });
    expect((await sendSigned(h, unlisted)).status).toBe(200);
    expect((await sendSigned(h, listed)).status).toBe(200);
    const post = await waitFor('the compact message', () =>
      h.slack.messages.find((m) => m.channel === CHANNEL && messageText(m).includes('order-77')),
    );
    const text = messageText(post);
    expect(text).toContain('Cobrança paga');
    expect(text).toContain('R$ 49,90');
    expect(text).toContain('***.533.447-**');
    expect(text).not.toContain('39053344705');
    await h.app.pixEvents!.outbox.drain();
    expect(h.slack.messages.some((m) => messageText(m).includes('order-78'))).toBe(false);
  });

  test('every received event is in the audit trail (kind, outcome), never its body', async () => {
    await waitFor('the audit entries', async () => {
      await h.app.deps.store.audit.flush();
      const entries = await h.app.deps.store.audit.page({ since: new Date(Date.now() - 3_600_000), limit: 500 });
      return (
        entries.some((e) => e.action === 'webhook:DISPUTE_CREATED' && e.detail === 'recorded') &&
        entries.some((e) => e.action === 'webhook:CHARGE_EXPIRED' && e.detail === 'not listed')
      );
    });
    await h.app.deps.store.audit.flush();
    const entries = await h.app.deps.store.audit.page({ since: new Date(Date.now() - 3_600_000), limit: 500 });
    const text = JSON.stringify(entries);
    // A refused signature is not an event received (anyone can send one): counted, never an entry.
    expect(entries.some((e) => e.action.startsWith('webhook') && e.outcome === 'refused')).toBe(false);
    expect(text).not.toContain('Seu Jorge');
    expect(text).not.toContain('39053344705');
  });

  describe('the root’s evidence button', () => {
    let root: { ts: string; blocks?: unknown };
    let disputeId: string;
    beforeAll(async () => {
      const opened = await control<OpenedDispute>(h, 'POST', '/sandbox/disputes', {});
      disputeId = opened.json.dispute.id;
      root = await waitFor('the root', () => rootsOf(h, CHANNEL, opened.json.dispute.endToEndId)[0]);
    });

    const evidenceValueOf = (blocks: unknown) => {
      const actions = (blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>).find(
        (b) => b.type === 'actions',
      );
      return actions!.elements!.find((e) => e.action_id === 'dispute_send_evidence')!.value;
    };

    test('an operator gets the dispute-evidence form with the dispute’s id filled in', async () => {
      const before = h.slack.calls.length;
      const res = await blockAction(h, {
        userId: OPERATOR,
        actionId: 'dispute_send_evidence',
        value: evidenceValueOf(root.blocks),
        channelId: CHANNEL,
        responseId: 'ev-op',
        ephemeral: false,
      });
      expect(res.status).toBe(200);
      const open = await waitFor('views.open', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
      const view = open.args.view as { callback_id: string; private_metadata: string };
      expect(view.callback_id).toBe('dispute_evidence');
      expect(JSON.parse(view.private_metadata)).toEqual({ channelId: CHANNEL, disputeId });
    });

    test('without the id in the event, the form asks for it', async () => {
      const id = e2e();
      expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', id))).status).toBe(200);
      const bare = await waitFor('the root', () => rootsOf(h, CHANNEL, id)[0]);
      const before = h.slack.calls.length;
      await blockAction(h, {
        userId: OPERATOR,
        actionId: 'dispute_send_evidence',
        value: evidenceValueOf(bare.blocks),
        channelId: CHANNEL,
        responseId: 'ev-op2',
        ephemeral: false,
      });
      const open = await waitFor('views.open', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
      const view = open.args.view as { private_metadata: string; blocks: Array<{ block_id?: string }> };
      expect(JSON.parse(view.private_metadata)).toEqual({ channelId: CHANNEL });
      expect(view.blocks.some((b) => b.block_id === 'dispute_id')).toBe(true);
    });

    test('a button value that is not ours: the form opens and asks for the id (nothing read from the Pix API)', async () => {
      const before = h.slack.calls.length;
      const pixBefore = h.sandbox.calls.length;
      await blockAction(h, {
        userId: OPERATOR,
        actionId: 'dispute_send_evidence',
        value: '{"endToEndId":',
        channelId: CHANNEL,
        responseId: 'ev-bad',
        ephemeral: false,
      });
      const open = await waitFor('views.open', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
      expect((open.args.view as { blocks: Array<{ block_id?: string }> }).blocks.some((b) => b.block_id === 'dispute_id')).toBe(true);
      expect(h.sandbox.calls.slice(pixBefore)).toEqual([]);
    });

    test('a viewer is refused, naming the operator role, and no form opens', async () => {
      const before = h.slack.calls.length;
      await blockAction(h, {
        userId: VIEWER,
        actionId: 'dispute_send_evidence',
        value: evidenceValueOf(root.blocks),
        channelId: CHANNEL,
        responseId: 'ev-view',
        ephemeral: false,
      });
      const refusal = await waitFor('the refusal', () => h.slack.responsesTo('ev-view')[0]);
      expect(messageText(refusal.body)).toMatch(/operator/);
      expect(h.slack.calls.slice(before).some((c) => c.method === 'views.open')).toBe(false);
    });
  });

  test('the Home tab lists the open disputes', async () => {
    const before = h.slack.calls.length;
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0FAKE',
      api_app_id: 'A0PIXOPS',
      event_id: `Ev${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      event: { type: 'app_home_opened', user: OPERATOR, channel: 'D0HOME', tab: 'home', event_ts: `${Date.now() / 1000}` },
    });
    await h.post(body, { 'content-type': 'application/json', ...slackSignatureHeaders(body, 'test-signing-secret-0123456789abcdef') });
    const publish = await waitFor('views.publish', () => h.slack.calls.slice(before).find((c) => c.method === 'views.publish'));
    const text = messageText(publish.args.view);
    expect(text).toContain('Open Pix disputes');
    const open = await h.app.deps.store.pixEvents.openDisputes();
    expect(open.length).toBeGreaterThan(0);
    expect(open.slice(0, 10).some((d) => text.includes(d.endToEndId))).toBe(true);
    // Closed ones are not listed.
    const closed = h.slack.messages.filter((m) => m.metadata?.event_type === 'pix_dispute' && messageText(m).includes('aceita'));
    expect(closed.length).toBeGreaterThan(0);
    for (const m of closed) expect(text).not.toContain(String(m.metadata!.event_payload.end_to_end_id));
  });
});

describe('Pix events: forged floods, the service’s test delivery, 1024-bit keys', () => {
  let h: Harness;
  beforeAll(async () => {
    // A health listener: the refusals are counted in the metrics it serves.
    h = await startHarness({ PIX_EVENTS_CHANNEL: CHANNEL, HEALTH_PORT: '0' });
  });
  afterAll(() => h.close());

  const auditEntries = async () => {
    await h.app.deps.store.audit.flush();
    return h.app.deps.store.audit.page({ since: new Date(Date.now() - 3_600_000), limit: 1000 });
  };
  const refusedCount = async () => {
    const text = (await h.app.deps.metrics.scrape())!.body;
    return Number(/^pixops_webhook_events_total\{kind="none",result="bad_signature"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };
  const refusalLines = () => h.logs.filter((l) => l.includes('signature'));
  const TEST_DELIVERY = '{"evento":"teste_webhook"}';

  // First: a forged signature makes the one refresh of the minute, and the rotation is to be seen by it.
  test('the service’s keys may be 1024-bit RSA: an event signed with one is verified and posted; a forged 1024-bit signature is refused', async () => {
    expect((await control(h, 'POST', '/sandbox/webhooks/rotate-key', { bits: 512 })).status).toBe(400);
    const rotated = await control<PublicKeysAnswer>(h, 'POST', '/sandbox/webhooks/rotate-key', { bits: 1024 });
    expect(rotated.status).toBe(200);
    const current = rotated.json.public_keys.find((k) => k.is_current)!;
    expect(createPublicKey(current.key).asymmetricKeyDetails?.modulusLength).toBe(1024);
    const id = e2e();
    const body = disputeBody('DISPUTE_CREATED', id);
    expect((await sendSigned(h, body)).status).toBe(200);
    await waitFor('the root', () => rootsOf(h, CHANNEL, id).length === 1);
    // In the audit trail too, recorded then posted (written a moment after the post).
    await waitFor('its audit entries', async () =>
      (await auditEntries()).some((e) => e.action === 'webhook:DISPUTE_CREATED' && e.detail === 'posted'),
    );
    const forger = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const forged = disputeBody('DISPUTE_CREATED', e2e());
    expect((await sendWebhook(receiverUrl(h), forged, signWith(forger, forged))).status).toBe(401);
  });

  test('a flood of forged and unsigned deliveries: 401 each, no audit entry, counted in the metrics, one log line', async () => {
    const before = (await auditEntries()).length;
    const counted = await refusedCount();
    const body = disputeBody('DISPUTE_CREATED', e2e());
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => sendWebhook(receiverUrl(h), body, i % 2 ? undefined : signWith(FOREIGN_KEY, body))),
    );
    expect(answers.every((a) => a.status === 401)).toBe(true);
    await h.app.deps.store.audit.flush();
    expect(await auditEntries()).toHaveLength(before);
    expect((await refusedCount()) - counted).toBe(60);
    // At most one line a minute (the first refusal's, in the test above): the flood is in the count of the next.
    expect(refusalLines()).toHaveLength(1);
    expect(await h.app.deps.store.pixEvents.pending()).toEqual([]);
  });

  test('the service’s signed test delivery ({"evento":"teste_webhook"}): 200, nothing recorded or posted; unsigned: 401', async () => {
    const posts = h.slack.callsOf('chat.postMessage').length;
    const res = await sendSigned(h, TEST_DELIVERY);
    expect(res.status).toBe(200);
    expect((await sendSigned(h, '{"data_criacao":"2024-01-23T20:32:14.429Z","evento":"teste_webhook"}')).status).toBe(200);
    expect((await sendWebhook(receiverUrl(h), TEST_DELIVERY, undefined)).status).toBe(401);
    expect((await sendWebhook(receiverUrl(h), TEST_DELIVERY, signWith(FOREIGN_KEY, TEST_DELIVERY))).status).toBe(401);
    // Neither `event` nor `evento`: not an event.
    expect((await sendSigned(h, '{}')).status).toBe(400);
    expect((await sendSigned(h, '{"data_criacao":"2024-01-23T20:32:14.429Z"}')).status).toBe(400);
    expect(await h.app.deps.store.pixEvents.pending()).toEqual([]);
    await h.app.pixEvents!.outbox.drain();
    expect(h.slack.callsOf('chat.postMessage').length).toBe(posts);
    await waitFor('the test delivery in the audit trail', async () => (await auditEntries()).some((e) => e.action === 'webhook:TEST'));
  });
});

describe('Pix events when the Pix API cannot give its keys', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ PIX_EVENTS_CHANNEL: CHANNEL });
  });
  afterAll(() => h.close());

  test('no keys yet and the key route failing: 401, the event is not recorded (the service retries it)', async () => {
    await control(h, 'POST', '/sandbox/faults', { fail: { status: 503, count: 5, pathPrefix: '/api/v1/webhook' } });
    const id = e2e();
    expect((await sendSigned(h, disputeBody('DISPUTE_CREATED', id))).status).toBe(401);
    expect(await h.app.deps.store.pixEvents.pending()).toEqual([]);
    await control(h, 'DELETE', '/sandbox/faults');
  });
});

describe('Pix events in sandbox mode: the sandbox and the bot wired together with no configuration', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ PIX_EVENTS_CHANNEL: CHANNEL }, { sandboxMode: true });
  });
  afterAll(() => h.close());

  test('a dispute opened and decided on the sandbox reaches the channel, marked SANDBOX', async () => {
    expect(h.sandbox.webhooks.targetUrl).toBe(`http://127.0.0.1:${h.app.port}/pix/webhooks`);
    const opened = await control<OpenedDispute>(h, 'POST', '/sandbox/disputes', { value: 5000 });
    const root = await waitFor('the root', () => rootsOf(h, CHANNEL, opened.json.dispute.endToEndId)[0]);
    expect(messageText(root)).toContain('SANDBOX');
    expect(messageText(root)).toContain('R$ 50,00');
    await control(h, 'POST', `/sandbox/disputes/${opened.json.dispute.id}/decide`, { status: 'REJECTED' });
    await waitFor('the reply', () => repliesOf(h, root).length === 1);
    expect(h.sandbox.webhooks.deliveries.map((d) => [d.event, d.status])).toEqual([
      ['OPENPIX:DISPUTE_CREATED', 200],
      ['OPENPIX:DISPUTE_REJECTED', 200],
    ]);
  });

  test('the sandbox’s test delivery, as the service’s dashboard sends it, is answered 200', async () => {
    const tested = await control<{ status: number }>(h, 'POST', '/sandbox/webhooks/test');
    expect(tested.json.status).toBe(200);
    expect(h.sandbox.webhooks.deliveries.at(-1)).toMatchObject({ event: 'teste_webhook', status: 200 });
  });

  test('a receiver that does not answer gets the event again, with the service’s retry rule (shortened)', async () => {
    const receiver = h.sandbox.webhooks.targetUrl;
    await control(h, 'POST', '/sandbox/webhooks/target', { url: 'http://127.0.0.1:9/nobody' });
    try {
      const opened = await control<OpenedDispute>(h, 'POST', '/sandbox/disputes', {});
      expect(opened.status).toBe(201);
      const attemptsOf = () => h.sandbox.webhooks.deliveries.filter((d) => d.event === 'OPENPIX:DISPUTE_CREATED' && d.status === 0);
      await waitFor('three attempts', () => attemptsOf().length >= 3);
      const attempts = attemptsOf();
      expect(attempts.map((a) => a.attempt).slice(0, 3)).toEqual([0, 1, 2]);
      // 100 ms, then 200 ms apart (the service: 10 s, then 20 s).
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(100);
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(200);
      expect(rootsOf(h, CHANNEL, opened.json.dispute.endToEndId)).toEqual([]);
    } finally {
      await control(h, 'POST', '/sandbox/webhooks/target', { url: receiver });
    }
  });
});

describe('Pix events in Socket Mode: the receiver on a listener of its own', () => {
  test('PORT serves the webhook path alone; a signed event is posted', async () => {
    const slack = await new SlackStandIn().start();
    const socketMode = new FakeSocketMode();
    slack.on('apps.connections.open', async () => ({ ok: true, url: await wsUrl }));
    const wsUrl = socketMode.start();
    const sandbox = await startSandbox({ port: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-events-socket-'));
    const result = loadConfig({
      ...socketModeEnv(slack, sandbox, dir),
      PORT: '0',
      PIX_EVENTS_CHANNEL: CHANNEL,
      PIX_WEBHOOK_PATH: '/hooks/pix',
    });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const secrets = new SecretRegistry();
    let app: RunningApp | undefined;
    try {
      app = await startPixOps(result.config, { logger: createLogger({ level: 'silent', secrets }), secrets });
      const port = app.pixEvents!.port!;
      expect(port).toEqual(expect.any(Number));
      expect((await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '{}' })).status).toBe(404);
      const id = e2e();
      const body = disputeBody('DISPUTE_CREATED', id);
      const res = await sendWebhook(`http://127.0.0.1:${port}/hooks/pix`, body, signWith(await sandbox.webhooks.currentPrivateKey(), body));
      expect(res.status).toBe(200);
      await waitFor('the root', () =>
        slack.messages.some((m) => m.metadata?.event_type === 'pix_dispute' && m.metadata.event_payload.end_to_end_id === id),
      );
      await app.stop();
      await expect(fetch(`http://127.0.0.1:${port}/hooks/pix`, { method: 'POST', body })).rejects.toThrow();
    } finally {
      await app?.stop();
      await socketMode.close();
      await sandbox.close();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
