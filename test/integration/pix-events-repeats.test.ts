import { createHash } from 'node:crypto';
import path from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import { SqlitePixEvents } from '../../src/store/sqlite/pix-events';
import { queryOf } from '../../src/store/sqlite/query';
import { type Harness, messageText, startHarness } from '../support/harness';
import { disputeBody, e2e, receiverUrl, rootsOf, sendSigned, sendWebhook, signWith } from '../support/pix-events';
import { waitFor } from '../support/wait';

// A signed webhook body is a key to the receiver for as long as the service's keys are listed: RSA
// PKCS#1 v1.5 signatures are deterministic, so whoever captured one delivery (the service's test
// delivery above all, the same bytes every time) can send it again as often as they like. Each send
// here is what such a replay is from outside: the same bytes, the same signature header, POSTed.

const CHANNEL = 'C0REPEATS';
const TEST_DELIVERY = '{"evento":"teste_webhook"}';
const day = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('Pix events: a repeat adds no audit entry, and is counted in /metrics', () => {
  let h: Harness;
  let metricsUrl: string;
  beforeAll(async () => {
    h = await startHarness({ PIX_EVENTS_CHANNEL: CHANNEL, PIX_EVENTS: 'DISPUTE_*,CHARGE_COMPLETED', HEALTH_PORT: '0' });
    metricsUrl = `http://127.0.0.1:${h.app.healthPort}/metrics`;
  });
  afterAll(() => h.close());

  /** The body signed once, by the service's key: what a replayer holds. */
  const captured = async (body: string) => ({ body, signature: signWith(await h.sandbox.webhooks.currentPrivateKey(), body) });
  const replay = async (copy: { body: string; signature: string }, times: number) => {
    const answers = [];
    for (let i = 0; i < times; i++) answers.push((await sendWebhook(receiverUrl(h), copy.body, copy.signature)).status);
    return answers;
  };
  const entriesOf = async (action: string) => {
    await h.app.deps.store.audit.flush();
    return (await h.app.deps.store.audit.page({ since: new Date(Date.now() - 3_600_000), limit: 5_000 })).filter(
      (e) => e.action === action,
    );
  };
  const counted = async (kind: string, result: string) => {
    const text = await (await fetch(metricsUrl)).text();
    const line = text.split('\n').find((l) => l.startsWith(`pixops_webhook_events_total{kind="${kind}",result="${result}"} `));
    return Number(line?.split(' ')[1] ?? 0);
  };

  test('the service’s test delivery replayed 50 times: 200 each, one audit entry, 49 repeats counted', async () => {
    const copy = await captured(TEST_DELIVERY);
    expect(await replay(copy, 50)).toEqual(Array(50).fill(200));
    await waitFor('the first receipt in the trail', async () => (await entriesOf('webhook:TEST')).length > 0);
    expect(await entriesOf('webhook:TEST')).toEqual([expect.objectContaining({ outcome: 'ok', detail: 'test delivery' })]);
    expect(await counted('TEST', 'test_delivery')).toBe(1);
    expect(await counted('TEST', 'repeat')).toBe(49);
  });

  test('a posted event replayed: posted once, recorded once in the trail, each repeat counted', async () => {
    const id = e2e();
    const copy = await captured(disputeBody('DISPUTE_CREATED', id));
    expect(await replay(copy, 1)).toEqual([200]);
    await waitFor('the root', () => rootsOf(h, CHANNEL, id).length === 1);
    const before = await counted('DISPUTE_CREATED', 'repeat');
    expect(await replay(copy, 20)).toEqual(Array(20).fill(200));
    await h.app.pixEvents!.outbox.drain();
    expect(rootsOf(h, CHANNEL, id)).toHaveLength(1);
    const details = (await entriesOf('webhook:DISPUTE_CREATED')).map((e) => e.detail);
    expect(details.sort()).toEqual(['posted', 'recorded']);
    expect((await counted('DISPUTE_CREATED', 'repeat')) - before).toBe(20);
  });

  test('answered but not posted (not listed, too old): one entry at the first receipt, none for its repeats', async () => {
    const unlisted = await captured(JSON.stringify({ event: 'OPENPIX:CHARGE_EXPIRED', charge: { value: 100, correlationID: 'order-r1' } }));
    const old = await captured(
      JSON.stringify({
        event: 'OPENPIX:CHARGE_COMPLETED',
        charge: { value: 100, correlationID: 'order-r2', status: 'COMPLETED', updatedAt: ago(30 * day), paidAt: ago(30 * day) },
      }),
    );
    expect(await replay(unlisted, 15)).toEqual(Array(15).fill(200));
    expect(await replay(old, 15)).toEqual(Array(15).fill(200));
    await waitFor('both first receipts in the trail', async () =>
      (await Promise.all([entriesOf('webhook:CHARGE_EXPIRED'), entriesOf('webhook:CHARGE_COMPLETED')])).every((e) => e.length > 0),
    );
    expect(await entriesOf('webhook:CHARGE_EXPIRED')).toEqual([expect.objectContaining({ detail: 'not listed' })]);
    expect(await entriesOf('webhook:CHARGE_COMPLETED')).toEqual([expect.objectContaining({ detail: 'too old: not posted' })]);
    expect(await counted('CHARGE_EXPIRED', 'repeat')).toBe(14);
    expect(await counted('CHARGE_COMPLETED', 'repeat')).toBe(14);
    expect(h.slack.messages.some((m) => JSON.stringify(m).includes('order-r'))).toBe(false);
  });
});

describe('Pix events: what makes a repeat is kept for as long as a replay could be accepted', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ PIX_EVENTS_CHANNEL: CHANNEL, PIX_EVENTS: 'CHARGE_COMPLETED' });
  });
  afterAll(() => h.close());

  const charge = (correlationID: string, times: Record<string, string> = {}) =>
    JSON.stringify({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { value: 1000, correlationID, status: 'COMPLETED', ...times } });
  const postsOf = (order: string) => h.slack.callsOf('chat.postMessage').filter((c) => messageText(c.args).includes(order));

  /**
   * What the store holds once a week and more has passed since the event was posted: its row made
   * older, then the store's own pruning run over the file (a second instance on it, or the next start).
   */
  async function aWeekLater(body: string): Promise<void> {
    const hash = createHash('sha256').update(body).digest('hex');
    const then = new Date(Date.now() - 8 * day).toISOString();
    const file = new KeyvSqlite({ uri: `sqlite://${path.join(h.dataDir, 'pix-ops.sqlite')}`, busyTimeout: 5_000 });
    try {
      const query = queryOf(file);
      await query(`UPDATE pix_events SET received_at = ?, json = json_set(json, '$.receivedAt', ?, '$.postedAt', ?) WHERE hash = ?`, [
        then,
        then,
        then,
        hash,
      ]);
      await new SqlitePixEvents(query, 'pix-ops').pending();
    } finally {
      await file.disconnect();
    }
  }

  test('an event with no time of its own, replayed after a week: not posted again', async () => {
    const body = charge('order-timeless-1');
    expect((await sendSigned(h, body)).status).toBe(200);
    await waitFor('posted', () => postsOf('order-timeless-1').length === 1);
    await waitFor('marked posted', async () => (await h.app.deps.store.pixEvents.pending()).length === 0);
    await aWeekLater(body);

    expect((await sendSigned(h, body)).status).toBe(200);
    // An event after it is posted after it: the replay, were it taken for new, would be posted first.
    const next = charge('order-timeless-2');
    expect((await sendSigned(h, next)).status).toBe(200);
    await waitFor('the next event posted', () => postsOf('order-timeless-2').length === 1);
    await h.app.pixEvents!.outbox.drain();
    expect(postsOf('order-timeless-1')).toHaveLength(1);
  });
});
