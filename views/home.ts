import type { Button, HomeView, KnownBlock, ModalView } from '@slack/types';
import { limitFieldLabel } from '../src/domain/limit-fields';
import { formatCents } from '../src/domain/money';
import { type Role, roleAllows } from '../src/domain/roles';
import { ageText } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';
import type { Account, LimitRequest, PixKey } from '../src/pix/schemas';
import type { DisputeRecord } from '../src/store/pix-events';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { type HomeApprovalItem, type HomeDelegation, homeApprovalBlocks } from './approvals';
import type { HomeKeys } from './carried';
import { helpMessage } from './help';
import { statusText } from './limit-request';
import { limitCents } from './limit-status';
import { balanceText, code, context, escapeMrkdwn, formatDateTime, sandboxNoteBlocks, section, sections } from './message';
import { modalTitle } from './modal';
import { failedPart, type Part } from './part';
import { openDisputesBlocks } from './pix-events';

export const HOME_ACTIONS = {
  limitRequest: 'home_limit_request',
  refresh: 'home_refresh',
  keys: 'home_pix_keys',
} as const;

/** How many of each list the Home tab shows (a Home view holds at most 100 blocks). */
export const HOME_MAX = { inReview: 10, decisions: 5, accounts: 15, approvals: 5 } as const;
/** How many Pix keys the Home tab's keys modal lists (in as many sections as they need). */
const KEYS_LISTED = 100;

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

function where(locale: Locale, data: HomeData, channel: string, ts: string | undefined): string {
  const m = messages(locale).home;
  const url = ts === undefined ? undefined : data.link(channel, ts);
  if (url) return `<${url}|${m.thread}>`;
  if (/^[CG][A-Z0-9]+$/.test(channel)) return m.threadIn(`<#${channel}>`);
  return `<https://slack.com/app_redirect?channel=${encodeURIComponent(channel)}|${m.thread}>`;
}

/** `Pix day R$ 5.000,00 → R$ 6.000,00`, for each requested field. */
function requestedText(locale: Locale, tracked: TrackedRequest): string {
  return Object.entries(tracked.requested)
    .map(([field, asked]) => {
      const now = tracked.current?.[field];
      return `${limitFieldLabel(field, locale)} ${now === undefined ? '' : `${formatCents(now, locale)} → `}*${formatCents(asked, locale)}*`;
    })
    .join(' · ');
}

function inReviewBlocks(locale: Locale, data: HomeData): KnownBlock[] {
  const m = messages(locale).home;
  const head = section(m.inReviewTitle);
  if (!data.inReview.ok) return [head, failedPart(locale, data.inReview)];
  const { items, total } = data.inReview.value;
  if (items.length === 0) return [head, context(m.inReviewNone)];
  const blocks: KnownBlock[] = [head];
  for (const r of items) {
    blocks.push(
      section(
        [
          m.inReviewLine({
            id: code(r.limitRequestId),
            account: code(r.accountId),
            age: ageText(r.createdAt, data.now, locale),
            user: `<@${r.requesterId}>`,
            where: where(locale, data, r.channel, r.rootTs),
          }),
          requestedText(locale, r),
        ].join('\n'),
      ),
    );
  }
  if (total > items.length) blocks.push(context(m.andMoreOldest(total - items.length)));
  return blocks;
}

function decisionBlocks(locale: Locale, data: HomeData): KnownBlock[] {
  const m = messages(locale).home;
  const money = (cents: number) => formatCents(cents, locale);
  const head = section(m.decisionsTitle);
  if (!data.decisions.ok) return [head, failedPart(locale, data.decisions)];
  if (data.decisions.value.length === 0) return [head, context(m.decisionsNone)];
  const blocks: KnownBlock[] = [head];
  for (const { request, tracked } of data.decisions.value) {
    const requested = limitCents(request.requestedLimits);
    const approved = request.status === 'APPROVED' ? limitCents(request.approvedLimits) : {};
    const amounts = Object.entries(requested)
      .slice(0, 3)
      .map(([field, asked]) => {
        const label = limitFieldLabel(field, locale);
        const granted = approved[field];
        if (request.status !== 'APPROVED') return m.asked({ label, amount: money(asked) });
        if (granted === undefined) return m.askedNoneGranted({ label, amount: money(asked) });
        return granted < asked
          ? m.grantedBelow({ label, amount: money(granted), asked: money(asked) })
          : m.granted({ label, amount: money(granted) });
      })
      .join(' · ');
    const decided = request.updatedAt ? m.decided(formatDateTime(request.updatedAt, locale)) : '';
    const thread = tracked ? where(locale, data, tracked.channel, tracked.rootTs) : '';
    blocks.push(
      section(
        [
          `${statusText(locale, request.status)} · ${code(request.id)} · ${m.account(code(request.companyBankAccountId))}${decided ? ` · ${decided}` : ''}${thread ? ` · ${thread}` : ''}`,
          amounts,
        ]
          .filter(Boolean)
          .join('\n'),
      ),
    );
  }
  return blocks;
}

function keysButton(locale: Locale, account: Account): Button {
  const value: HomeKeys = { accountId: account.accountId, isDefault: account.isDefault === true };
  return {
    type: 'button',
    action_id: HOME_ACTIONS.keys,
    text: { type: 'plain_text', text: messages(locale).home.keysButton },
    value: JSON.stringify(value),
  };
}

function accountBlocks(locale: Locale, data: HomeData): KnownBlock[] {
  const m = messages(locale).home;
  const head = section(m.accountsTitle);
  if (!data.accounts.ok) return [head, failedPart(locale, data.accounts)];
  const accounts = data.accounts.value;
  if (accounts.length === 0) return [head, context(m.accountsNone)];
  const blocks: KnownBlock[] = [head];
  const sorted = [...accounts].sort((a, b) => Number(b.isDefault === true) - Number(a.isDefault === true));
  for (const a of sorted.slice(0, HOME_MAX.accounts)) {
    const lines = [`${code(a.accountId)}${a.isDefault ? m.defaultTag : ''}`];
    if (a.balance) {
      lines.push(messages(locale).accounts.balanceLine(balanceText(locale, a.balance)));
    } else {
      lines.push(m.noBalance);
    }
    if (a.pixKeyWithdraw)
      lines.push(m.withdrawKey({ key: escapeMrkdwn(a.pixKeyWithdraw.pixKey), type: escapeMrkdwn(a.pixKeyWithdraw.type) }));
    if (a.withdrawBlocked) lines.push(m.withdrawBlocked);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') }, accessory: keysButton(locale, a) });
  }
  if (accounts.length > HOME_MAX.accounts) blocks.push(context(m.accountsMore(accounts.length - HOME_MAX.accounts)));
  return blocks;
}

/** The Home tab of a user with a role, in their language: the buttons their role allows, requests, decisions, accounts. */
/** The approvals a viewer may act on (decide, or cancel their own), oldest first; shown when approvals are on or some wait. */
export interface HomeApprovals {
  items: HomeApprovalItem[];
  /** The viewer's delegation while away, and whom they decide for. */
  delegation?: HomeDelegation;
  approversListed: boolean;
  /** APPROVALS names at least one action. */
  enabled: boolean;
  /** The payments and withdrawals among `items`: those waiting for the viewer's decision, and the viewer's own (cents). */
  moneyOut?: { forYou: MoneyWaiting; yours: MoneyWaiting };
}

/** Payments and withdrawals waiting: how many, and their total in cents. */
export interface MoneyWaiting {
  count: number;
  total: number;
}

/** The money waiting, in one section above the list that shows each with its buttons; none when nothing waits. */
function moneyOutWaitingBlocks(locale: Locale, money: HomeApprovals['moneyOut']): KnownBlock[] {
  if (!money || money.forYou.count + money.yours.count === 0) return [];
  const m = messages(locale).paymentEnd;
  const total = (w: MoneyWaiting) => ({ n: w.count, total: formatCents(w.total, locale) });
  const lines = [m.homeTitle];
  if (money.forYou.count > 0) lines.push(m.homeForYou(total(money.forYou)));
  if (money.yours.count > 0) lines.push(m.homeYours(total(money.yours)));
  lines.push(m.homeHint);
  return [section(lines.join('\n'))];
}

function approvalBlocks(locale: Locale, userId: string, data: HomeData, approvals: Part<HomeApprovals> | undefined): KnownBlock[] {
  if (!approvals) return [];
  if (!approvals.ok) return [section(messages(locale).approvals.homeTitle), failedPart(locale, approvals), { type: 'divider' }];
  const { items, enabled, approversListed, delegation, moneyOut } = approvals.value;
  if (!enabled && items.length === 0) return [];
  return [
    ...moneyOutWaitingBlocks(locale, moneyOut),
    ...homeApprovalBlocks(locale, {
      viewerId: userId,
      items: items.slice(0, HOME_MAX.approvals),
      total: items.length,
      now: data.now,
      approversListed,
      ...(delegation ? { delegation } : {}),
    }),
    { type: 'divider' },
  ];
}

/** The open Pix disputes, when the dispute desk is on (PIX_EVENTS_CHANNEL). */
function disputeBlocks(locale: Locale, disputes: Part<DisputeRecord[]> | undefined): KnownBlock[] {
  if (!disputes) return [];
  if (!disputes.ok) return [section(messages(locale).pixEvents.homeTitle), failedPart(locale, disputes), { type: 'divider' }];
  return [...openDisputesBlocks(locale, { disputes: disputes.value, max: 10 }), { type: 'divider' }];
}

export function homeView(
  locale: Locale,
  input: {
    userId: string;
    role: Role;
    data: HomeData;
    sandbox: boolean;
    approvals?: Part<HomeApprovals>;
    disputes?: Part<DisputeRecord[]>;
  },
): HomeView {
  const m = messages(locale).home;
  const buttons: Button[] = [];
  if (roleAllows(input.role, 'operator')) {
    buttons.push({
      type: 'button',
      action_id: HOME_ACTIONS.limitRequest,
      style: 'primary',
      text: { type: 'plain_text', text: m.requestButton },
      value: 'default',
    });
  }
  buttons.push({ type: 'button', action_id: HOME_ACTIONS.refresh, text: { type: 'plain_text', text: m.refreshButton }, value: 'refresh' });

  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: m.header } },
    context(m.intro({ role: messages(locale).common.role(input.role), updated: formatDateTime(input.data.now.toISOString(), locale) })),
    { type: 'actions', block_id: 'home_actions', elements: buttons },
    { type: 'divider' },
    ...approvalBlocks(locale, input.userId, input.data, input.approvals),
    ...disputeBlocks(locale, input.disputes),
    ...inReviewBlocks(locale, input.data),
    { type: 'divider' },
    ...decisionBlocks(locale, input.data),
    { type: 'divider' },
    ...accountBlocks(locale, input.data),
    ...sandboxNoteBlocks(locale, input.sandbox),
  ];
  return { type: 'home', blocks: blocks.slice(0, 100) };
}

/** The Home tab of a user with no role: only how to get access (their user ID, which variable). */
export function accessHomeView(locale: Locale, input: { userId: string; accessConfigured: boolean; sandbox: boolean }): HomeView {
  const help = helpMessage(locale, { userId: input.userId, role: undefined, accessConfigured: input.accessConfigured, entries: [] });
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: messages(locale).home.header } },
    ...help.blocks,
    ...sandboxNoteBlocks(locale, input.sandbox),
  ];
  return { type: 'home', blocks };
}

/** The Pix keys of an account, read-only, from the Home tab. */
export function keysModal(locale: Locale, input: { accountId: string; keys?: PixKey[]; problem?: string; sandbox: boolean }): ModalView {
  const m = messages(locale).home;
  const blocks: KnownBlock[] = [section(m.keysTitle(code(input.accountId)))];
  if (input.problem) blocks.push(section(input.problem));
  else if (!input.keys) blocks.push(section(m.keysLoading));
  else if (input.keys.length === 0) blocks.push(section(m.keysNone));
  else blocks.push(...sections(input.keys.slice(0, KEYS_LISTED).map((k) => `• ${code(k.key)} (${escapeMrkdwn(k.type)})`)));
  if (input.keys && input.keys.length > KEYS_LISTED) blocks.push(context(messages(locale).common.andMore(input.keys.length - KEYS_LISTED)));
  blocks.push(context(m.keysHowTo(escapeMrkdwn(input.accountId))), ...sandboxNoteBlocks(locale, input.sandbox));
  return { type: 'modal', title: modalTitle(m.keysModalTitle), close: { type: 'plain_text', text: messages(locale).common.close }, blocks };
}
