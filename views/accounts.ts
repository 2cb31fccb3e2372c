import type { KnownBlock, ModalView } from '@slack/types';
import { formatCents } from '../src/money';
import type { Account } from '../src/pix/schemas';
import { context, escapeMrkdwn, fields, section, type SlackMessage } from './message';
import { modalTitle } from './modal';

export const ACCOUNT_CREATE_CALLBACK = 'account_create';
export const ACCOUNT_LINK_CALLBACK = 'account_link';
/** "Retry creating the application" (its value: the account, the name, where its message is). */
export const APP_RETRY_ACTION_ID = 'account_app_retry';
export const NAME_BLOCK = 'name';
export const APP_ID_BLOCK = 'app_id';

const SANDBOX_NOTE = ':test_tube: *SANDBOX*: a local test Pix API, no real accounts or money.';
const MAX_LISTED = 20;

/** How the bot reaches an account's Pix keys: the AppID it knows for it, if any. */
export type AppStatus =
  | { kind: 'stored'; name?: string; clientId?: string }
  | { kind: 'pending'; name?: string }
  | { kind: 'main' }
  | { kind: 'none' };

export const code = (text: string) => `\`${escapeMrkdwn(text)}\``;
export const quoted = (text: string) => `“${escapeMrkdwn(text)}”`;

/** A random key is `RANDOM` in `pixKeyWithdraw` and `EVP` in the key endpoints: the same thing. */
export function keyTypeLabel(type: string): string {
  switch (type) {
    case 'RANDOM':
    case 'EVP':
      return 'random key (EVP)';
    case 'EMAIL':
      return 'e-mail';
    case 'PHONE':
      return 'phone';
    default:
      return escapeMrkdwn(type);
  }
}

/** The withdraw key as the account read shows it; the field exists only where the API is enabled. */
export function withdrawKeyText(account: Account): string {
  const key = account.pixKeyWithdraw;
  if (key === undefined) return '_not reported (withdraw-key API not enabled on this account)_';
  if (key === null) return 'none set';
  return `${code(key.pixKey)} (${keyTypeLabel(key.type)})`;
}

export function balanceText(account: Account): string {
  const b = account.balance;
  if (!b) return '_not reported_';
  return `${formatCents(b.total)} (available ${formatCents(b.available)}, blocked ${formatCents(b.blocked)})`;
}

export const WITHDRAW_BLOCKED_WARNING =
  ':warning: *Withdrawals blocked*: a withdraw attempt found this account’s withdraw key missing in the DICT, so every withdraw is refused until the service lifts the block.';

function appText(accountId: string, app: AppStatus): string {
  switch (app.kind) {
    case 'stored':
      return `AppID stored (encrypted)${app.clientId ? `, application ${code(app.clientId)}` : ''}`;
    case 'pending':
      return `:warning: no application yet: its creation failed; an admin can retry it, or register an AppID with \`/pix account link ${escapeMrkdwn(accountId)}\``;
    case 'main':
      return 'the main application (PIX_APP_ID)';
    case 'none':
      return `no AppID known: an admin can register one with \`/pix account link ${escapeMrkdwn(accountId)}\``;
  }
}

function campaignName(app: AppStatus): string | undefined {
  return app.kind === 'stored' || app.kind === 'pending' ? app.name : undefined;
}

function accountTitle(account: Account, app: AppStatus): string {
  const name = campaignName(app);
  return `${code(account.accountId)}${account.isDefault ? ' (default account)' : ''}${name ? ` · campaign ${quoted(name)}` : ''}`;
}

export interface AccountRow {
  account: Account;
  app: AppStatus;
}

/** `/pix accounts`: every account of the company with its balance, flags and withdraw key. */
export function accountsMessage(rows: AccountRow[]): SlackMessage {
  if (rows.length === 0) return { text: 'The Pix API lists no accounts for this company.', blocks: [section('The Pix API lists no accounts for this company.')] };
  const blocks: KnownBlock[] = [section(`*Accounts of the company* (${rows.length})`)];
  for (const { account, app } of rows.slice(0, MAX_LISTED)) {
    const lines = [
      `*${accountTitle(account, app)}*`,
      `Balance: ${balanceText(account)}`,
      `Withdraw key: ${withdrawKeyText(account)}`,
      `Keys managed with: ${appText(account.accountId, app)}`,
    ];
    blocks.push(section(lines.join('\n')));
    if (account.withdrawBlocked === true) blocks.push(context(WITHDRAW_BLOCKED_WARNING));
  }
  if (rows.length > MAX_LISTED) blocks.push(context(`… and ${rows.length - MAX_LISTED} more. Read one with \`/pix account <accountId>\`.`));
  const blocked = rows.filter((r) => r.account.withdrawBlocked === true).length;
  return {
    text: `${rows.length} account(s)${blocked ? `, ${blocked} with withdrawals blocked` : ''}`,
    blocks,
  };
}

/** `/pix account <id>`: one account. */
export function accountMessage({ account, app }: AccountRow): SlackMessage {
  const pairs: Array<[string, string]> = [
    ['Balance', account.balance ? formatCents(account.balance.total) : '_not reported_'],
    ['Available', account.balance ? formatCents(account.balance.available) : '—'],
    ['Blocked', account.balance ? formatCents(account.balance.blocked) : '—'],
    ['Default account', account.isDefault === true ? 'yes' : account.isDefault === false ? 'no' : '—'],
    ['Withdraw key', withdrawKeyText(account)],
    ['Keys managed with', appText(account.accountId, app)],
  ];
  if (account.taxId) pairs.push(['Holder tax id', code(account.taxId)]);
  const blocks: KnownBlock[] = [section(`*Account ${accountTitle(account, app)}*`), ...fields(pairs)];
  if (account.withdrawBlocked === true) blocks.push(section(WITHDRAW_BLOCKED_WARNING));
  const balance = account.balance ? `balance ${formatCents(account.balance.total)}` : 'balance not reported';
  return {
    text: `Account ${account.accountId}: ${balance}${account.withdrawBlocked === true ? ' (withdrawals blocked)' : ''}`,
    blocks,
  };
}

export function withSandboxNote(blocks: KnownBlock[], sandbox: boolean): KnownBlock[] {
  return sandbox ? [...blocks, context(SANDBOX_NOTE)] : blocks;
}

/** A modal that only shows text, with a Close button (and the sandbox note in sandbox mode). */
export function infoModal(title: string, blocks: KnownBlock[], sandbox: boolean): ModalView {
  return {
    type: 'modal',
    title: modalTitle(title),
    close: { type: 'plain_text', text: 'Close' },
    blocks: withSandboxNote(blocks, sandbox),
  };
}

/** The campaign-account form: opened at once, before any Pix API call. */
export function createAccountModal(input: { privateMetadata: string; sandbox: boolean }): ModalView {
  return {
    type: 'modal',
    callback_id: ACCOUNT_CREATE_CALLBACK,
    title: modalTitle('New campaign account'),
    submit: { type: 'plain_text', text: 'Create' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: input.privateMetadata,
    blocks: withSandboxNote(
      [
        {
          type: 'input',
          block_id: NAME_BLOCK,
          label: { type: 'plain_text', text: 'Campaign name' },
          hint: { type: 'plain_text', text: 'Names the account’s application too.' },
          element: { type: 'plain_text_input', action_id: 'name', min_length: 1, max_length: 80 },
        },
        context(
          'Creates a bank account with the MASTER application, then an API application for it. Its AppID is stored encrypted; its client secret is shown to you once, here.',
        ),
      ],
      input.sandbox,
    ),
  };
}

/** The AppID form of `/pix account link`: the value is never shown back. */
export function linkModal(input: { accountId: string; privateMetadata: string; sandbox: boolean; problem?: string }): ModalView {
  const blocks: KnownBlock[] = [
    section(`Register the AppID of account ${code(input.accountId)}, created outside Pix Ops. It is checked with the Pix API, then stored encrypted.`),
  ];
  if (input.problem) blocks.push(section(`:x: ${input.problem}`));
  blocks.push(
    {
      type: 'input',
      block_id: APP_ID_BLOCK,
      label: { type: 'plain_text', text: 'AppID' },
      hint: { type: 'plain_text', text: 'The value of the Authorization header of that account’s application.' },
      element: { type: 'plain_text_input', action_id: 'app_id', min_length: 8, max_length: 1000 },
    },
  );
  return {
    type: 'modal',
    callback_id: ACCOUNT_LINK_CALLBACK,
    title: modalTitle('Link an AppID'),
    submit: { type: 'plain_text', text: 'Check and store' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: input.privateMetadata,
    blocks: withSandboxNote(blocks, input.sandbox),
  };
}

export function progressBlocks(step: string): KnownBlock[] {
  return [section(`:hourglass_flowing_sand: ${step}`), context('You can close this window: the work goes on, and its result is posted in the channel.')];
}

export function retryButton(value: string): KnownBlock {
  return {
    type: 'actions',
    block_id: 'account_app_retry',
    elements: [
      {
        type: 'button',
        action_id: APP_RETRY_ACTION_ID,
        style: 'primary',
        text: { type: 'plain_text', text: 'Retry creating the application' },
        value,
      },
    ],
  };
}

/** What the admin alone sees once: the new application's client secret (never stored, never posted). */
export function secretBlocks(input: { accountId: string; clientId?: string; clientSecret?: string; unstoredAppId?: string }): KnownBlock[] {
  const blocks: KnownBlock[] = [section(`:white_check_mark: Account ${code(input.accountId)} has its application${input.clientId ? ` ${code(input.clientId)}` : ''}.`)];
  if (input.clientSecret) {
    blocks.push(
      section(`*Client secret* (shown only to you, only this once; copy it now, Pix Ops does not keep it):\n\`\`\`${input.clientSecret}\`\`\``),
    );
  } else {
    blocks.push(section('The service’s answer had no client secret; rotate one with `/pix rotate-secret <clientId>` if you need it.'));
  }
  if (input.unstoredAppId) {
    blocks.push(
      section(
        `:warning: Its AppID could *not* be stored. Keep it safe and register it later with \`/pix account link ${escapeMrkdwn(input.accountId)}\`:\n\`\`\`${input.unstoredAppId}\`\`\``,
      ),
    );
  }
  return blocks;
}

// Messages for the channel: who did what, to which account. Never a secret.

function storedNote(input: { accountId: string; stored: boolean }): string {
  return input.stored
    ? ' Its AppID is stored encrypted.'
    : ` :warning: Its AppID could not be stored: an admin must register it with \`/pix account link ${escapeMrkdwn(input.accountId)}\`.`;
}

export const accountAudit = {
  created: (input: { userId: string; accountId: string; name: string; clientId?: string; stored: boolean }): SlackMessage => {
    const text = `<@${input.userId}> created the campaign account ${code(input.accountId)} (${quoted(input.name)}) with its application${input.clientId ? ` ${code(input.clientId)}` : ''}.${storedNote(input)}`;
    return { text, blocks: [section(`:bank: ${text}`)] };
  },
  appFailed: (input: { userId: string; accountId: string; name: string; problem: string; retryValue: string }): SlackMessage => {
    const text = `<@${input.userId}> created the campaign account ${code(input.accountId)} (${quoted(input.name)}), but its application could not be created: ${input.problem}`;
    return {
      text,
      blocks: [
        section(`:warning: ${text}`),
        context('The account exists, without an application (and so without an AppID). Retrying creates only the application.'),
        retryButton(input.retryValue),
      ],
    };
  },
  /** Replaces the failure message once the application exists, so its button cannot be used again. */
  appFailedResolved: (input: { accountId: string; name: string; byUserId: string; clientId?: string }): SlackMessage => {
    const text = `The campaign account ${code(input.accountId)} (${quoted(input.name)}) now has its application${input.clientId ? ` ${code(input.clientId)}` : ''}, created by <@${input.byUserId}>.`;
    return { text, blocks: [section(`:white_check_mark: ${text}`)] };
  },
  appRetried: (input: { userId: string; accountId: string; name: string; clientId?: string; stored: boolean }): SlackMessage => {
    const text = `<@${input.userId}> created the application${input.clientId ? ` ${code(input.clientId)}` : ''} of the campaign account ${code(input.accountId)} (${quoted(input.name)}).${storedNote(input)}`;
    return { text, blocks: [section(`:bank: ${text}`)] };
  },
  linked: (input: { userId: string; accountId: string }): SlackMessage => {
    const text = `<@${input.userId}> registered an AppID for the account ${code(input.accountId)} (checked with the Pix API, stored encrypted).`;
    return { text, blocks: [section(`:link: ${text}`)] };
  },
};
