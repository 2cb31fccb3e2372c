import type { KnownBlock, ModalView } from '@slack/types';
import { maskPixKey } from '../src/domain/pix-key-mask';
import { type Locale, messages } from '../src/i18n';
import type { Account } from '../src/pix/schemas';
import type { AccountCreateMeta, AccountLinkMeta, AppRetry } from './carried';
import {
  balanceText,
  code,
  context,
  escapeClipped,
  escapeMrkdwn,
  fields,
  pageButtons,
  pageOf,
  type SlackMessage,
  sandboxNoteBlocks,
  section,
} from './message';
import { modalTitle } from './modal';

export const ACCOUNT_CREATE_CALLBACK = 'account_create';
export const ACCOUNT_LINK_CALLBACK = 'account_link';
/** "Retry creating the application" (its value: the account, the name, where its message is). */
export const APP_RETRY_ACTION_ID = 'account_app_retry';
/** "It has none: create it", after a creation whose outcome is unknown (the same value as the retry's). */
export const APP_CREATE_ANYWAY_ACTION_ID = 'account_app_create_anyway';
export const NAME_BLOCK = 'name';
export const APP_ID_BLOCK = 'app_id';

/** `/pix accounts` a page at a time: two blocks an account at most, within a message's 50. */
export const ACCOUNTS_PAGE_SIZE = 20;
/** Previous / Next of `/pix accounts` (their value is the page they lead to). */
export const ACCOUNTS_PREV_ACTION_ID = 'accounts_prev';
export const ACCOUNTS_NEXT_ACTION_ID = 'accounts_next';
/** A name (a campaign's) is shown whole up to this many characters, then cut with an ellipsis. */
export const NAME_MAX = 100;
/** The longest name a new campaign account may be given. */
export const CAMPAIGN_NAME_MAX = 80;

/** How the bot reaches an account's Pix keys: the AppID it knows for it, if any. */
export type AppStatus =
  | { kind: 'stored'; name?: string; clientId?: string }
  /** Stored, but refused by the Pix API since its application's secret was rotated: not used. */
  | { kind: 'stale'; name?: string; clientId?: string }
  | { kind: 'pending'; name?: string }
  | { kind: 'uncertain'; name?: string }
  | { kind: 'main' }
  | { kind: 'none' };

export const quoted = (text: string) => `“${escapeClipped(text, NAME_MAX)}”`;

/** A random key is `RANDOM` in `pixKeyWithdraw` and `EVP` in the key endpoints: the same thing. */
interface AppAnnouncement {
  userId: string;
  accountId: string;
  name: string;
  clientId?: string;
  stored: boolean;
}

export function keyTypeLabel(locale: Locale, type: string): string {
  const m = messages(locale).accounts;
  switch (type) {
    case 'RANDOM':
    case 'EVP':
      return m.randomKey;
    case 'EMAIL':
      return m.email;
    case 'PHONE':
      return m.phone;
    default:
      return escapeMrkdwn(type);
  }
}

/**
 * The withdraw key as the account read shows it; the field exists only where the API is enabled.
 * `masked` for a message the whole channel reads (see maskPixKey).
 */
export function withdrawKeyText(locale: Locale, account: Account, masked = false): string {
  const m = messages(locale).accounts;
  const key = account.pixKeyWithdraw;
  if (key === undefined) return m.withdrawNotReported;
  if (key === null) return m.withdrawNone;
  return `${code(masked ? maskPixKey(key.pixKey, key.type) : key.pixKey)} (${keyTypeLabel(locale, key.type)})`;
}

/** The balance in R$, or "not reported". */
function accountBalanceText(locale: Locale, account: Account): string {
  return account.balance ? balanceText(locale, account.balance) : messages(locale).common.notReported;
}

function appText(locale: Locale, accountId: string, app: AppStatus): string {
  const m = messages(locale).accounts;
  switch (app.kind) {
    case 'stored':
      return m.appStored(app.clientId ? code(app.clientId) : undefined);
    case 'stale':
      return messages(locale).approvalRules.appStale({
        clientId: app.clientId ? code(app.clientId) : undefined,
        accountId: escapeMrkdwn(accountId),
      });
    case 'pending':
      return m.appPending(escapeMrkdwn(accountId));
    case 'uncertain':
      return messages(locale).appCreation.statusUncertain(escapeMrkdwn(accountId));
    case 'main':
      return m.appMain;
    case 'none':
      return m.appNone(escapeMrkdwn(accountId));
  }
}

function campaignName(app: AppStatus): string | undefined {
  return app.kind === 'stored' || app.kind === 'stale' || app.kind === 'pending' || app.kind === 'uncertain' ? app.name : undefined;
}

function accountTitle(locale: Locale, account: Account, app: AppStatus): string {
  const m = messages(locale).accounts;
  const name = campaignName(app);
  return `${code(account.accountId)}${account.isDefault ? m.defaultAccount : ''}${name ? m.campaign(quoted(name)) : ''}`;
}

export interface AccountRow {
  account: Account;
  app: AppStatus;
}

/** `/pix accounts`: the company's accounts with their balance, flags and withdraw key, a page at a time. */
export function accountsMessage(locale: Locale, rows: AccountRow[], page = 1): SlackMessage {
  const m = messages(locale).accounts;
  if (rows.length === 0) return { text: m.none, blocks: [section(m.none)] };
  const p = pageOf(rows.length, ACCOUNTS_PAGE_SIZE, page);
  const blocks: KnownBlock[] = [section(m.listTitle(rows.length))];
  for (const { account, app } of rows.slice(p.start, p.end)) {
    const lines = [
      `*${accountTitle(locale, account, app)}*`,
      m.balanceLine(accountBalanceText(locale, account)),
      m.withdrawKeyLine(withdrawKeyText(locale, account)),
      m.keysManagedLine(appText(locale, account.accountId, app)),
    ];
    blocks.push(section(lines.join('\n')));
    if (account.withdrawBlocked === true) blocks.push(context(m.withdrawBlocked));
  }
  if (p.pages > 1) {
    blocks.push(
      context(m.listPage({ from: p.start + 1, to: p.end, total: rows.length, page: p.page, pages: p.pages })),
      ...pageButtons(locale, {
        blockId: 'accounts_nav',
        prev: ACCOUNTS_PREV_ACTION_ID,
        next: ACCOUNTS_NEXT_ACTION_ID,
        page: p.page,
        pages: p.pages,
        value: String,
      }),
    );
  }
  const blocked = rows.filter((r) => r.account.withdrawBlocked === true).length;
  return { text: m.listText({ count: rows.length, blocked }), blocks };
}

/** `/pix account <id>`: one account. */
export function accountMessage(locale: Locale, { account, app }: AccountRow): SlackMessage {
  const c = messages(locale).common;
  const m = messages(locale).accounts;
  const pairs: Array<[string, string]> = [
    [m.fieldBalance, accountBalanceText(locale, account)],
    [m.fieldDefault, account.isDefault === true ? c.yes : account.isDefault === false ? c.no : '—'],
    [m.fieldWithdrawKey, withdrawKeyText(locale, account)],
    [m.fieldKeysManaged, appText(locale, account.accountId, app)],
  ];
  if (account.taxId) pairs.push([m.fieldTaxId, code(account.taxId)]);
  const blocks: KnownBlock[] = [section(m.oneTitle(accountTitle(locale, account, app))), ...fields(pairs)];
  if (account.withdrawBlocked === true) blocks.push(section(m.withdrawBlocked));
  return {
    text: m.oneText({
      accountId: account.accountId,
      ...(account.balance ? { balance: balanceText(locale, account.balance) } : {}),
      blocked: account.withdrawBlocked === true,
    }),
    blocks,
  };
}

export function withSandboxNote(locale: Locale, blocks: KnownBlock[], sandbox: boolean): KnownBlock[] {
  return [...blocks, ...sandboxNoteBlocks(locale, sandbox)];
}

/** A modal that only shows text, with a Close button (and the sandbox note in sandbox mode). */
export function infoModal(locale: Locale, title: string, blocks: KnownBlock[], sandbox: boolean): ModalView {
  return {
    type: 'modal',
    title: modalTitle(title),
    close: { type: 'plain_text', text: messages(locale).common.close },
    blocks: withSandboxNote(locale, blocks, sandbox),
  };
}

/** The campaign-account form: opened at once, before any Pix API call. */
export function createAccountModal(locale: Locale, input: { meta: AccountCreateMeta; sandbox: boolean }): ModalView {
  const c = messages(locale).common;
  const m = messages(locale).accounts;
  return {
    type: 'modal',
    callback_id: ACCOUNT_CREATE_CALLBACK,
    title: modalTitle(m.createTitle),
    submit: { type: 'plain_text', text: m.createSubmit },
    close: { type: 'plain_text', text: c.cancel },
    private_metadata: JSON.stringify(input.meta),
    blocks: withSandboxNote(
      locale,
      [
        {
          type: 'input',
          block_id: NAME_BLOCK,
          label: { type: 'plain_text', text: m.campaignName },
          hint: { type: 'plain_text', text: m.campaignNameHint },
          element: { type: 'plain_text_input', action_id: 'name', min_length: 1, max_length: CAMPAIGN_NAME_MAX },
        },
        context(m.createNote),
      ],
      input.sandbox,
    ),
  };
}

/** The AppID form of `/pix account link`: the value is never shown back. */
export function linkModal(locale: Locale, input: { meta: AccountLinkMeta; sandbox: boolean; problem?: string }): ModalView {
  const c = messages(locale).common;
  const m = messages(locale).accounts;
  const blocks: KnownBlock[] = [section(m.linkIntro(code(input.meta.accountId)))];
  if (input.problem) blocks.push(section(`:x: ${input.problem}`));
  blocks.push({
    type: 'input',
    block_id: APP_ID_BLOCK,
    label: { type: 'plain_text', text: m.appIdLabel },
    hint: { type: 'plain_text', text: m.appIdHint },
    element: { type: 'plain_text_input', action_id: 'app_id', min_length: 8, max_length: 1000 },
  });
  return {
    type: 'modal',
    callback_id: ACCOUNT_LINK_CALLBACK,
    title: modalTitle(m.linkTitle),
    submit: { type: 'plain_text', text: m.linkSubmit },
    close: { type: 'plain_text', text: c.cancel },
    private_metadata: JSON.stringify(input.meta),
    blocks: withSandboxNote(locale, blocks, input.sandbox),
  };
}

export function progressBlocks(locale: Locale, step: string): KnownBlock[] {
  return [section(`:hourglass_flowing_sand: ${step}`), context(messages(locale).common.progressCloseNote)];
}

export function retryButton(locale: Locale, value: AppRetry): KnownBlock {
  return {
    type: 'actions',
    block_id: 'account_app_retry',
    elements: [
      {
        type: 'button',
        action_id: APP_RETRY_ACTION_ID,
        style: 'primary',
        text: { type: 'plain_text', text: messages(locale).accounts.retryButton },
        value: JSON.stringify(value),
      },
    ],
  };
}

/**
 * After a creation whose outcome is unknown: no plain retry (it could make a second application), but
 * this, behind Slack's confirmation dialog, for an admin who has looked and found none.
 * Limits of the dialog: title 100, text 300, buttons 30 characters
 * (https://docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object).
 */
export function createAnywayButton(locale: Locale, value: AppRetry): KnownBlock {
  const m = messages(locale).appCreation;
  const plainText = (text: string) => ({ type: 'plain_text' as const, text });
  return {
    type: 'actions',
    block_id: 'account_app_create_anyway',
    elements: [
      {
        type: 'button',
        action_id: APP_CREATE_ANYWAY_ACTION_ID,
        style: 'danger',
        text: plainText(m.anywayButton),
        value: JSON.stringify(value),
        confirm: {
          title: plainText(m.anywayTitle),
          text: plainText(m.anywayText),
          confirm: plainText(m.anywayConfirm),
          deny: plainText(messages(locale).common.cancel),
          style: 'danger',
        },
      },
    ],
  };
}

/** What the admin sees when the application may exist: why, how to find out, and the way out. */
export function uncertainBlocks(locale: Locale, input: { lead: string; accountId: string; value: AppRetry }): KnownBlock[] {
  return [
    section(input.lead),
    context(messages(locale).appCreation.note(escapeMrkdwn(input.accountId))),
    createAnywayButton(locale, input.value),
  ];
}

/** What the admin alone sees once: the new application's client secret (never stored, never posted). */
export function secretBlocks(
  locale: Locale,
  input: { accountId: string; clientId?: string; clientSecret?: string; unstoredAppId?: string },
): KnownBlock[] {
  const m = messages(locale).accounts;
  const blocks: KnownBlock[] = [
    section(m.hasApplication({ account: code(input.accountId), ...(input.clientId ? { clientId: code(input.clientId) } : {}) })),
  ];
  blocks.push(section(input.clientSecret ? m.clientSecret(input.clientSecret) : m.noClientSecret));
  if (input.unstoredAppId) blocks.push(section(m.unstoredAppId({ accountId: escapeMrkdwn(input.accountId), appId: input.unstoredAppId })));
  return blocks;
}

// Messages for the channel: who did what, to which account. Never a secret. Everyone reads them, in
// the language of the person who did it.

function storedNote(locale: Locale, input: { accountId: string; stored: boolean }): string {
  const m = messages(locale).accounts;
  return input.stored ? m.storedNote : m.notStoredNote(escapeMrkdwn(input.accountId));
}

export function accountAnnouncements(locale: Locale) {
  const m = messages(locale).accounts;
  const clientId = (id: string | undefined) => (id ? { clientId: code(id) } : {});
  // The account and its application exist: the same announcement, first time or after a retry.
  const appAnnouncement = (template: typeof m.auditCreated, input: AppAnnouncement): SlackMessage => {
    const text = template({
      user: `<@${input.userId}>`,
      account: code(input.accountId),
      name: quoted(input.name),
      ...clientId(input.clientId),
      note: storedNote(locale, input),
    });
    return { text, blocks: [section(`:bank: ${text}`)] };
  };
  return {
    created: (input: AppAnnouncement): SlackMessage => appAnnouncement(m.auditCreated, input),
    appFailed: (input: { userId: string; accountId: string; name: string; problem: string; retryValue: AppRetry }): SlackMessage => {
      const text = m.auditAppFailed({
        user: `<@${input.userId}>`,
        account: code(input.accountId),
        name: quoted(input.name),
        problem: input.problem,
      });
      return {
        text,
        blocks: [section(`:warning: ${text}`), context(m.appFailedNote), retryButton(locale, input.retryValue)],
      };
    },
    /** The account exists; its application may or may not: the channel is told, with the way out. */
    appUncertain: (input: { userId: string; accountId: string; name: string; reason: string; value: AppRetry }): SlackMessage => {
      const text = messages(locale).appCreation.auditUncertain({
        user: `<@${input.userId}>`,
        account: code(input.accountId),
        name: quoted(input.name),
        reason: input.reason,
      });
      return {
        text,
        blocks: [
          section(`:warning: ${text}`),
          context(messages(locale).appCreation.note(escapeMrkdwn(input.accountId))),
          createAnywayButton(locale, input.value),
        ],
      };
    },
    /** Replaces the failure message once the application exists, so its button cannot be used again. */
    appFailedResolved: (input: { accountId: string; name: string; byUserId: string; clientId?: string }): SlackMessage => {
      const text = m.auditResolved({
        account: code(input.accountId),
        name: quoted(input.name),
        ...clientId(input.clientId),
        user: `<@${input.byUserId}>`,
      });
      return { text, blocks: [section(`:white_check_mark: ${text}`)] };
    },
    appRetried: (input: AppAnnouncement): SlackMessage => appAnnouncement(m.auditRetried, input),
    linked: (input: { userId: string; accountId: string }): SlackMessage => {
      const text = m.auditLinked({ user: `<@${input.userId}>`, account: code(input.accountId) });
      return { text, blocks: [section(`:link: ${text}`)] };
    },
  };
}
