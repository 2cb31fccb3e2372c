import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { formatCents } from '../src/money';
import type { Account, PixKey } from '../src/pix/schemas';
import { PIX_KEY_TYPES, type PixKeyType } from '../src/pix-key-values';
import { code, keyTypeLabel, quoted, WITHDRAW_BLOCKED_WARNING, withdrawKeyText, withSandboxNote } from './accounts';
import { context, section, type SlackMessage } from './message';
import { modalTitle } from './modal';

export const KEY_ADD_CALLBACK = 'pix_key_add';
export const KEY_ADD_OPEN_ACTION_ID = 'pix_key_add_open';
export const KEY_DELETE_ASK_ACTION_ID = 'pix_key_delete_ask';
export const KEY_DELETE_CONFIRM_ACTION_ID = 'pix_key_delete_confirm';
export const KEY_DELETE_CANCEL_ACTION_ID = 'pix_key_delete_cancel';
export const KEY_TYPE_BLOCK = 'type';
export const KEY_VALUE_BLOCK = 'pixKey';

/** A message holds at most 50 blocks; the DICT allows far fewer keys per account. */
const MAX_LISTED = 40;

/** What a Delete or Confirm button carries: the account and the key. */
export function keyButtonValue(accountId: string, pixKey: string): string {
  return JSON.stringify({ a: accountId, k: pixKey });
}

export function pixKeysMessage(input: { accountId: string; keys: PixKey[]; account?: Account; campaign?: string }): SlackMessage {
  const { accountId, keys } = input;
  const title = `Pix keys of account ${code(accountId)}${input.account?.isDefault ? ' (default account)' : ''}${input.campaign ? ` · campaign ${quoted(input.campaign)}` : ''}`;
  const blocks: KnownBlock[] = [section(`*${title}*`)];
  if (input.account?.balance) blocks.push(context(`Balance ${formatCents(input.account.balance.total)} (available ${formatCents(input.account.balance.available)})`));
  if (keys.length === 0) blocks.push(section('_No Pix keys yet._'));
  for (const key of keys.slice(0, MAX_LISTED)) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `${code(key.key)}  ·  ${keyTypeLabel(key.type)}` },
      accessory: {
        type: 'button',
        action_id: KEY_DELETE_ASK_ACTION_ID,
        style: 'danger',
        text: { type: 'plain_text', text: 'Delete' },
        value: keyButtonValue(accountId, key.key),
      },
    });
  }
  if (keys.length > MAX_LISTED) blocks.push(context(`… and ${keys.length - MAX_LISTED} more.`));
  blocks.push(
    {
      type: 'actions',
      block_id: 'pix_keys_actions',
      elements: [
        { type: 'button', action_id: KEY_ADD_OPEN_ACTION_ID, text: { type: 'plain_text', text: 'Add a Pix key' }, value: accountId },
      ],
    },
    context('Adding a key needs the operator role; deleting one, the admin role (and a confirmation).'),
  );
  return { text: `${keys.length} Pix key(s) of account ${accountId}`, blocks };
}

function typeOption(type: PixKeyType): PlainTextOption {
  const labels: Record<PixKeyType, string> = {
    EMAIL: 'E-mail',
    PHONE: 'Phone (+55…)',
    CPF: 'CPF',
    CNPJ: 'CNPJ',
    EVP: 'Random key (EVP)',
  };
  return { text: { type: 'plain_text', text: labels[type] }, value: type };
}

/** The Pix-key form: opened at once; the value is checked by type before anything is sent. */
export function keyAddModal(input: { accountId: string; privateMetadata: string; sandbox: boolean }): ModalView {
  return {
    type: 'modal',
    callback_id: KEY_ADD_CALLBACK,
    title: modalTitle('Add a Pix key'),
    submit: { type: 'plain_text', text: 'Add key' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: input.privateMetadata,
    blocks: withSandboxNote(
      [
        section(`New Pix key for account ${code(input.accountId)}.`),
        {
          type: 'input',
          block_id: KEY_TYPE_BLOCK,
          label: { type: 'plain_text', text: 'Type' },
          element: { type: 'static_select', action_id: 'type', options: PIX_KEY_TYPES.map(typeOption) },
        },
        {
          type: 'input',
          block_id: KEY_VALUE_BLOCK,
          optional: true,
          label: { type: 'plain_text', text: 'Key' },
          hint: {
            type: 'plain_text',
            text: 'E-mail: name@example.com · Phone: +5511987654321 · CPF: 11 digits · CNPJ: 14 · Random key: a UUID, or empty to let the service create one.',
          },
          element: { type: 'plain_text_input', action_id: 'value', max_length: 100 },
        },
      ],
      input.sandbox,
    ),
  };
}

/** Asked before any deletion: only Confirm (admin, checked again) deletes. */
export function deleteConfirmMessage(input: { accountId: string; pixKey: string }): SlackMessage {
  const text = `Delete the Pix key ${code(input.pixKey)} of account ${code(input.accountId)}? After deletion *no money can be sent to this key*.`;
  return {
    text: `Delete the Pix key ${input.pixKey} of account ${input.accountId}? After deletion no money can be sent to this key.`,
    blocks: [
      section(`:warning: ${text}`),
      {
        type: 'actions',
        block_id: 'pix_key_delete_confirm',
        elements: [
          {
            type: 'button',
            action_id: KEY_DELETE_CONFIRM_ACTION_ID,
            style: 'danger',
            text: { type: 'plain_text', text: 'Delete the key' },
            value: keyButtonValue(input.accountId, input.pixKey),
          },
          { type: 'button', action_id: KEY_DELETE_CANCEL_ACTION_ID, text: { type: 'plain_text', text: 'Cancel' }, value: 'cancel' },
        ],
      },
    ],
  };
}

export function withdrawKeyResultMessage(input: { account: Account; accountId: string; pixKey: string; via: Array<'POST' | 'PUT'> }): SlackMessage {
  const how = input.via.includes('PUT')
    ? input.via.includes('POST')
      ? 'The company already had this key, so it was selected (PUT).'
      : 'Selected (PUT).'
    : 'Registered and selected (POST).';
  const blocks: KnownBlock[] = [
    section(`:white_check_mark: Withdraw key of account ${code(input.accountId)}: ${withdrawKeyText(input.account)}`),
    context(how),
  ];
  if (input.account.pixKeyWithdraw === undefined) blocks.push(context('The service’s answer did not include `pixKeyWithdraw`.'));
  if (input.account.withdrawBlocked === true) blocks.push(section(WITHDRAW_BLOCKED_WARNING));
  return { text: `Withdraw key of account ${input.accountId} set to ${input.pixKey}`, blocks };
}

export const keyAudit = {
  added: (input: { userId: string; accountId: string; key: PixKey }): SlackMessage => {
    const text = `<@${input.userId}> added the Pix key ${code(input.key.key)} (${keyTypeLabel(input.key.type)}) to account ${code(input.accountId)}.`;
    return { text, blocks: [section(`:key: ${text}`)] };
  },
  deleted: (input: { userId: string; accountId: string; pixKey: string }): SlackMessage => {
    const text = `<@${input.userId}> deleted the Pix key ${code(input.pixKey)} of account ${code(input.accountId)}; no money can be sent to it any more.`;
    return { text, blocks: [section(`:wastebasket: ${text}`)] };
  },
  withdrawKey: (input: { userId: string; accountId: string; account: Account; pixKey: string }): SlackMessage => {
    const shown = input.account.pixKeyWithdraw ? withdrawKeyText(input.account) : code(input.pixKey);
    const text = `<@${input.userId}> set the withdraw key of account ${code(input.accountId)} to ${shown}.`;
    return { text, blocks: [section(`:outbox_tray: ${text}`)] };
  },
};
