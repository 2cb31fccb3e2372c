import { randomBytes } from 'node:crypto';
import { LOOK_AGAIN_MS, WAIT_FOR_CLAIM_MS } from '../src/approvals/deciding';
import type { StoredAuditEntry } from '../src/audit/entry';
import { moneyOutRecords } from '../src/payments/records';
import { MAX_READS_PER_SWEEP } from '../src/payments/sweep';
import { type SandboxCall, startSandbox } from '../src/sandbox';
import {
  interactionBody,
  messageBlockActionPayload,
  slashCommandBody,
  submittedView,
  viewSubmissionPayload,
} from '../src/slack-standin/deliveries';
import { slackSignatureHeaders } from '../src/slack-standin/signing';
import { type SlackApiCall, SlackStandIn, type StoredMessage } from '../src/slack-standin/web-api';
import { openStore, type Store } from '../src/store';
import { PAY_CALLBACK } from '../views/pay-form';
import { dropNamespace } from './approvals';
import { absoluteFigure, countsFigure, infoFigure } from './judge';
import {
  benchmark,
  botPaceMs,
  type Child,
  cpuMsOf,
  type Figure,
  inBatches,
  onSlack,
  percentile,
  preciseNow,
  RIG_START_MS,
  SIGNING_SECRET,
  SLACK_ACK_MS,
  startBotProcess,
  until,
  WAIT_MARGIN,
} from './lib';

const PAYMENTS = 200;
const KEYS = 20;
/** Where the payments are asked, in turn: a reply's pace is Slack's per channel (SLACK_PACE). */
const CHANNELS = 20;
/** Submissions and first approvals at once. */
const CONCURRENCY = 10;
const P95_BOUND_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MAKER = 'U0MAKER01';
const CHECKER_A = 'U0CHECKA1';
const CHECKER_B = 'U0CHECKB1';
/** Phase 2's poll: every second (node-cron's seconds field), each tick on one of the two instances. */
const POLL_EVERY_S = 1;
const EVERY_SECOND = `*/${POLL_EVERY_S} * * * * *`;
/** Phase 1's poll: never on its own (1 January, midnight), so that nothing but the clicks runs. */
const NO_TICK = '0 0 1 1 *';
const PIX_WEBHOOK_PATH = '/pix/webhooks';
const AUDIT_PAGE = 1_000;
const END_NOTICE = 'payment-end';

const channelOf = (i: number) => `C0BENCHPAY${String(i % CHANNELS).padStart(2, '0')}`;
/** Ten payments in a row to each key: a batch of submissions checks the same key at once. */
const keyOf = (i: number) => `supplier-${String(Math.floor(i / (PAYMENTS / KEYS))).padStart(2, '0')}@example.com`;

/**
 * How long the first phases may take at most: the bots started twice; each form opened, and each batch
 * of submissions and of first approvals, acknowledged within Slack's deadline; each race, its payment
 * handled at its bound and the other click's next look at the claim (LOOK_AGAIN_MS) after it.
 */
const PHASE_1_MS =
  2 * RIG_START_MS +
  CHANNELS * SLACK_ACK_MS +
  2 * Math.ceil(PAYMENTS / CONCURRENCY) * SLACK_ACK_MS +
  PAYMENTS * (P95_BOUND_MS + LOOK_AGAIN_MS);
/** The ends: each channel's replies at the bot's pace, and the sweeps that read them all (MAX_READS_PER_SWEEP a tick). */
const PHASE_2_MS = botPaceMs(PAYMENTS / CHANNELS) + Math.ceil(PAYMENTS / MAX_READS_PER_SWEEP + 1) * POLL_EVERY_S * 1000;
/**
 * The sandbox confirms a payment this long after its approval: past the first phases (nothing
 * settles while they run), reached at once by moving the sandbox's clock when the ends are due.
 */
const CONFIRM_DELAY_MS = WAIT_MARGIN * PHASE_1_MS;

type Bot = Child & { port: number; pid: number };
type Block = { type: string; block_id?: string; element?: Record<string, unknown> };
type View = Record<string, unknown> & { blocks: Block[]; private_metadata: string; callback_id: string };

/** The pay form's state as Slack sends it back: the key and the amount typed, the default account kept. */
function formValues(view: View, key: string, value: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const b of view.blocks) {
    if (b.type !== 'input' || !b.element || !b.block_id) continue;
    const actionId = String(b.element.action_id);
    if (b.block_id === 'sourceAccountId') {
      out[b.block_id] = {
        [actionId]: { type: b.element.type, selected_option: { value: (b.element.initial_option as { value: string }).value } },
      };
    } else if (b.block_id === 'destinationAliasType') {
      out[b.block_id] = { [actionId]: { type: 'static_select', selected_option: null } };
    } else {
      const text = ({ destinationAlias: key, value } as Record<string, string>)[b.block_id] ?? null;
      out[b.block_id] = { [actionId]: { type: 'plain_text_input', value: text } };
    }
  }
  return out;
}

/** A signed delivery to a bot's Request URL, ready to send. */
function signed(port: number, body: string, contentType = 'application/x-www-form-urlencoded') {
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    init: { method: 'POST', body, headers: { 'content-type': contentType, ...slackSignatureHeaders(body, SIGNING_SECRET) } },
  };
}

async function send(request: { url: string; init: RequestInit }): Promise<void> {
  const res = await fetch(request.url, request.init);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`the bot answered ${res.status}`);
}

interface Root {
  id: string;
  channel: string;
  ts: string;
}

/** A raced approval: when its two clicks left, and its window's end (its last Slack or Pix call answered). */
interface Race {
  id: string;
  from: number;
  /** When the bench saw it done (its root shown after the outcome, the other click told). */
  seen: number;
}

/**
 * Money out on two instances sharing Redis, each a bot process as `npm start` runs it (the Slack
 * stand-in and the sandbox Pix API in the bench's process, the sandbox's calls timed by their
 * arrival and answer): 200 payments asked through `/pix pay`'s form on one instance, to 20 keys (the
 * key check's cache is the instance's: 20 look-ups); each needs two checkers, the first approves on
 * one instance, and the second's click is sent to both instances at once, one payment at a time:
 * 200 creations and 200 approvals at the sandbox, each once, and each payment's handling beyond its
 * Slack and Pix calls (from the clicks leaving to its last call answered, less the time the stand-in
 * and the sandbox spent on its calls) at most 50 ms at p95. Then the two bots again, polling every
 * second and receiving the sandbox's webhooks, and the sandbox's clock moved past the confirm delay:
 * the 200 ends come by webhook and by poll together, each reply posted once.
 */
export const moneyOut = benchmark(WAIT_MARGIN * (PHASE_1_MS + RIG_START_MS + PHASE_2_MS), async (): Promise<Figure[]> => {
  const slack = await new SlackStandIn().start();
  const sandbox = await startSandbox({ port: 0, maxLoggedCalls: 100 * PAYMENTS });
  const namespace = `bench-money-out-${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(24).toString('hex');
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  const env = (schedule: string) => ({
    SLACK_API_URL: slack.apiUrl,
    PIX_API_URL: sandbox.url,
    PIX_APP_ID: sandbox.companies.main.mainAppId,
    // The sandbox is the bench's own: the budget is not what is measured.
    PIX_RATE_LIMIT: '1000',
    STORE_URL: REDIS_URL,
    STORE_SECRET: secret,
    STORE_NAMESPACE: namespace,
    APPROVAL_QUORUM_ACTIONS: 'pay',
    ACCESS_OPERATORS: [MAKER, CHECKER_A, CHECKER_B].join(','),
    PIX_EVENTS_CHANNEL: 'C0BENCHEVENTS',
    PIX_WEBHOOK_PATH,
    POLL_SCHEDULE: schedule,
  });
  let bots: Bot[] = [];
  let store: Store | undefined;
  try {
    for (let k = 0; k < KEYS; k++) {
      await control('/sandbox/dict', { pixKey: keyOf(k * (PAYMENTS / KEYS)), type: 'EMAIL', holderTaxId: '19031824000157' });
    }
    await control('/sandbox/payments/confirm-delay', { ms: CONFIRM_DELAY_MS });
    bots = [await startBotProcess(env(NO_TICK)), await startBotProcess(env(NO_TICK))];
    const [a, b] = bots as [Bot, Bot];
    store = await openStore({ url: REDIS_URL, secret, namespace });
    const opened = store;

    // The form, opened once in each channel (its views.update once the accounts are read).
    const forms: View[] = [];
    for (let c = 0; c < CHANNELS; c++) {
      const from = slack.calls.length;
      const body = slashCommandBody({
        userId: MAKER,
        text: 'pay',
        channelId: channelOf(c),
        responseUrl: slack.responseUrl(`pay-${c}`),
        triggerId: `trigger-pay-${c}`,
      });
      await send(signed(a.port, body));
      const update = await until(
        `the payment form in ${channelOf(c)}`,
        () => slack.calls.slice(from).find((call) => call.method === 'views.update' && isForm(call.args.view as View | undefined)),
        WAIT_MARGIN * SLACK_ACK_MS,
        onSlack(slack),
      );
      forms.push(update.args.view as View);
    }

    // Item 3: 200 payments to 20 keys, asked on one instance (its cache of key checks is its own).
    const checksBefore = sandbox.calls.length;
    const rootsBefore = slack.calls.length;
    await inBatches(PAYMENTS, CONCURRENCY, async (i) => {
      const form = forms[i % CHANNELS]!;
      const view = submittedView(form, `V0BENCHPAY${i}`, formValues(form, keyOf(i), '1.00'));
      await send(signed(a.port, interactionBody(viewSubmissionPayload(MAKER, view, `trigger-submit-${i}`))));
    });
    const rootCalls = await until(
      `${PAYMENTS} approval roots`,
      () => {
        const found = slack.calls.slice(rootsBefore).filter(isRoot);
        return found.length >= PAYMENTS ? found : undefined;
      },
      WAIT_MARGIN * Math.ceil(PAYMENTS / CONCURRENCY) * SLACK_ACK_MS,
      onSlack(slack),
    );
    const submitted = sandbox.calls.slice(checksBefore);
    const checks = submitted.filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys/check');
    const checkedKeys = new Set(checks.map((c) => (c.body as { pixKey?: string }).pixKey));
    const tokenReads = submitted.filter((c) => c.method === 'GET' && c.path === '/api/v1/pix-keys/tokens').length;
    const roots: Root[] = rootCalls.map((call) => {
      const response = call.response as { channel: string; ts: string };
      return {
        id: (call.args.metadata as { event_payload: { approval_id: string } }).event_payload.approval_id,
        channel: response.channel,
        ts: response.ts,
      };
    });

    // The first approvals, on one instance.
    const click = (port: number, userId: string, root: Root, responseId: string, triggerId: string) =>
      signed(
        port,
        interactionBody(
          messageBlockActionPayload({
            userId,
            channelId: root.channel,
            messageTs: root.ts,
            isEphemeral: false,
            responseUrl: slack.responseUrl(responseId),
            triggerId,
            action: { action_id: 'approval_approve', type: 'button', value: root.id, text: { type: 'plain_text', text: 'Approve' } },
          }),
        ),
      );
    await inBatches(roots.length, CONCURRENCY, async (i) => {
      const root = roots[i]!;
      await send(click(a.port, CHECKER_A, root, `first-${root.id}`, `trigger-first-${i}`));
      await until(
        `the first approval of ${root.id}`,
        () => slack.responsesTo(`first-${root.id}`)[0],
        WAIT_MARGIN * SLACK_ACK_MS,
        onSlack(slack),
      );
    });

    // Items 1 and 4: the second approval's click sent to both instances at once, one payment at a time
    // (a click of its own on each: Slack's repeat of one delivery would be dropped before any approval).
    const paymentsBefore = sandbox.calls.length;
    const slackBefore = slack.calls.length;
    const races: Race[] = [];
    const cpuBefore = bots.map((bot) => cpuMsOf(bot.pid));
    for (const [i, root] of roots.entries()) {
      const requests = [a, b].map((bot, k) => click(bot.port, CHECKER_B, root, `second-${k}-${root.id}`, `trigger-second-${k}-${i}`));
      const callsFrom = slack.calls.length;
      const from = preciseNow();
      await Promise.all(requests.map(send));
      await until(
        `the raced approval of ${root.id}`,
        () => {
          const calls = slack.calls.slice(callsFrom);
          const outcome = calls.findIndex((c) => c.method === 'chat.postMessage' && c.args.thread_ts === root.ts);
          const shown = outcome >= 0 && calls.slice(outcome + 1).some((c) => c.method === 'chat.update' && c.args.ts === root.ts);
          const told = [0, 1].some((k) => slack.responsesTo(`second-${k}-${root.id}`).length > 0);
          return shown && told;
        },
        WAIT_MARGIN * WAIT_FOR_CLAIM_MS,
        onSlack(slack),
      );
      races.push({ id: root.id, from, seen: preciseNow() });
    }
    const raceCpuMs = bots.reduce((sum, bot, k) => sum + cpuMsOf(bot.pid) - cpuBefore[k]!, 0);
    const payCalls = sandbox.calls.slice(paymentsBefore);
    const raceSlack = slack.calls.slice(slackBefore);
    const records = await Promise.all(roots.map((r) => opened.approvals.get(r.id)));
    const done = records.filter((r) => r?.state === 'done' && r.approvedBy?.length === 2).length;
    const untold = roots.filter((r) => [0, 1].every((k) => slack.responsesTo(`second-${k}-${r.id}`).length === 0)).length;

    // Item 2: the two bots again, polling every second, the sandbox's webhooks to one of them; the ends
    // all due at once (the sandbox's clock past the confirm delay).
    await Promise.all(bots.map((bot) => bot.stop()));
    bots = [await startBotProcess(env(EVERY_SECOND)), await startBotProcess(env(EVERY_SECOND))];
    sandbox.webhooks.setTarget(`http://127.0.0.1:${bots[0]!.port}${PIX_WEBHOOK_PATH}`);
    const endsFrom = preciseNow();
    const endsStarted = new Date();
    await control('/sandbox/clock', { advanceMs: CONFIRM_DELAY_MS });
    const ids = new Set(roots.map((r) => r.id));
    const endReplies = () =>
      slack.messages.filter(
        (m) => m.metadata?.event_payload?.notice === END_NOTICE && ids.has(String(m.metadata.event_payload.approval_id)),
      );
    await until(
      `${PAYMENTS} ends posted`,
      () => new Set(endReplies().map(approvalOf)).size >= PAYMENTS,
      WAIT_MARGIN * PHASE_2_MS,
      onSlack(slack),
    );
    const endsMs = preciseNow() - endsFrom;
    // Then nothing left to post: every payment's reply recorded, no webhook waiting in the outbox.
    const payments = moneyOutRecords(opened.records);
    await until(
      'every end recorded as posted',
      async () => {
        const all = await Promise.all(roots.map((r) => payments.get(r.id)));
        return all.every((r) => r?.replied === true) && (await opened.pixEvents.pending()).length === 0;
      },
      WAIT_MARGIN * PHASE_2_MS,
      { everyMs: POLL_EVERY_S * 1000 },
    );
    const replies = endReplies();
    const perPayment = new Map<string, number>();
    for (const m of replies) perPayment.set(approvalOf(m), (perPayment.get(approvalOf(m)) ?? 0) + 1);
    // The sandbox keeps its latest 1,000 attempts: what it did not answer in time it sent again.
    const attempts = sandbox.webhooks.deliveries.filter((d) => d.event.includes('MOVEMENT_'));
    const unanswered = attempts.filter((d) => d.status < 200 || d.status >= 300).length;
    // One audit entry per end, by the path that moved its record (src/payments/settle.ts).
    const ends = (await auditSince(opened, endsStarted)).filter((e) => e.action === 'payment:confirmed');
    const endedBy = (source: string) => ends.filter((e) => e.detail?.endsWith(`(by ${source})`)).length;

    // Every creation and approval, whichever phase made it.
    const creations = sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/payment');
    const approvals = sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/payment/approve');
    const correlationIds = (calls: SandboxCall[]) => new Set(calls.map((c) => (c.body as { correlationID?: string }).correlationID));
    const sameIds = (set: Set<unknown>) => set.size === ids.size && [...ids].every((id) => set.has(id));

    const costs = races.map((race) => beyondCalls(race, raceSlack, payCalls));
    const handling = costs.map((c) => c.beyond);
    return [
      countsFigure({
        name: `money out: second approvals raced on 2 instances (${PAYMENTS}, the same checker's click on each): creations / approvals at the Pix API`,
        value: `${creations.length} / ${approvals.length} (${correlationIds(creations).size} / ${correlationIds(approvals).size} correlationIDs; ${done} done, ${PAYMENTS - untold} told the other click)`,
        bound: `${PAYMENTS} / ${PAYMENTS}, each once`,
        ok:
          creations.length === PAYMENTS &&
          approvals.length === PAYMENTS &&
          sameIds(correlationIds(creations)) &&
          sameIds(correlationIds(approvals)) &&
          done === PAYMENTS,
      }),
      absoluteFigure({
        name: 'money out: one payment’s handling beyond its Pix and Slack calls (the raced second approval), p95',
        value: percentile(handling, 95),
        unit: 'ms',
        op: '≤',
        bound: P95_BOUND_MS,
        digits: 1,
        detail: `median ${percentile(handling, 50).toFixed(1)}; whole p95 ${percentile(
          costs.map((c) => c.whole),
          95,
        ).toFixed(1)}, of it Pix ${percentile(
          costs.map((c) => c.pix),
          95,
        ).toFixed(1)} and Slack ${percentile(
          costs.map((c) => c.slack),
          95,
        ).toFixed(1)}`,
      }),
      countsFigure({
        name: `money out: ${PAYMENTS} payments to ${KEYS} keys asked on one instance: key look-ups (POST /api/v1/pix-keys/check)`,
        value: `${checks.length} (${checkedKeys.size} keys; ${tokenReads} token reads)`,
        bound: `${KEYS}, one a key`,
        ok: checks.length === KEYS && checkedKeys.size === KEYS,
      }),
      countsFigure({
        name: `money out: ${PAYMENTS} ends by webhook and by poll together (2 instances polling every ${POLL_EVERY_S} s): replies in the threads`,
        value: `${replies.length} (${perPayment.size} payments; ended by webhook ${endedBy('webhook')}, by poll ${endedBy('poll')} (${ends.length} audited); of the sandbox's last ${attempts.length} webhook attempts ${unanswered} unanswered within its 1 s, sent again; the last in ${(endsMs / 1000).toFixed(1)} s)`,
        bound: `${PAYMENTS}, each once`,
        ok:
          replies.length === PAYMENTS &&
          perPayment.size === PAYMENTS &&
          [...perPayment.values()].every((n) => n === 1) &&
          ends.length === PAYMENTS,
      }),
      // What the two bot processes used of the CPU while the 200 races ran (the winner's work and the other click's).
      infoFigure('money out: CPU of a raced second approval, both instances', `${(raceCpuMs / PAYMENTS).toFixed(1)} ms`),
      infoFigure(
        'money out: Slack / Pix calls of one raced second approval (median)',
        `${percentile(
          costs.map((c) => c.slackCalls),
          50,
        )} / ${percentile(
          costs.map((c) => c.pixCalls),
          50,
        )}`,
      ),
    ];
  } finally {
    await Promise.all(bots.map((bot) => bot.stop()));
    await store?.close();
    await sandbox.close();
    await slack.close();
    await dropNamespace(namespace);
  }
});

/** The pay form itself (not its loading or progress views): its inputs. */
const isForm = (view: View | undefined) => view?.callback_id === PAY_CALLBACK && view.blocks.some((b) => b.type === 'input');

/** The audit trail's entries since `since`, page by page. */
async function auditSince(store: Store, since: Date): Promise<StoredAuditEntry[]> {
  const entries: StoredAuditEntry[] = [];
  for (let before: string | undefined; ; ) {
    const page = await store.audit.page({ since, limit: AUDIT_PAGE, ...(before === undefined ? {} : { before }) });
    entries.push(...page);
    if (page.length < AUDIT_PAGE) return entries;
    before = page.at(-1)!.id;
  }
}

/** A root Slack took: an approval's, with its id in its metadata. */
const isRoot = (c: SlackApiCall) =>
  c.method === 'chat.postMessage' &&
  (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_approval' &&
  (c.response as { ok?: boolean } | undefined)?.ok === true;

const approvalOf = (m: StoredMessage) => String(m.metadata?.event_payload?.approval_id);

/**
 * One raced approval's handling: from its clicks leaving to its last Slack or Pix call answered (the
 * calls that arrived while it ran: one payment at a time, nothing else running), less the time the
 * stand-in and the sandbox spent on those calls (from each one's arrival to its answer, overlapping
 * calls counted once).
 */
function beyondCalls(race: Race, slack: SlackApiCall[], pix: SandboxCall[]) {
  const inWindow = <T extends { receivedAt: number; answeredAt?: number }>(calls: T[]) =>
    calls.filter((c) => c.receivedAt >= race.from && c.receivedAt <= race.seen);
  const slackCalls = inWindow(slack);
  const pixCalls = inWindow(pix);
  const to = Math.max(...[...slackCalls, ...pixCalls].map((c) => c.answeredAt ?? race.seen));
  const spent = (calls: Array<{ receivedAt: number; answeredAt?: number }>) =>
    union(calls.map((c) => [c.receivedAt, Math.min(c.answeredAt ?? to, to)] as const));
  const slackMs = spent(slackCalls);
  const pixMs = spent(pixCalls);
  const both = spent([...slackCalls, ...pixCalls]);
  return {
    whole: to - race.from,
    beyond: to - race.from - both,
    slack: slackMs,
    pix: pixMs,
    slackCalls: slackCalls.length,
    pixCalls: pixCalls.length,
  };
}

/** The length of a union of intervals. */
function union(intervals: ReadonlyArray<readonly [number, number]>): number {
  let total = 0;
  let reached = -Infinity;
  for (const [start, end] of [...intervals].sort((x, y) => x[0] - y[0])) {
    const from = Math.max(start, reached);
    if (end > from) total += end - from;
    reached = Math.max(reached, end);
  }
  return total;
}
