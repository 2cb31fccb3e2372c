import type { Deps } from '../src/deps';
import { PixApiError } from '../src/pix/errors';
import type { AccountApp } from '../src/store/account-apps';
import { escapeMrkdwn, withSandboxBadge, type SlackMessage } from '../views/message';
import { pixErrorText } from '../views/errors';

/**
 * Stored for a campaign account between its creation and its application's: an empty AppID. It marks
 * the account as one of ours still waiting for its application, so a retry creates only that.
 */
export const PENDING_APP_ID = '';

export function isPending(app: AccountApp | undefined): boolean {
  return app !== undefined && app.appId === PENDING_APP_ID;
}

/** What every message the bot posts itself carries (the SANDBOX badge in sandbox mode). */
export function present(deps: Deps, message: SlackMessage): SlackMessage {
  return deps.sandboxMode ? withSandboxBadge(message) : message;
}

/** Slack's error code of a failed Web API call (`not_in_channel`, …), when it is one. */
export function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

const errText = (err: unknown) => slackErrorCode(err) ?? (err instanceof Error ? err.message : String(err));

/**
 * The audit trail: a message in the channel where the change was asked for (who did what, to which
 * account). Nothing secret ever goes in it. Returns the posted message, or undefined if Slack refused.
 */
export async function postAudit(deps: Deps, channel: string, message: SlackMessage): Promise<{ channel: string; ts: string } | undefined> {
  try {
    const m = present(deps, message);
    const res = await deps.slack.chat.postMessage({ channel, text: m.text, blocks: m.blocks });
    return res.ts ? { channel: res.channel ?? channel, ts: res.ts } : undefined;
  } catch (err) {
    deps.logger.warn({ channel, error: errText(err) }, 'could not post an audit message');
    return undefined;
  }
}

export function auditMissedText(channel: string): string {
  return `\n_I could not post this in <#${escapeMrkdwn(channel)}> for the record (invite me with \`/invite @Pix Ops\`)._`;
}

/** Shows a message to one person in a channel (ephemeral). False when Slack refused. */
export async function postEphemeral(deps: Deps, channel: string, user: string, message: SlackMessage): Promise<boolean> {
  try {
    const m = present(deps, message);
    await deps.slack.chat.postEphemeral({ channel, user, text: m.text, blocks: m.blocks });
    return true;
  } catch (err) {
    deps.logger.warn({ channel, user, error: errText(err) }, 'could not post an ephemeral message');
    return false;
  }
}

export function logFailure(deps: Deps, err: unknown, what: string): void {
  if (err instanceof PixApiError) deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
  else deps.logger.error({ err: err instanceof Error ? err.message : String(err) }, `could not ${what}`);
}

/** A failure in words: the Pix API's, or a plain "something went wrong". */
export function failureText(err: unknown, action: string, options: { write?: boolean } = {}): string {
  if (err instanceof PixApiError) return pixErrorText(err, action, options);
  return `Something went wrong while trying to ${action}.${options.write ? ' Check before trying again.' : ' Nothing more was done.'}`;
}

/** Work in progress per key (an account, a key, a view), per store: a double click must not act twice. */
const inFlight = new WeakMap<object, Set<string>>();

export async function exclusive<T>(deps: Deps, key: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  let busy = inFlight.get(deps.store);
  if (!busy) inFlight.set(deps.store, (busy = new Set()));
  if (busy.has(key)) return { ran: false };
  busy.add(key);
  try {
    return { ran: true, value: await work() };
  } finally {
    busy.delete(key);
  }
}

/** Claimed keys per store, the last 1,000: a view submitted past its checks is one that proceeded. */
const claimed = new WeakMap<object, Set<string>>();

/**
 * True the first time `key` is claimed. A modal submitted past its checks is replaced by a progress
 * view with no submit button, so a second submission of the same view is a repeated delivery.
 */
export function claimOnce(deps: Deps, key: string): boolean {
  let seen = claimed.get(deps.store);
  if (!seen) claimed.set(deps.store, (seen = new Set()));
  if (seen.has(key)) return false;
  seen.add(key);
  if (seen.size > 1_000) seen.delete(seen.values().next().value as string);
  return true;
}

export const ALREADY_SUBMITTED = 'This form was already submitted; its result is shown here and posted in the channel. Nothing more was done.';

export type AppIdResolution =
  | { ok: true; appId: string; source: 'stored' | 'main'; stored?: AccountApp }
  | { ok: false; text: string };

export function noAppIdText(accountId: string): string {
  return `No AppID is known for account \`${escapeMrkdwn(accountId)}\`, so I cannot manage its Pix keys. An admin can register it with \`/pix account link ${escapeMrkdwn(accountId)}\`.`;
}

export function pendingAppText(accountId: string): string {
  return `Account \`${escapeMrkdwn(accountId)}\` has no application yet (its creation failed). An admin can retry it with *Retry creating the application* in the channel, or register an AppID with \`/pix account link ${escapeMrkdwn(accountId)}\`.`;
}

/**
 * The AppID of the account that owns the keys: the one stored for it, or PIX_APP_ID for the default
 * account (found with the account list). Pix API errors of that list are thrown.
 */
export async function resolveAccountAppId(deps: Deps, accountId: string): Promise<AppIdResolution> {
  const stored = await deps.store.accountApps.get(accountId);
  if (stored && !isPending(stored)) return { ok: true, appId: stored.appId, source: 'stored', stored };
  const accounts = await deps.pix.listAccounts(deps.mainAppId);
  const account = accounts.find((a) => a.accountId === accountId);
  if (!account) return { ok: false, text: `Account \`${escapeMrkdwn(accountId)}\` is not among the company’s accounts (not found).` };
  if (account.isDefault === true) return { ok: true, appId: deps.mainAppId, source: 'main' };
  return { ok: false, text: isPending(stored) ? pendingAppText(accountId) : noAppIdText(accountId) };
}

/** Private metadata of a modal, or undefined when it does not read as expected. */
export function readJson<T>(raw: string | undefined, parse: (v: unknown) => T | undefined): T | undefined {
  try {
    return parse(JSON.parse(raw ?? ''));
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
