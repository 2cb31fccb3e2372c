import type { Deps } from '../src/deps';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { noticeMetadata, postOnce } from '../src/slack/post-once';
import type { AccountApp } from '../src/store/account-apps';
import { escapeMrkdwn, presentMessage, type SlackMessage } from '../views/message';

/**
 * Stored for a campaign account between its creation and its application's: an empty AppID. It marks
 * the account as one of ours still waiting for its application, so a retry creates only that.
 */
export const PENDING_APP_ID = '';

export function isPending(app: AccountApp | undefined): boolean {
  return app !== undefined && app.appId === PENDING_APP_ID;
}

/** What every message the bot posts itself carries (the SANDBOX badge in sandbox mode). */
export const present = (deps: Deps, locale: Locale, message: SlackMessage): SlackMessage =>
  presentMessage(message, locale, deps.sandboxMode);

/**
 * Announces a change: a message in the channel where it was asked for (who did what, to which
 * account), or in the thread of the approval that ran it (`threadTs`). Not the audit trail (that is
 * `deps.audit`): the channel's own record of the change. Nothing secret ever goes in it. Everyone
 * in the channel reads it in the language of the person who made the change (`locale`). Posted
 * once (post-once.ts: no blind resend of a post whose answer was lost, which the app's retrying
 * client would make). Returns the posted message, or undefined if Slack refused (or whether it was
 * posted cannot be told).
 */
export async function postAnnouncement(
  deps: Deps,
  locale: Locale,
  channel: string,
  message: SlackMessage,
  threadTs?: string,
): Promise<{ channel: string; ts: string } | undefined> {
  try {
    const m = present(deps, locale, message);
    return await postOnce(
      deps.slack.exact,
      { channel, text: m.text, blocks: m.blocks, ...(threadTs ? { thread_ts: threadTs } : {}) },
      noticeMetadata(),
    );
  } catch (err) {
    deps.logger.warn({ channel, ...describeError(err) }, 'could not post an announcement');
    return undefined;
  }
}

/** Appended (after a line break) when the announcement could not be posted in the channel. */
export function announcementMissedText(locale: Locale, channel: string): string {
  return `\n${messages(locale).common.auditMissed(escapeMrkdwn(channel))}`;
}

/** Shows a message to one person in a channel (ephemeral). False when Slack refused. */
export async function postEphemeral(deps: Deps, locale: Locale, channel: string, user: string, message: SlackMessage): Promise<boolean> {
  try {
    const m = present(deps, locale, message);
    await deps.slack.retried.chat.postEphemeral({ channel, user, text: m.text, blocks: m.blocks });
    return true;
  } catch (err) {
    deps.logger.warn({ channel, user, ...describeError(err) }, 'could not post an ephemeral message');
    return false;
  }
}

export function logFailure(deps: Deps, err: unknown, what: string): void {
  if (err instanceof PixApiError) deps.logger.warn(describeError(err), 'Pix API call failed');
  else deps.logger.error(describeError(err), `could not ${what}`);
}

/** How long work in progress holds its claim: past it, a holder that died no longer blocks a retry. */
const EXCLUSIVE_TTL_MS = 5 * 60_000;
/** How long a submission is remembered as the one that proceeded: Slack retries within minutes. */
const ONCE_TTL_MS = 60 * 60_000;

/**
 * Runs `work` unless the same work (an account, a key) is already under way, on this instance or, on
 * Redis, any other: a double click, or two people at once, must not act twice.
 */
export async function exclusive<T>(deps: Deps, key: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const claim = `exclusive:${key}`;
  if (!(await deps.store.claim(claim, EXCLUSIVE_TTL_MS))) return { ran: false };
  try {
    return { ran: true, value: await work() };
  } finally {
    await deps.store.release(claim).catch(() => undefined);
  }
}

/**
 * True the first time `key` is claimed, on any instance. A modal submitted past its checks is replaced
 * by a progress view with no submit button, so a second submission of the same view is a repeat.
 */
export function claimOnce(deps: Deps, key: string): Promise<boolean> {
  return deps.store.claim(`once:${key}`, ONCE_TTL_MS);
}

export type AppIdResolution = { ok: true; appId: string; source: 'stored' | 'main'; stored?: AccountApp } | { ok: false; text: string };

export function noAppIdText(locale: Locale, accountId: string): string {
  return messages(locale).accounts.noAppIdKnown({ account: `\`${escapeMrkdwn(accountId)}\``, accountId: escapeMrkdwn(accountId) });
}

export function pendingAppText(locale: Locale, accountId: string): string {
  return messages(locale).accounts.pendingApp({ account: `\`${escapeMrkdwn(accountId)}\``, accountId: escapeMrkdwn(accountId) });
}

/**
 * The AppID of the account that owns the keys: the one stored for it, or PIX_APP_ID for the default
 * account (found with the account list). Pix API errors of that list are thrown; the other failures
 * come back as text in the reader's language.
 */
export async function resolveAccountAppId(deps: Deps, locale: Locale, accountId: string): Promise<AppIdResolution> {
  deps.audit.about({ account: accountId });
  const stored = await deps.store.accountApps.get(accountId);
  if (stored?.staleSince)
    return {
      ok: false,
      text: messages(locale).accounts.staleAppId({ account: `\`${escapeMrkdwn(accountId)}\``, accountId: escapeMrkdwn(accountId) }),
    };
  if (stored && !isPending(stored)) return { ok: true, appId: stored.appId, source: 'stored', stored };
  const accounts = await deps.pix.listAccounts(deps.mainAppId);
  const account = accounts.find((a) => a.accountId === accountId);
  if (!account) return { ok: false, text: messages(locale).accounts.notAmongAccounts(`\`${escapeMrkdwn(accountId)}\``) };
  if (account.isDefault === true) return { ok: true, appId: deps.mainAppId, source: 'main' };
  return { ok: false, text: isPending(stored) ? pendingAppText(locale, accountId) : noAppIdText(locale, accountId) };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
