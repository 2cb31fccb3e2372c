import type { RunningApp } from '../src/app';
import type { RateRule } from '../src/slack-standin/rate-limit';
import { type SlackApiCall, SlackStandIn } from '../src/slack-standin/web-api';
import { limitRequestRootMessage } from '../views/limit-request';
import { absoluteFigure, countFigure, countsFigure, infoFigure } from './judge';
import { BOT_TOKEN, benchmark, type Figure, inBatches, sandboxControl, startBotInProcess, WAIT_MARGIN } from './lib';
import { fixtureMs, limitRequestsInReview, SETUP_CONCURRENCY, setupMs } from './poll-cycle';

const BUSY = 60;
const SPREAD = 60;
const SPREAD_CHANNELS = 6;
/** Slack's posting limit as the fake applies it to every call of a delivery, per method and channel. */
const RULE: RateRule = { perSecond: 1, burst: 3 };
const TARGET = 1.2;
/** The earliest the last of `n` replies in one channel can be accepted: the burst, then one a second. */
const rateBoundS = (n: number) => Math.max(0, n - RULE.burst) / RULE.perSecond;

const ok = (call: SlackApiCall) => (call.response as { ok?: boolean } | undefined)?.ok === true;

/**
 * Rate limits: 60 decisions in one channel and 60 spread over six others, delivered in one
 * tick with the fake Slack limiting `conversations.replies`, `chat.postMessage` and `chat.update` at one
 * a second per channel with a burst of 3 (429 with Retry-After past it). The bot runs in this process
 * (sqlite store), the sandbox in its own. Time from the tick's start to the last reply accepted, against
 * the rate's own bound (the busy channel's 60 replies cannot all be in before (60 − 3) / 1 = 57 s).
 */
export const rateLimit = benchmark(
  // The fixture, the roots posted and the decisions made, then the tick at its bound.
  WAIT_MARGIN * (fixtureMs(BUSY + SPREAD) + 2 * setupMs(BUSY + SPREAD) + TARGET * rateBoundS(BUSY) * 1000),
  async (): Promise<Figure[]> => {
    const fx = await limitRequestsInReview(BUSY + SPREAD);
    const slack = await new SlackStandIn().start();
    slack.botToken = BOT_TOKEN;
    const app = await startBotInProcess({
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: fx.sandbox.url,
      PIX_APP_ID: fx.sandbox.main.mainAppId,
      PIX_RATE_LIMIT: '1000',
    });
    try {
      const channelOf = (i: number) => (i < BUSY ? 'C0BUSY' : `C0SPREAD${(i - BUSY) % SPREAD_CHANNELS}`);
      const threads = await inBatches(fx.requests.length, SETUP_CONCURRENCY, (i) => trackWithRoot(app, fx.requests[i]!, channelOf(i)));
      await inBatches(fx.requests.length, SETUP_CONCURRENCY, (i) =>
        sandboxControl(fx.sandbox.url, `/sandbox/limit-requests/${fx.requests[i]!.id}/${i % 4 === 3 ? 'reject' : 'approve'}`, {}),
      );
      for (const method of ['conversations.replies', 'chat.postMessage', 'chat.update']) slack.rateLimit.limit(method, RULE);

      const since = slack.calls.length;
      const started = Date.now();
      const report = await app.poller.tick();
      if (report.decided !== threads.length) throw new Error(`tick: ${JSON.stringify(report)}`);

      const replies = slack.calls.slice(since).filter((c) => c.method === 'chat.postMessage' && ok(c));
      const perThread = threads.map((t) => replies.filter((c) => c.args.channel === t.channel && c.args.thread_ts === t.rootTs).length);
      const lost = perThread.filter((n) => n === 0).length;
      const doubled = perThread.filter((n) => n > 1).length;
      const lastS = (calls: SlackApiCall[]) => (Math.max(...calls.map((c) => c.at)) - started) / 1000;
      const busyLast = lastS(replies);
      const spreadLast = lastS(replies.filter((c) => c.args.channel !== 'C0BUSY'));
      const busyBound = rateBoundS(BUSY);
      // The other channels' own bound, plus one Retry-After: their look-ups are limited too, and nothing
      // tells the poller so until the first one past the burst is refused.
      const spreadBound = rateBoundS(SPREAD / SPREAD_CHANNELS);
      const spreadLimit = TARGET * spreadBound + 1 / RULE.perSecond;
      const { refusals, ignored } = slack.rateLimit;
      const label = `rate limits: ${BUSY} decisions in one channel + ${SPREAD} over ${SPREAD_CHANNELS}, ${RULE.perSecond}/s per channel (burst ${RULE.burst})`;
      return [
        absoluteFigure({
          name: `${label}: time to the last reply, against ${TARGET}× the pace's ${busyBound} s`,
          value: busyLast,
          unit: 's',
          op: '≤',
          bound: TARGET * busyBound,
          digits: 1,
          detail: `${(busyLast / busyBound).toFixed(2)}× the pace`,
        }),
        absoluteFigure({
          name: `${label}: the other channels' last reply, against ${TARGET}× their ${spreadBound} s + ${1 / RULE.perSecond} s`,
          value: spreadLast,
          unit: 's',
          op: '≤',
          bound: Number(spreadLimit.toFixed(1)),
          digits: 1,
          detail: `${(spreadLast / spreadBound).toFixed(2)}× their pace`,
        }),
        countsFigure({
          name: `${label}: replies lost / doubled`,
          value: `${lost} / ${doubled}`,
          bound: '0 / 0',
          ok: lost === 0 && doubled === 0,
        }),
        infoFigure(`${label}: 429s answered`, String(refusals.length)),
        countFigure({ name: `${label}: calls made again before their Retry-After`, value: ignored.length, op: '=', bound: 0 }),
      ];
    } finally {
      await app.stopAll();
      await slack.close();
      await fx.sandbox.stop();
    }
  },
);

/** The thread root, posted as the bot posts it when a request is filed, and the request tracked. */
async function trackWithRoot(
  app: RunningApp,
  request: { id: string; accountId: string },
  channel: string,
): Promise<{ channel: string; rootTs: string }> {
  const draft = {
    limitRequestId: request.id,
    accountId: request.accountId,
    requesterId: 'U0BENCH01',
    channel,
    requested: { pixDayLimit: 10_000_000, pixNightLimit: 2_000_000 },
    documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
    source: 'filed' as const,
  };
  const root = limitRequestRootMessage('en', { ...draft, rootTs: '', createdAt: new Date().toISOString(), closed: false }, 'IN_REVIEW');
  const posted = await app.deps.slack.retried.chat.postMessage({ channel, text: root.text, blocks: root.blocks });
  await app.deps.store.trackedRequests.track({ ...draft, rootTs: posted.ts! });
  return { channel, rootTs: posted.ts! };
}
