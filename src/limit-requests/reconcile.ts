import { escapeMrkdwn, presentMessage, section } from '../../views/message';
import type { Deps } from '../deps';
import { formatSaoPauloDateTime } from '../domain/sao-paulo-date';
import { describeError } from '../errors';
import { type Locale, messages } from '../i18n';
import type { LimitRequest } from '../pix/schemas';
import { postToUser } from '../slack/post-once';
import type { FilingIntent } from '../store/filing-intents';
import { FILING_CLAIM_MS, filingClaimKey, followFiled } from './follow';

/**
 * An intent with no matching request this long after it was recorded was never filed: the process
 * died before the request reached the API (or the API refused it). Longer than any filing call can
 * take, so a request still on its way is not mistaken for one never sent.
 */
export const INTENT_SETTLE_MS = 2 * 60_000;
/** The service's clock and the app's may differ: a request may look this much older than its intent. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** Pages of the company's requests (100 each, newest first) read at most on one pass. */
const MAX_LIST_PAGES = 10;
const PAGE_SIZE = 100;

/** `event_type` of the DM that tells a requester their request was not filed after all. */
const NOT_FILED_EVENT_TYPE = 'pix_limit_not_filed';

/**
 * Settles the filing intents left over by filings cut short (a crash, a kill, the store or Slack
 * failing after `POST /limits/request`): each intent that no filing holds any more is looked for in
 * the company's list of requests (`GET /api/v1/limits/request`, newest first). Found, the request is
 * followed as if its filing had finished (tracked, its root posted once, looked for first); not found
 * after INTENT_SETTLE_MS, its requester is told in a DM that it was not filed. Runs when the poller
 * starts and at the start of every tick; each intent is claimed while it is settled, so a filing in
 * progress, or another instance, is left alone. Failures are logged and the intent stays for later.
 */
export async function reconcileIntents(deps: Deps): Promise<number> {
  const intents = await deps.store.filingIntents.list();
  if (intents.length === 0) return 0;
  let listed: LimitRequest[] | undefined;
  let settled = 0;
  for (const intent of intents) {
    const key = filingClaimKey(intent.intentId);
    if (!(await deps.store.claim(key, FILING_CLAIM_MS))) continue;
    try {
      if (!listed) {
        try {
          listed = await listSince(deps, Date.parse(intents[0]!.createdAt) - CLOCK_SKEW_MS);
        } catch (err) {
          deps.logger.warn(
            { intents: intents.length, ...describeError(err) },
            'could not list the company’s limit requests; filing intents wait for a later tick',
          );
          return settled;
        }
      }
      const request = matchIntent(listed, intent);
      const locale = await deps.slack.locales.localeOf(intent.requesterId);
      if (request) {
        const outcome = await followFiled(deps, { intent, request, locale, lookFirst: true });
        if (outcome.tracked) settled++;
        deps.logger.info(
          { intentId: intent.intentId, limitRequestId: request.id, tracked: outcome.tracked, root: Boolean(outcome.root) },
          'filing intent reconciled: the request is followed',
        );
      } else if (Date.now() - Date.parse(intent.createdAt) >= INTENT_SETTLE_MS) {
        await tellNotFiled(deps, intent, locale);
        await deps.store.filingIntents.delete(intent.intentId);
        settled++;
        deps.logger.warn(
          { intentId: intent.intentId, accountId: intent.accountId },
          'filing intent reconciled: the request was never filed; its requester is told',
        );
      }
    } catch (err) {
      deps.logger.warn(
        { intentId: intent.intentId, ...describeError(err) },
        'could not reconcile a filing intent; a later tick tries again',
      );
    } finally {
      await deps.store.release(key).catch(() => undefined);
    }
  }
  return settled;
}

/**
 * At start, before the first tick: the filings a previous run left cut short are settled. Never
 * rejects: a failure is logged, and the next tick tries again.
 */
export async function settleLeftFilings(deps: Deps): Promise<void> {
  try {
    await reconcileIntents(deps);
  } catch (err) {
    deps.logger.warn(describeError(err), 'could not list the filing intents at start; the next tick tries again');
  }
}

/** The company's requests created since `sinceMs` (by their `createdAt`; all of a page without one). */
export async function listSince(deps: Deps, sinceMs: number): Promise<LimitRequest[]> {
  const out: LimitRequest[] = [];
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const { items } = await deps.pix.listLimitRequests(deps.mainAppId, { limit: PAGE_SIZE, skip: page * PAGE_SIZE });
    out.push(...items);
    const last = items.at(-1);
    if (items.length < PAGE_SIZE || (last?.createdAt && Date.parse(last.createdAt) < sinceMs)) break;
  }
  return out;
}

/**
 * The request an intent filed: same account, created after the intent (give or take the clocks'
 * difference), asking every amount the intent asked (when the list says what was asked). The account
 * has at most one request in review at a time, so among several the oldest is the intent's.
 */
export function matchIntent(listed: LimitRequest[], intent: FilingIntent): LimitRequest | undefined {
  const from = Date.parse(intent.createdAt) - CLOCK_SKEW_MS;
  const candidates = listed.filter((r) => {
    if (r.companyBankAccountId !== intent.accountId) return false;
    const created = Date.parse(r.createdAt ?? '');
    if (Number.isFinite(created) && created < from) return false;
    const asked = r.requestedLimits;
    return !asked || Object.entries(intent.requested).every(([field, cents]) => asked[field] === cents);
  });
  return candidates.at(-1);
}

async function tellNotFiled(deps: Deps, intent: FilingIntent, locale: Locale): Promise<void> {
  const m = messages(locale).tracking;
  const text = m.notFiled({
    account: `\`${escapeMrkdwn(intent.accountId)}\``,
    when: formatSaoPauloDateTime(intent.createdAt, locale) ?? intent.createdAt,
  });
  const message = presentMessage({ text: m.notFiledText, blocks: [section(text)] }, locale, deps.sandboxMode);
  await postToUser(
    deps.slack.exact,
    intent.requesterId,
    message,
    { event_type: NOT_FILED_EVENT_TYPE, event_payload: { intent_id: intent.intentId } },
    {
      lookFirst: true,
      since: Date.parse(intent.createdAt),
    },
  );
}
