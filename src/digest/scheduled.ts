import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createTask, type ScheduledTask } from 'node-cron';
import { DIGEST_EVENT_TYPE, digestMessage } from '../../views/digest';
import { presentMessage } from '../../views/message';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { DEFAULT_LOCALE } from '../i18n';
import { slackErrorCode } from '../slack/error-code';
import { type OnceMetadata, type PostedMessage, postOnce, refusedBySlack } from '../slack/post-once';
import { DigestSlots } from '../store/digest-slots';
import { readDigestData } from './data';

const DIGEST_TASK_NAME = 'pix-ops:digest';
/** How long a slot's holder is taken to be at work without renewing (it renews every third of it). */
const LEASE_MS = 20_000;
/** The longest a slot may still be posted after its time (by its holder retrying, or a take-over): never a digest late by more. */
const MAX_LATE_MS = 10 * 60_000;
/** node-cron runs a time it reaches late (a busy event loop) up to this late; later, the time is missed, as when every instance was down. */
const FIRING_TOLERANCE_MS = 60_000;
/** Waits between the holder's attempts at a post that failed without a refusal (Slack down, no answer). */
const RETRY_WAITS_MS = [2_000, 5_000, 15_000];

export interface ScheduledDigestOptions {
  channel: string;
  schedule: string;
  timezone: string;
  /** This instance, as the store knows it (the holder of its claims). */
  holder: string;
  /**
   * The deps of background work: the Pix client in the poller's lane (behind people), Slack through
   * the paced clients; `signal` aborts what still waits when the digest stops.
   */
  background(signal: AbortSignal): Deps;
}

export interface ScheduledDigest {
  /** Posts the digest in the channel now, outside the schedule (the playground's button). */
  postNow(): Promise<PostedMessage>;
  /** The next scheduled time. */
  nextRun(): Date | null;
  /** Resolves once the work in flight now (a time being posted, the look for one left mid-way at start) has ended. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The morning digest on its schedule, exactly once a scheduled time however many instances run and
 * restart: every instance fires at the time, the first to claim the time's slot in the store posts it
 * (looking for the message by its metadata first when it takes over a slot another holder left
 * mid-way), the others watch the slot and take it over only if its holder stops renewing its lease
 * before the slot is too late. A time nobody claimed (every instance down) is never posted afterwards.
 * A channel Slack refuses (`not_in_channel`, `channel_not_found`) is said in the log once for that
 * time; `/pix digest` still shows the digest to whoever asks.
 */
export function startScheduledDigest(deps: Deps, options: ScheduledDigestOptions): ScheduledDigest {
  const slots = new DigestSlots(deps.store.records);
  const stopped = new AbortController();
  setMaxListeners(0, stopped.signal);
  const background = options.background(stopped.signal);
  const working = new Set<Promise<unknown>>();
  let stopping = false;

  const track = <T>(work: Promise<T>): Promise<T> => {
    working.add(work);
    void work.finally(() => working.delete(work)).catch(() => undefined);
    return work;
  };
  /** A wait that ends early when the digest stops. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopped.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      stopped.signal.addEventListener('abort', done, { once: true });
    });

  const task: ScheduledTask = createTask(options.schedule, (context) => track(fire(context.date)), {
    name: DIGEST_TASK_NAME,
    timezone: options.timezone,
    missedExecutionTolerance: FIRING_TOLERANCE_MS,
  });
  const window = Math.min(MAX_LATE_MS, intervalOf(task));
  /** Whether the slot is still early enough to be posted. */
  const inTime = (slotMs: number) => Date.now() - slotMs <= window;

  async function fire(at: Date): Promise<void> {
    if (stopping) return;
    const slot = at.toISOString();
    try {
      if (await slots.claim(slot, options.holder, LEASE_MS)) await post(slot, false);
      else await watch(slot);
    } catch (err) {
      deps.logger.error({ slot, ...describeError(err) }, 'the digest of this time failed');
    }
  }

  /** Another instance has the slot: taken over only if its holder stops renewing while the slot is in time. */
  async function watch(slot: string): Promise<void> {
    const slotMs = Date.parse(slot);
    for (;;) {
      const seen = await slots.get(slot);
      if (seen?.state !== 'posting') return;
      const wait = Date.parse(seen.leaseUntil) - Date.now() + 250;
      if (Date.now() + Math.max(0, wait) - slotMs > window) return;
      if (wait > 0) await sleep(wait);
      if (stopping) return;
      if (await slots.takeOver(slot, options.holder, LEASE_MS)) {
        deps.logger.warn({ slot }, 'the instance posting this digest stopped: this one takes it over');
        await post(slot, true);
        return;
      }
    }
  }

  /** Posts the slot's digest while holding its lease; `lookFirst`: another holder may have posted it already. */
  async function post(slot: string, lookFirst: boolean): Promise<void> {
    const slotMs = Date.parse(slot);
    let held = true;
    const renewal = setInterval(() => {
      slots.renew(slot, options.holder, LEASE_MS).then(
        (kept) => {
          held &&= kept;
        },
        (err: unknown) => deps.logger.warn({ slot, ...describeError(err) }, 'could not renew the digest’s lease'),
      );
    }, LEASE_MS / 3);
    renewal.unref();
    try {
      const data = await readDigestData({ deps: background, pix: background.pix, now: new Date() }, deps.digest.belowCents);
      const message = presentMessage(digestMessage(DEFAULT_LOCALE, data), DEFAULT_LOCALE, deps.sandboxMode);
      const metadata: OnceMetadata = { event_type: DIGEST_EVENT_TYPE, event_payload: { slot } };
      for (let attempt = 0; ; attempt++) {
        // Its reading may have waited (behind people in the Pix budget): never posted later than the rule.
        if (!inTime(slotMs)) {
          await slots.finish(slot, options.holder, { state: 'undelivered', error: 'too late' });
          deps.logger.warn({ slot }, 'the digest of this time was ready too late: not posted');
          return;
        }
        // A post is a write: only while this instance still holds the slot.
        if (!held || !(await slots.renew(slot, options.holder, LEASE_MS))) {
          deps.logger.warn({ slot }, 'the digest’s slot was taken over before it was posted: the other instance posts it');
          return;
        }
        try {
          const posted = await postOnce(
            background.slack.exact,
            { channel: options.channel, text: message.text, blocks: message.blocks },
            metadata,
            { lookFirst: lookFirst || attempt > 0, since: slotMs },
          );
          await slots.finish(slot, options.holder, { state: 'posted', ts: posted.ts });
          deps.logger.info({ slot, channel: options.channel, ts: posted.ts }, 'the digest was posted');
          return;
        } catch (err) {
          const code = slackErrorCode(err);
          const refused = refusedBySlack(err);
          const wait = RETRY_WAITS_MS[attempt];
          if (refused || wait === undefined || stopping || !inTime(slotMs + wait)) {
            await slots.finish(slot, options.holder, { state: 'undelivered', error: code ?? 'no answer' });
            logUndelivered(slot, err);
            return;
          }
          await sleep(wait);
        }
      }
    } finally {
      clearInterval(renewal);
    }
  }

  /** Once for the slot (only its holder ends it), never in a loop. */
  function logUndelivered(slot: string, err: unknown): void {
    const code = slackErrorCode(err);
    const hint =
      code === 'not_in_channel' || code === 'channel_not_found' || code === 'is_archived'
        ? 'the bot cannot post in DIGEST_CHANNEL: invite it to the channel (/invite @Pix Ops) or set DIGEST_CHANNEL to a channel it is in'
        : 'Slack did not take the digest';
    deps.logger.error(
      { slot, channel: options.channel, slackError: code, ...describeError(err) },
      `the digest of this time was not posted: ${hint}; /pix digest still shows it`,
    );
  }

  /** A slot this instance's previous run (or another instance) left mid-way: finished if still in time. */
  async function resume(): Promise<void> {
    const slot = await slots.latest();
    if (!slot || !inTime(Date.parse(slot))) return;
    await watch(slot);
  }

  void Promise.resolve(task.start()).catch((err: unknown) =>
    deps.logger.error({ ...describeError(err) }, 'the digest schedule did not start'),
  );
  track(resume().catch((err: unknown) => deps.logger.warn({ ...describeError(err) }, 'could not look for a digest left mid-way')));

  return {
    async postNow() {
      const data = await readDigestData({ deps, pix: deps.pix, now: new Date() }, deps.digest.belowCents);
      const message = presentMessage(digestMessage(DEFAULT_LOCALE, data), DEFAULT_LOCALE, deps.sandboxMode);
      return postOnce(
        deps.slack.exact,
        { channel: options.channel, text: message.text, blocks: message.blocks },
        { event_type: DIGEST_EVENT_TYPE, event_payload: { request_id: randomUUID() } },
      );
    },
    nextRun: () => task.getNextRun(),
    async idle() {
      await Promise.allSettled([...working]);
    },
    async stop() {
      stopping = true;
      stopped.abort();
      await task.destroy();
      await Promise.allSettled([...working]);
    },
  };
}

/** The shortest gap between the next few times of a task (its interval, for a regular schedule). */
function intervalOf(task: ScheduledTask): number {
  const runs = task.getNextRuns(4).map((d) => d.getTime());
  let gap = Infinity;
  for (let i = 1; i < runs.length; i++) gap = Math.min(gap, runs[i]! - runs[i - 1]!);
  return Number.isFinite(gap) ? gap : MAX_LATE_MS;
}
