import { createSign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../src/sandbox';
import type { RateRule } from '../src/slack-standin/rate-limit';
import { type SlackApiCall, SlackStandIn } from '../src/slack-standin/web-api';
import { absoluteFigure, countFigure, countsFigure, infoFigure } from './judge';
import {
  BOT_TOKEN,
  benchmark,
  botPaceMs,
  type Figure,
  MiB,
  memoryFromNow,
  onSlack,
  pause,
  percentile,
  residentMemory,
  START_BOUND_MS,
  startBotProcess,
  until,
  WAIT_MARGIN,
} from './lib';

const EVENTS = 60;
/** The webhooks are sent within this (the service's burst: 60 events in one second). */
const SEND_WINDOW_MS = 1_000;
const CHANNEL = 'C0DISPUTES';
/** Slack's posting limit as the stand-in applies it: one a second per channel, short bursts. */
const RULE: RateRule = { perSecond: 1, burst: 3 };
const PACE_TARGET = 1.2;
const ANSWER_P99_BOUND_MS = 1_000;
const GROWTH_BOUND_MIB = 20;
/** The warm-up's roots, and the timed ones after the burst is sent, at the bot's pace with the margin. */
const ROOTS_WAIT_MS = WAIT_MARGIN * botPaceMs(EVENTS);

const disputeEvent = (endToEndId: string, value: number) =>
  JSON.stringify({
    event: 'OPENPIX:DISPUTE_CREATED',
    dispute: {
      status: 'OPENED',
      endToEndId,
      name: 'Cliente',
      email: 'c@example.com',
      phoneNumber: '+5511900000000',
      value,
      disputeReason: 'Golpe',
    },
  });

const ok = (call: SlackApiCall) => (call.response as { ok?: boolean } | undefined)?.ok === true;

/**
 * 60 distinct dispute events, signed as the service signs them, sent to the bot's
 * receiver within one second (the bot in a process of its own, sqlite store; the sandbox's key; the
 * Slack stand-in limiting chat.postMessage to 1 a second per channel, burst 3). Every answer 200 with
 * p99 ≤ 1 s; all 60 roots posted exactly once, at the pace Slack allows; the bot's resident memory
 * grows by ≤ 20 MiB.
 */
export const pixEvents = benchmark(
  // The bot's start; the warm-up's roots and the timed ones, each at the bot's pace; the burst sent.
  WAIT_MARGIN * (START_BOUND_MS + 2 * botPaceMs(EVENTS) + SEND_WINDOW_MS),
  async (): Promise<Figure[]> => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-events-'));
    const slack = await new SlackStandIn().start();
    slack.botToken = BOT_TOKEN;
    const sandbox = await startSandbox({ port: 0 });
    const bot = await startBotProcess({
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.companies.main.mainAppId,
      STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}`,
      POLL_SCHEDULE: '0 0 1 1 *',
      PIX_EVENTS_CHANNEL: CHANNEL,
    });
    try {
      const key = await sandbox.webhooks.currentPrivateKey();
      const url = `http://127.0.0.1:${bot.port}/pix/webhooks`;
      // Signed ahead, as the service signs on its side: the timed window holds only the requests.
      const signed = (body: string) => ({ body, signature: createSign('RSA-SHA256').update(body).sign(key, 'base64') });
      const send = async ({ body, signature }: { body: string; signature: string }) => {
        const t = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        });
        await res.text();
        return { status: res.status, ms: performance.now() - t };
      };
      // Warm-up, not counted: a burst of the same size, all posted (the keys
      // fetched, the connections open, the code, the catalogue and the R$ format loaded, the heap grown
      // to what such a burst needs: a bot that has run a while), so the figures are the work's own.
      const warmUp = Array.from({ length: EVENTS }, (_, i) =>
        signed(disputeEvent(`E54811417202611251200warmup${String(i).padStart(5, '0')}`, i + 1)),
      );
      await Promise.all(warmUp.map((r) => send(r)));
      await until(
        'the warm-up roots',
        () => (slack.callsOf('chat.postMessage').filter((c) => ok(c)).length >= EVENTS ? true : undefined),
        ROOTS_WAIT_MS,
        onSlack(slack),
      );
      slack.rateLimit.limit('chat.postMessage', RULE);
      const before = memoryFromNow(bot.pid);
      const ids = Array.from({ length: EVENTS }, (_, i) => `E54811417202611251200bench${String(i).padStart(5, '0')}`);
      const requests = ids.map((id, i) => signed(disputeEvent(id, 1000 + i)));
      const since = slack.calls.length;
      const started = Date.now();
      const answers = await Promise.all(
        requests.map(async (request, i) => {
          await pause(Math.floor((i * SEND_WINDOW_MS) / EVENTS));
          return send(request);
        }),
      );
      const rootsOf = () =>
        slack.calls.slice(since).filter((c) => c.method === 'chat.postMessage' && ok(c) && c.args.channel === CHANNEL && !c.args.thread_ts);
      await until(
        'every root',
        () => (new Set(rootsOf().map((c) => JSON.stringify(c.args.metadata))).size >= EVENTS ? true : undefined),
        ROOTS_WAIT_MS,
        onSlack(slack),
      );
      const lastS = (Math.max(...rootsOf().map((c) => c.at)) - started) / 1000;
      const mem = residentMemory(bot.pid);
      const perId = ids.map((id) => rootsOf().filter((c) => JSON.stringify(c.args.metadata).includes(id)).length);
      const non200 = answers.filter((a) => a.status !== 200).length;
      const p99 = percentile(
        answers.map((a) => a.ms),
        99,
      );
      const bound = (EVENTS - RULE.burst) / RULE.perSecond;
      const growth = (mem.peak - before) / MiB;
      const label = `Pix events: ${EVENTS} dispute webhooks in 1 s`;
      return [
        countFigure({ name: `${label}: answers not 200`, value: non200, op: '=', bound: 0 }),
        absoluteFigure({ name: `${label}: answer p99`, value: p99, unit: 'ms', op: '≤', bound: ANSWER_P99_BOUND_MS }),
        countsFigure({
          name: `${label}: roots missing / doubled`,
          value: `${perId.filter((n) => n === 0).length} / ${perId.filter((n) => n > 1).length}`,
          bound: '0 / 0',
          ok: perId.every((n) => n === 1),
        }),
        absoluteFigure({
          name: `${label}: last root posted, against ${PACE_TARGET}× the pace's ${bound} s (Slack's ${RULE.perSecond}/s, burst ${RULE.burst})`,
          value: lastS,
          unit: 's',
          op: '≤',
          bound: PACE_TARGET * bound,
          digits: 1,
          detail: `${(lastS / bound).toFixed(2)}× the pace`,
        }),
        infoFigure(`${label}: 429s from Slack`, String(slack.rateLimit.refusals.length)),
        absoluteFigure({
          name: `${label}: resident memory growth (peak)`,
          value: growth,
          unit: 'MiB',
          op: '≤',
          bound: GROWTH_BOUND_MIB,
          digits: 1,
        }),
      ];
    } finally {
      await bot.stop();
      await sandbox.close();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
