import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningApp } from '../../src/app';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import type { StoredMessage } from '../../src/slack-standin/web-api';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore } from '../../src/store';
import { DigestSlots } from '../../src/store/digest-slots';
import { digestsIn, postsTo, seedApprovals, seedRequestsInReview } from '../support/digest';
import { type Harness, harnessEnv, messageText, startHarness, startLoggedApp } from '../support/harness';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const DIGEST = 'C0DIGEST1';
const VIEWER = 'U0VIEWER1';
/** Every two seconds: several scheduled times within a test. */
const EVERY_2S = '*/2 * * * * *';

const slotOf = (m: StoredMessage) => String(m.metadata?.event_payload.slot);

/** Each slot's digests, by slot. */
function bySlot(messages: StoredMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(slotOf(m), (counts.get(slotOf(m)) ?? 0) + 1);
  return counts;
}

describe('the digest on its schedule, one instance (sqlite)', () => {
  let h: Harness;
  afterEach(() => h?.close());

  test('one message a scheduled time, in the channel, with every item; the slot is its time, São Paulo schedule honoured', async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER, DIGEST_CHANNEL: DIGEST, DIGEST_SCHEDULE: EVERY_2S });
    await seedApprovals(h.app.deps.store, 3);
    await seedRequestsInReview(h.app.deps.store, 4);
    // A time that fired while the store was being filled read part of it: only the later ones are read.
    const seeded = Date.now();
    const afterSeeding = () => digestsIn(h.slack.messages, DIGEST).filter((m) => Date.parse(slotOf(m)) >= seeded);
    await waitFor('three digests', () => afterSeeding().length >= 3, 15_000);
    const slots = digestsIn(h.slack.messages, DIGEST).map(slotOf);
    expect(new Set(slots).size).toBe(slots.length);
    for (const slot of slots) expect(new Date(slot).getUTCSeconds() % 2).toBe(0);
    for (const d of afterSeeding()) {
      const text = messageText(d);
      // Channel messages speak pt-BR, the default language.
      expect(text).toContain('*Aprovações pendentes* (3)');
      expect(text).toContain('*Pedidos de limite em análise* (4)');
      expect(d.bot_id).toBe('B0BOT');
    }
    expect(h.app.digest?.nextRun()).toBeInstanceOf(Date);
    // 09:00 on weekdays in São Paulo is 12:00 UTC.
    const weekday = await startHarness({ DIGEST_CHANNEL: DIGEST });
    try {
      const next = weekday.app.digest!.nextRun()!;
      expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([12, 0]);
      expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());
    } finally {
      await weekday.close();
    }
  }, 30_000);

  test('a channel the bot is not in: said in the log once a scheduled time, never in a loop; /pix digest still works', async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER, DIGEST_CHANNEL: DIGEST, DIGEST_SCHEDULE: EVERY_2S });
    h.slack.closedChannels.add(DIGEST);
    const said = () => h.logs.filter((l) => l.includes('the digest of this time was not posted'));
    await waitFor('three times said', () => said().length >= 3, 15_000);
    const slots = said().map((l) => JSON.parse(l).slot as string);
    expect(new Set(slots).size).toBe(slots.length);
    expect(said()[0]).toContain('not_in_channel');
    expect(said()[0]).toContain('invite it to the channel');
    // One attempt a time: not retried in a loop.
    const attempts = postsTo(h.slack.calls, DIGEST).length;
    expect(attempts).toBeLessThanOrEqual(said().length + 1);
    const res = await h.slash(VIEWER, 'digest');
    const answer = await waitFor('the digest to the viewer', () => h.slack.responsesTo(res.responseId)[0]);
    expect(messageText(answer.body)).toContain('What waits for the team');
    // A private channel the bot was removed from answers channel_not_found: said the same way.
    h.slack.closedChannels.delete(DIGEST);
    h.slack.on('chat.postMessage', (args) =>
      args.channel === DIGEST ? { ok: false, error: 'channel_not_found' } : h.slack.answerByDefault('chat.postMessage', args),
    );
    await waitFor('channel_not_found said', () => said().some((l) => l.includes('channel_not_found')), 10_000);
    // Every post was tried and refused: none taken for posted.
    expect(postsTo(h.slack.calls, DIGEST).every((c) => (c.response as { ok?: boolean }).ok === false)).toBe(true);
  }, 30_000);
});

describe('the digest across restarts (sqlite)', () => {
  let h: Harness;
  let later: RunningApp | undefined;
  afterEach(async () => {
    await later?.stop();
    later = undefined;
    await h?.close();
  });

  test('a time its holder left mid-way is finished by the restarted app, once; one already posted is not posted again; one too old is dropped', async () => {
    h = await startHarness({ DIGEST_CHANNEL: DIGEST, DIGEST_SCHEDULE: '0 0 1 1 *' });
    await h.app.stop();
    // Every minute: a time may still be finished up to a minute after it.
    const env = harnessEnv(h, { DIGEST_CHANNEL: DIGEST, DIGEST_SCHEDULE: '* * * * *' });
    /** A holder that died right after taking the time: its lease has lapsed. */
    const leftMidWay = async (slot: string) => {
      const store = await openStore({ url: env.STORE_URL! });
      expect(await new DigestSlots(store.records).claim(slot, 'dead-instance', 1, Date.now() - 5_000)).toBe(true);
      await store.close();
    };
    const restart = async () => {
      await later?.stop();
      later = (await startLoggedApp(env)).app;
    };
    const postedFor = (slot: string) => digestsIn(h.slack.messages, DIGEST).filter((m) => slotOf(m) === slot);

    const recent = new Date(Date.now() - 10_000).toISOString();
    await leftMidWay(recent);
    await restart();
    await waitFor('the time left mid-way posted', () => postedFor(recent).length > 0, 10_000);
    await restart();
    await later!.digest!.idle();
    expect(postedFor(recent)).toHaveLength(1);

    // Posted by the holder before it died, not recorded: found by its metadata, not posted again.
    const posted = new Date(Date.now() - 15_000).toISOString();
    await leftMidWay(posted);
    const before = h.slack.addMessage({
      channel: DIGEST,
      text: 'the digest the dead instance posted',
      bot_id: 'B0BOT',
      user: 'U0BOT',
      metadata: { event_type: 'pix_digest', event_payload: { slot: posted } },
    });
    await restart();
    const store = later!.deps.store;
    await waitFor('the time recorded as posted', async () => (await new DigestSlots(store.records).get(posted))?.state === 'posted');
    expect(await new DigestSlots(store.records).get(posted)).toMatchObject({ ts: before.ts });
    expect(postedFor(posted)).toHaveLength(1);

    // Longer ago than the schedule's interval: dropped, never posted late.
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    await leftMidWay(old);
    await restart();
    await later!.digest!.idle();
    expect(postedFor(old)).toEqual([]);
    expect(await new DigestSlots(later!.deps.store.records).get(old)).toMatchObject({ state: 'posting', holder: 'dead-instance' });
  }, 40_000);
});

describe('two instances on one Redis (127.0.0.1:6379) through several scheduled times', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dataDir: string;
  const namespace = testNamespace('digest');
  const apps: RunningApp[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-ops-digest-'));
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('exactly one digest a scheduled time, every item in each', async () => {
    const env = harnessEnv(
      { slack, sandbox, dataDir },
      {
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: 'd'.repeat(40),
        STORE_NAMESPACE: namespace,
        DIGEST_CHANNEL: DIGEST,
        DIGEST_SCHEDULE: EVERY_2S,
      },
    );
    for (let i = 0; i < 2; i++) apps.push((await startLoggedApp(env)).app);
    await seedApprovals(apps[0]!.deps.store, 2);
    await seedRequestsInReview(apps[1]!.deps.store, 3);
    // Times that fired while the store was being filled read part of it: their items are not checked.
    const start = Date.now();
    await waitFor('five scheduled times with their digest', () => digestsIn(slack.messages, DIGEST).length >= 5, 20_000);
    // Stopped, each instance has finished whatever time it was posting: nothing more can come after the count.
    await Promise.all(apps.map((a) => a.stop()));
    const digests = digestsIn(slack.messages, DIGEST);
    const counts = bySlot(digests);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Every scheduled time since both were up has its digest (none skipped).
    const slots = [...counts.keys()].map((s) => Date.parse(s)).sort((a, b) => a - b);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(2_000);
    expect(slots[0]!).toBeGreaterThanOrEqual(start - 2_000);
    // No second post tried and refused: exactly one chat.postMessage a time.
    expect(postsTo(slack.calls, DIGEST)).toHaveLength(digests.length);
    const afterSeeding = digests.filter((m) => Date.parse(slotOf(m)) >= start);
    expect(afterSeeding.length).toBeGreaterThanOrEqual(3);
    for (const d of afterSeeding) {
      const text = messageText(d);
      expect(text).toContain('*Aprovações pendentes* (2)');
      expect(text).toContain('*Pedidos de limite em análise* (3)');
    }
  }, 40_000);
});
