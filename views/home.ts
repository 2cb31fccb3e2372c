import type { Button, HomeView, KnownBlock, ModalView } from '@slack/types';
import { roleAllows, type Role } from '../src/access';
import { limitFieldLabel } from '../src/limits';
import { formatCents } from '../src/money';
import type { Account, LimitRequest, PixKey } from '../src/pix/schemas';
import { ageText } from '../src/sao-paulo-date';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { helpMessage } from './help';
import { statusText } from './limit-request';
import { formatDateTime, limitCents } from './limit-status';
import { context, escapeMrkdwn, section } from './message';
import { modalTitle } from './modal';

export const HOME_ACTIONS = {
  limitRequest: 'home_limit_request',
  refresh: 'home_refresh',
  keys: 'home_pix_keys',
} as const;

/** How many of each list the Home tab shows (a Home view holds at most 100 blocks). */
export const HOME_MAX = { inReview: 10, decisions: 5, accounts: 15 } as const;

/** A section of the Home tab: what was read, or why it could not be. */
export type Part<T> = { ok: true; value: T } | { ok: false; error: string };

export interface Decision {
  request: LimitRequest;
  /** Set when Pix Ops follows the request: where its thread is. */
  tracked?: TrackedRequest;
}

export interface HomeData {
  now: Date;
  inReview: Part<{ items: TrackedRequest[]; total: number }>;
  decisions: Part<Decision[]>;
  accounts: Part<Account[]>;
  /** A link to a message (its permalink), or undefined when none can be made. */
  link(channel: string, ts: string): string | undefined;
}

const SANDBOX_NOTE = ':test_tube: *SANDBOX*: a local test Pix API, no real accounts or money.';

function where(data: HomeData, channel: string, ts: string): string {
  const url = data.link(channel, ts);
  if (url) return `<${url}|thread>`;
  if (/^[CG][A-Z0-9]+$/.test(channel)) return `thread in <#${channel}>`;
  return `<https://slack.com/app_redirect?channel=${encodeURIComponent(channel)}|thread>`;
}

/** `Pix day R$ 5.000,00 → R$ 6.000,00`, for each requested field. */
function requestedText(tracked: TrackedRequest): string {
  return Object.entries(tracked.requested)
    .map(([field, asked]) => {
      const now = tracked.current?.[field];
      return `${limitFieldLabel(field)} ${now === undefined ? '' : `${formatCents(now)} → `}*${formatCents(asked)}*`;
    })
    .join(' · ');
}

function inReviewBlocks(data: HomeData): KnownBlock[] {
  const head = section('*Limit requests in review* that Pix Ops follows');
  if (!data.inReview.ok) return [head, context(`:warning: ${data.inReview.error}`)];
  const { items, total } = data.inReview.value;
  if (items.length === 0) return [head, context('None right now. Requests filed with `/pix limit request` (or followed from `/pix limit status`) appear here.')];
  const blocks: KnownBlock[] = [head];
  for (const r of items) {
    blocks.push(
      section(
        [
          `\`${escapeMrkdwn(r.limitRequestId)}\` · account \`${escapeMrkdwn(r.accountId)}\` · filed ${ageText(r.createdAt, data.now)} by <@${r.requesterId}> · ${where(data, r.channel, r.rootTs)}`,
          requestedText(r),
        ].join('\n'),
      ),
    );
  }
  if (total > items.length) blocks.push(context(`And ${total - items.length} more, oldest shown first.`));
  return blocks;
}

function decisionBlocks(data: HomeData): KnownBlock[] {
  const head = section('*Latest decisions*');
  if (!data.decisions.ok) return [head, context(`:warning: ${data.decisions.error}`)];
  if (data.decisions.value.length === 0) return [head, context('No decided limit requests yet.')];
  const blocks: KnownBlock[] = [head];
  for (const { request, tracked } of data.decisions.value) {
    const requested = limitCents(request.requestedLimits);
    const approved = request.status === 'APPROVED' ? limitCents(request.approvedLimits) : {};
    const amounts = Object.entries(requested)
      .slice(0, 3)
      .map(([field, asked]) => {
        const granted = approved[field];
        if (request.status !== 'APPROVED') return `${limitFieldLabel(field)} asked ${formatCents(asked)}`;
        if (granted === undefined) return `${limitFieldLabel(field)} asked ${formatCents(asked)}, none granted`;
        return `${limitFieldLabel(field)} *${formatCents(granted)}*${granted < asked ? ` (asked ${formatCents(asked)}) :warning:` : ''}`;
      })
      .join(' · ');
    const decided = request.updatedAt ? `decided ${formatDateTime(request.updatedAt)}` : '';
    const thread = tracked ? where(data, tracked.channel, tracked.rootTs) : '';
    blocks.push(
      section(
        [
          `${statusText(request.status)} · \`${escapeMrkdwn(request.id)}\` · account \`${escapeMrkdwn(request.companyBankAccountId)}\`${decided ? ` · ${decided}` : ''}${thread ? ` · ${thread}` : ''}`,
          amounts,
        ]
          .filter(Boolean)
          .join('\n'),
      ),
    );
  }
  return blocks;
}

function keysButton(account: Account): Button {
  return {
    type: 'button',
    action_id: HOME_ACTIONS.keys,
    text: { type: 'plain_text', text: 'Pix keys' },
    value: JSON.stringify({ a: account.accountId, d: account.isDefault === true }),
  };
}

function accountBlocks(data: HomeData): KnownBlock[] {
  const head = section('*Accounts*');
  if (!data.accounts.ok) return [head, context(`:warning: ${data.accounts.error}`)];
  const accounts = data.accounts.value;
  if (accounts.length === 0) return [head, context('The Pix API lists no accounts.')];
  const blocks: KnownBlock[] = [head];
  const sorted = [...accounts].sort((a, b) => Number(b.isDefault === true) - Number(a.isDefault === true));
  for (const a of sorted.slice(0, HOME_MAX.accounts)) {
    const lines = [`\`${escapeMrkdwn(a.accountId)}\`${a.isDefault ? ' (default)' : ''}`];
    if (a.balance) {
      lines.push(`Available *${formatCents(a.balance.available)}* · total ${formatCents(a.balance.total)} · blocked ${formatCents(a.balance.blocked)}`);
    } else {
      lines.push('_No balance in the answer._');
    }
    if (a.pixKeyWithdraw) lines.push(`Withdraw key: ${escapeMrkdwn(a.pixKeyWithdraw.pixKey)} (${escapeMrkdwn(a.pixKeyWithdraw.type)})`);
    if (a.withdrawBlocked) lines.push(':warning: *Withdraw blocked*: its withdraw Pix key was not found in the DICT.');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') }, accessory: keysButton(a) });
  }
  if (accounts.length > HOME_MAX.accounts) blocks.push(context(`And ${accounts.length - HOME_MAX.accounts} more: \`/pix accounts\` lists them all.`));
  return blocks;
}

/** The Home tab of a user with a role: the buttons their role allows, requests, decisions, accounts. */
export function homeView(input: { userId: string; role: Role; data: HomeData; sandbox: boolean }): HomeView {
  const buttons: Button[] = [];
  if (roleAllows(input.role, 'operator')) {
    buttons.push({ type: 'button', action_id: HOME_ACTIONS.limitRequest, style: 'primary', text: { type: 'plain_text', text: 'Request a limit increase' }, value: 'default' });
  }
  buttons.push({ type: 'button', action_id: HOME_ACTIONS.refresh, text: { type: 'plain_text', text: 'Refresh' }, value: 'refresh' });

  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Pix Ops' } },
    context(`You are *${input.role}*. Updated ${formatDateTime(input.data.now.toISOString())} (Brasília time). \`/pix help\` lists every command.`),
    { type: 'actions', block_id: 'home_actions', elements: buttons },
    { type: 'divider' },
    ...inReviewBlocks(input.data),
    { type: 'divider' },
    ...decisionBlocks(input.data),
    { type: 'divider' },
    ...accountBlocks(input.data),
  ];
  if (input.sandbox) blocks.push(context(SANDBOX_NOTE));
  return { type: 'home', blocks: blocks.slice(0, 100) };
}

/** The Home tab of a user with no role: only how to get access (their user ID, which variable). */
export function accessHomeView(input: { userId: string; accessConfigured: boolean; sandbox: boolean }): HomeView {
  const help = helpMessage({ userId: input.userId, role: undefined, accessConfigured: input.accessConfigured, entries: [] });
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: 'Pix Ops' } }, ...help.blocks];
  if (input.sandbox) blocks.push(context(SANDBOX_NOTE));
  return { type: 'home', blocks };
}

/** The Pix keys of an account, read-only, from the Home tab. */
export function keysModal(input: { accountId: string; keys?: PixKey[]; problem?: string; sandbox: boolean }): ModalView {
  const blocks: KnownBlock[] = [section(`*Pix keys of account* \`${escapeMrkdwn(input.accountId)}\``)];
  if (input.problem) blocks.push(section(input.problem));
  else if (!input.keys) blocks.push(section(':hourglass_flowing_sand: Reading the keys…'));
  else if (input.keys.length === 0) blocks.push(section('_This account has no Pix keys._'));
  else blocks.push(section(input.keys.slice(0, 50).map((k) => `• \`${escapeMrkdwn(k.key)}\` (${escapeMrkdwn(k.type)})`).join('\n')));
  if (input.keys && input.keys.length > 50) blocks.push(context(`And ${input.keys.length - 50} more.`));
  blocks.push(context(`To add or delete keys: \`/pix keys ${escapeMrkdwn(input.accountId)}\`.`));
  if (input.sandbox) blocks.push(context(SANDBOX_NOTE));
  return { type: 'modal', title: modalTitle('Pix keys'), close: { type: 'plain_text', text: 'Close' }, blocks };
}
