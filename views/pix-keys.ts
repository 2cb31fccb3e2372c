import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { maskPixKey } from '../src/domain/pix-key-mask';
import { PIX_KEY_TYPES, type PixKeyType } from '../src/domain/pix-key-values';
import { type Locale, messages } from '../src/i18n';
import type { Account, PixKey } from '../src/pix/schemas';
import { keyTypeLabel, quoted, withdrawKeyText, withSandboxNote } from './accounts';
import type { KeyAddMeta, KeyRef, KeysPage } from './carried';
import { balanceText, code, confirmMessage, context, pageButtons, pageOf, type SlackMessage, section } from './message';
import { modalTitle } from './modal';

export const KEY_ADD_CALLBACK = 'pix_key_add';
export const KEY_ADD_OPEN_ACTION_ID = 'pix_key_add_open';
export const KEY_DELETE_ASK_ACTION_ID = 'pix_key_delete_ask';
export const KEY_DELETE_CONFIRM_ACTION_ID = 'pix_key_delete_confirm';
export const KEY_DELETE_CANCEL_ACTION_ID = 'pix_key_delete_cancel';
/** Previous / Next of `/pix keys` (their value: the account and the page they lead to, see keysPageValue). */
export const KEYS_PREV_ACTION_ID = 'pix_keys_prev';
export const KEYS_NEXT_ACTION_ID = 'pix_keys_next';
export const WITHDRAW_KEY_CONFIRM_ACTION_ID = 'withdraw_key_confirm';
export const WITHDRAW_KEY_CANCEL_ACTION_ID = 'withdraw_key_cancel';
export const KEY_TYPE_BLOCK = 'type';
export const KEY_VALUE_BLOCK = 'pixKey';

/** `/pix keys` a page at a time: a block a key, within a message's 50 blocks. */
export const KEYS_PAGE_SIZE = 20;

/** What a Delete or Confirm button carries: the account and the key. */
export function keyButtonValue(accountId: string, pixKey: string): string {
  const value: KeyRef = { accountId, pixKey };
  return JSON.stringify(value);
}

/** What a Previous or Next button of `/pix keys` carries: the account and the page. */
export function keysPageValue(accountId: string, page: number): string {
  const value: KeysPage = { accountId, page };
  return JSON.stringify(value);
}

/** `/pix keys`: a page of the account's keys, each with Delete, and Add. */
export function pixKeysMessage(
  locale: Locale,
  input: { accountId: string; keys: PixKey[]; account?: Account; campaign?: string; page?: number },
): SlackMessage {
  const m = messages(locale).pixKeys;
  const { accountId, keys } = input;
  const p = pageOf(keys.length, KEYS_PAGE_SIZE, input.page ?? 1);
  const title = m.title({
    account: code(accountId),
    isDefault: input.account?.isDefault === true,
    ...(input.campaign ? { campaign: quoted(input.campaign) } : {}),
  });
  const blocks: KnownBlock[] = [section(`*${title}*`)];
  const balance = input.account?.balance;
  if (balance) blocks.push(context(messages(locale).accounts.balanceLine(balanceText(locale, balance))));
  if (keys.length === 0) blocks.push(section(m.none));
  for (const key of keys.slice(p.start, p.end)) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `${code(key.key)}  ·  ${keyTypeLabel(locale, key.type)}` },
      accessory: {
        type: 'button',
        action_id: KEY_DELETE_ASK_ACTION_ID,
        style: 'danger',
        text: { type: 'plain_text', text: m.delete },
        value: keyButtonValue(accountId, key.key),
      },
    });
  }
  if (p.pages > 1) {
    blocks.push(
      context(m.page({ from: p.start + 1, to: p.end, total: keys.length, page: p.page, pages: p.pages })),
      ...pageButtons(locale, {
        blockId: 'pix_keys_nav',
        prev: KEYS_PREV_ACTION_ID,
        next: KEYS_NEXT_ACTION_ID,
        page: p.page,
        pages: p.pages,
        value: (page) => keysPageValue(accountId, page),
      }),
    );
  }
  blocks.push(
    {
      type: 'actions',
      block_id: 'pix_keys_actions',
      elements: [{ type: 'button', action_id: KEY_ADD_OPEN_ACTION_ID, text: { type: 'plain_text', text: m.add }, value: accountId }],
    },
    context(m.rolesNote),
  );
  return { text: m.text({ count: keys.length, accountId }), blocks };
}

function typeOption(locale: Locale, type: PixKeyType): PlainTextOption {
  const m = messages(locale).pixKeys;
  const labels: Record<PixKeyType, string> = {
    EMAIL: m.typeEmail,
    PHONE: m.typePhone,
    CPF: m.typeCpf,
    CNPJ: m.typeCnpj,
    EVP: m.typeEvp,
  };
  return { text: { type: 'plain_text', text: labels[type] }, value: type };
}

/** The Pix-key form: opened at once; the value is checked by type before anything is sent. */
export function keyAddModal(locale: Locale, input: { meta: KeyAddMeta; sandbox: boolean }): ModalView {
  const m = messages(locale).pixKeys;
  return {
    type: 'modal',
    callback_id: KEY_ADD_CALLBACK,
    title: modalTitle(m.addTitle),
    submit: { type: 'plain_text', text: m.addSubmit },
    close: { type: 'plain_text', text: messages(locale).common.cancel },
    private_metadata: JSON.stringify(input.meta),
    blocks: withSandboxNote(
      locale,
      [
        section(m.addIntro(code(input.meta.accountId))),
        {
          type: 'input',
          block_id: KEY_TYPE_BLOCK,
          label: { type: 'plain_text', text: m.typeLabel },
          element: { type: 'static_select', action_id: 'type', options: PIX_KEY_TYPES.map((t) => typeOption(locale, t)) },
        },
        {
          type: 'input',
          block_id: KEY_VALUE_BLOCK,
          optional: true,
          label: { type: 'plain_text', text: m.keyLabel },
          hint: { type: 'plain_text', text: m.keyHint },
          element: { type: 'plain_text_input', action_id: 'value', max_length: 100 },
        },
      ],
      input.sandbox,
    ),
  };
}

/** Asked before any deletion: only Confirm (admin, checked again) deletes. */
export function deleteConfirmMessage(locale: Locale, input: { accountId: string; pixKey: string }): SlackMessage {
  const m = messages(locale).pixKeys;
  return confirmMessage(locale, {
    text: m.deleteConfirmText({ key: input.pixKey, accountId: input.accountId }),
    warning: m.deleteConfirm({ key: code(input.pixKey), account: code(input.accountId) }),
    blockId: 'pix_key_delete_confirm',
    confirm: { actionId: KEY_DELETE_CONFIRM_ACTION_ID, text: m.deleteButton, value: keyButtonValue(input.accountId, input.pixKey) },
    cancelActionId: KEY_DELETE_CANCEL_ACTION_ID,
  });
}

/** Asked before the withdraw key is set: withdrawals go to it from then on. Only Confirm (admin) sets it. */
export function withdrawConfirmMessage(locale: Locale, input: { accountId: string; pixKey: string }): SlackMessage {
  const m = messages(locale).confirmations;
  return confirmMessage(locale, {
    text: m.withdrawText({ key: input.pixKey, accountId: input.accountId }),
    warning: m.withdraw({ key: code(input.pixKey), account: code(input.accountId) }),
    blockId: 'withdraw_key_confirm',
    confirm: { actionId: WITHDRAW_KEY_CONFIRM_ACTION_ID, text: m.withdrawButton, value: keyButtonValue(input.accountId, input.pixKey) },
    cancelActionId: WITHDRAW_KEY_CANCEL_ACTION_ID,
  });
}

export function withdrawKeyResultMessage(
  locale: Locale,
  input: { account: Account; accountId: string; pixKey: string; via: Array<'POST' | 'PUT'> },
): SlackMessage {
  const m = messages(locale).pixKeys;
  const how = input.via.includes('PUT') ? (input.via.includes('POST') ? m.viaBoth : m.viaPut) : m.viaPost;
  const blocks: KnownBlock[] = [
    section(m.withdrawResult({ account: code(input.accountId), key: withdrawKeyText(locale, input.account) })),
    context(how),
  ];
  if (input.account.pixKeyWithdraw === undefined) blocks.push(context(m.noWithdrawInAnswer));
  if (input.account.withdrawBlocked === true) blocks.push(section(messages(locale).accounts.withdrawBlocked));
  return { text: m.withdrawText({ accountId: input.accountId, key: input.pixKey }), blocks };
}

/**
 * The channel's record of key changes, in the language of the person who made them. The whole
 * channel reads it, so the keys are masked (maskPixKey); the full value is only in what the person
 * who typed it sees.
 */
export function keyAnnouncements(locale: Locale) {
  const m = messages(locale).pixKeys;
  return {
    added: (input: { userId: string; accountId: string; key: PixKey }): SlackMessage => {
      const text = m.auditAdded({
        user: `<@${input.userId}>`,
        key: code(maskPixKey(input.key.key, input.key.type)),
        type: keyTypeLabel(locale, input.key.type),
        account: code(input.accountId),
      });
      return { text, blocks: [section(`:key: ${text}`)] };
    },
    deleted: (input: { userId: string; accountId: string; pixKey: string }): SlackMessage => {
      const text = m.auditDeleted({ user: `<@${input.userId}>`, key: code(maskPixKey(input.pixKey)), account: code(input.accountId) });
      return { text, blocks: [section(`:wastebasket: ${text}`)] };
    },
    withdrawKey: (input: { userId: string; accountId: string; account: Account; pixKey: string }): SlackMessage => {
      const shown = input.account.pixKeyWithdraw ? withdrawKeyText(locale, input.account, true) : code(maskPixKey(input.pixKey));
      const text = m.auditWithdraw({ user: `<@${input.userId}>`, account: code(input.accountId), key: shown });
      return { text, blocks: [section(`:outbox_tray: ${text}`)] };
    },
  };
}
