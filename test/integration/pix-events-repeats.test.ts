import { type Harness, startHarness } from '../support/harness';
import { disputeBody, e2e, receiverUrl, rootsOf, sendWebhook, signWith } from '../support/pix-events';
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
