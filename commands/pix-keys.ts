import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { Deps } from '../src/deps';
import type { ActionArgs, Entry, EntryContext } from '../src/entries';
import { checkPixKey, detectPixKey, isPixKeyType } from '../src/pix-key-values';
import type { PixKey } from '../src/pix/schemas';
import { code, infoModal, progressBlocks } from '../views/accounts';
import { plain, section, type SlackMessage } from '../views/message';
import {
  deleteConfirmMessage,
  KEY_ADD_CALLBACK,
  KEY_ADD_OPEN_ACTION_ID,
  KEY_DELETE_ASK_ACTION_ID,
  KEY_DELETE_CANCEL_ACTION_ID,
  KEY_DELETE_CONFIRM_ACTION_ID,
  KEY_TYPE_BLOCK,
  KEY_VALUE_BLOCK,
  keyAddModal,
  keyAudit,
  pixKeysMessage,
} from '../views/pix-keys';
import { ALREADY_SUBMITTED, auditMissedText, claimOnce, exclusive, failureText, logFailure, postAudit, readJson, resolveAccountAppId } from './account-shared';
import { PixIdSchema } from './parse';
import { UsageError, type CommandDef } from './types';
import { withdrawKeyCommand } from './withdraw-key';

const ADD_TITLE = 'Add a Pix key';

const KeyRefSchema = z.object({ a: PixIdSchema, k: z.string().min(1).max(100) });
const AddMetaSchema = z.object({ c: z.string().regex(/^[A-Z0-9]{2,30}$/), a: PixIdSchema });

const parseWith =
  <T>(schema: z.ZodType<T>) =>
  (v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : undefined;
  };

function accountArg(text: string | undefined): string {
  if (text === undefined || !PixIdSchema.safeParse(text).success) throw new UsageError('That is not an account id.');
  return text;
}

/** A key to delete, as typed: its canonical form when recognized, else as it is (it exists already). */
function keyArg(text: string | undefined): string {
  const detected = detectPixKey(text ?? '');
  if (detected.ok) return detected.pixKey;
  if (text && /^[^\s<>]{1,100}$/.test(text)) return text;
  throw new UsageError('That is not a Pix key.');
}

const keysCommand: CommandDef = {
  path: ['keys'],
  argsUsage: '<accountId>',
  summary: 'an account’s Pix keys, each with a Delete button, and an Add button',
  action: 'list the Pix keys',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 1,
  async run({ deps, args }) {
    const accountId = accountArg(args[0]);
    const resolved = await resolveAccountAppId(deps, accountId);
    if (!resolved.ok) return plain(resolved.text);
    const listed = await deps.pix.listPixKeys(resolved.appId);
    const bound = listed.account?.accountId;
    if (bound && bound !== accountId) {
      deps.logger.warn({ accountId, bound }, 'the AppID known for an account answers for another one');
      return plain(`The AppID known for account ${code(accountId)} answers for account ${code(bound)}, so its keys are not shown. An admin can register the right one with \`/pix account link ${accountId}\`.`);
    }
    return pixKeysMessage({ accountId, keys: listed.pixKeys, account: listed.account, campaign: resolved.source === 'stored' ? resolved.stored?.name : undefined });
  },
};

/** Opens the key form at once (before any Pix call), then makes sure the account's AppID is known. */
async function openKeyForm(deps: Deps, input: { triggerId: string; channel: string; accountId: string }): Promise<void> {
  const opened = await deps.slack.views.open({
    trigger_id: input.triggerId,
    view: keyAddModal({ accountId: input.accountId, privateMetadata: JSON.stringify({ c: input.channel, a: input.accountId }), sandbox: deps.sandboxMode }),
  });
  const viewId = opened.view?.id;
  let problem: string | undefined;
  try {
    const resolved = await resolveAccountAppId(deps, input.accountId);
    if (!resolved.ok) problem = resolved.text;
  } catch (err) {
    logFailure(deps, err, 'find the account’s AppID');
    problem = failureText(err, 'find the account’s AppID');
  }
  if (problem && viewId) {
    await deps.slack.views.update({ view_id: viewId, hash: opened.view?.hash, view: infoModal(ADD_TITLE, [section(problem)], deps.sandboxMode) }).catch(() => undefined);
  }
}

const keyAddCommand: CommandDef = {
  path: ['key', 'add'],
  argsUsage: '<accountId>',
  summary: 'open the form to add a Pix key to an account',
  action: 'open the Pix-key form',
  role: 'operator',
  minArgs: 1,
  maxArgs: 1,
  async run({ deps, args, triggerId, channelId }) {
    const accountId = accountArg(args[0]);
    await openKeyForm(deps, { triggerId, channel: channelId, accountId });
    return null;
  },
};

const keyDeleteCommand: CommandDef = {
  path: ['key', 'delete'],
  argsUsage: '<accountId> <pixKey>',
  summary: 'delete a Pix key (asks to confirm first)',
  action: 'prepare the deletion of the Pix key',
  role: 'admin',
  minArgs: 2,
  maxArgs: 2,
  async run({ deps, args }) {
    const accountId = accountArg(args[0]);
    const pixKey = keyArg(args[1]);
    // Nothing to confirm for an account whose keys cannot be reached.
    const resolved = await resolveAccountAppId(deps, accountId);
    if (!resolved.ok) return plain(resolved.text);
    return deleteConfirmMessage({ accountId, pixKey });
  },
};

export const pixKeyCommands: CommandDef[] = [keysCommand, keyAddCommand, keyDeleteCommand, withdrawKeyCommand];

function buttonValue(action: ActionArgs['action']): string | undefined {
  return 'value' in action && typeof action.value === 'string' ? action.value : undefined;
}

const say = (args: ActionArgs, ctx: EntryContext, message: SlackMessage, replace = false) =>
  args.respond({ response_type: 'ephemeral', replace_original: replace, ...ctx.present(message) });

/** The Add button of `/pix keys`: the same form as `/pix key add`. */
const addOpen: Entry = {
  kind: 'action',
  actionId: KEY_ADD_OPEN_ACTION_ID,
  role: 'operator',
  what: 'add a Pix key',
  async handle(args, ctx) {
    const accountId = buttonValue(args.action);
    if (!accountId || !PixIdSchema.safeParse(accountId).success) return void (await say(args, ctx, plain('This button does not name an account. Nothing was done.')));
    await openKeyForm(ctx.deps, { triggerId: args.body.trigger_id, channel: args.body.channel?.id ?? ctx.userId, accountId });
  },
};

const addSubmitted: Entry = {
  kind: 'view',
  callbackId: KEY_ADD_CALLBACK,
  role: 'operator',
  what: 'add a Pix key',
  errorBlock: KEY_VALUE_BLOCK,
  async handle({ ack, view }, ctx) {
    const { deps, userId } = ctx;
    const meta = readJson(view.private_metadata, parseWith(AddMetaSchema));
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [KEY_VALUE_BLOCK]: 'This form is out of date; close it and open it again.' } });
      return;
    }
    const values = view.state.values;
    const type = values[KEY_TYPE_BLOCK]?.type?.selected_option?.value ?? '';
    if (!isPixKeyType(type)) {
      await ack({ response_action: 'errors', errors: { [KEY_TYPE_BLOCK]: 'Choose the type of the key.' } });
      return;
    }
    const checked = checkPixKey(type, values[KEY_VALUE_BLOCK]?.value?.value ?? '');
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [KEY_VALUE_BLOCK]: checked.problem } });
      return;
    }
    if (!claimOnce(deps, `key-add:${view.id}`)) {
      await ack({ response_action: 'update', view: infoModal(ADD_TITLE, [section(ALREADY_SUBMITTED)], deps.sandboxMode) });
      return;
    }
    await ack({ response_action: 'update', view: infoModal(ADD_TITLE, progressBlocks('Adding the key…'), deps.sandboxMode) });
    const show = (blocks: KnownBlock[]) =>
      deps.slack.views.update({ view_id: view.id, view: infoModal(ADD_TITLE, blocks, deps.sandboxMode) }).catch(() => undefined);
    let key: PixKey;
    try {
      const resolved = await resolveAccountAppId(deps, meta.a);
      if (!resolved.ok) return void (await show([section(resolved.text)]));
      key = await deps.pix.createPixKey(resolved.appId, { pixKey: checked.pixKey, type: checked.type });
    } catch (err) {
      logFailure(deps, err, 'add a Pix key');
      return void (await show([section(failureText(err, 'add the Pix key', { write: true }))]));
    }
    deps.logger.info({ accountId: meta.a, type: key.type, user: userId }, 'Pix key added');
    const posted = await postAudit(deps, meta.c, keyAudit.added({ userId, accountId: meta.a, key }));
    await show([section(`:white_check_mark: The Pix key ${code(key.key)} was added to account ${code(meta.a)}.${posted ? '' : auditMissedText(meta.c)}`)]);
  },
};

/** The Delete button of `/pix keys`: only asks; the confirmation deletes. */
const deleteAsk: Entry = {
  kind: 'action',
  actionId: KEY_DELETE_ASK_ACTION_ID,
  role: 'admin',
  what: 'delete a Pix key',
  async handle(args, ctx) {
    const ref = readJson(buttonValue(args.action), parseWith(KeyRefSchema));
    if (!ref) return void (await say(args, ctx, plain('This button does not name a Pix key. Nothing was done.')));
    await say(args, ctx, deleteConfirmMessage({ accountId: ref.a, pixKey: ref.k }));
  },
};

const deleteConfirm: Entry = {
  kind: 'action',
  actionId: KEY_DELETE_CONFIRM_ACTION_ID,
  role: 'admin',
  what: 'delete a Pix key',
  async handle(args, ctx) {
    const { deps, userId } = ctx;
    const ref = readJson(buttonValue(args.action), parseWith(KeyRefSchema));
    if (!ref) return void (await say(args, ctx, plain('This button does not name a Pix key. Nothing was done.')));
    const run = await exclusive(deps, `key-delete:${ref.a}:${ref.k}`, async () => {
      try {
        const resolved = await resolveAccountAppId(deps, ref.a);
        if (!resolved.ok) return void (await say(args, ctx, plain(resolved.text)));
        await deps.pix.deletePixKey(resolved.appId, ref.k);
      } catch (err) {
        logFailure(deps, err, 'delete a Pix key');
        return void (await say(args, ctx, plain(failureText(err, 'delete the Pix key', { write: true }))));
      }
      deps.logger.info({ accountId: ref.a, user: userId }, 'Pix key deleted');
      const channel = args.body.channel?.id;
      const posted = channel ? await postAudit(deps, channel, keyAudit.deleted({ userId, accountId: ref.a, pixKey: ref.k })) : undefined;
      const done = `:wastebasket: The Pix key ${code(ref.k)} of account ${code(ref.a)} was deleted; no money can be sent to it any more.${posted || !channel ? '' : auditMissedText(channel)}`;
      await say(args, ctx, plain(done), true);
    });
    if (!run.ran) await say(args, ctx, plain('This key is being deleted right now. Nothing more was done.'));
  },
};

const deleteCancel: Entry = {
  kind: 'action',
  actionId: KEY_DELETE_CANCEL_ACTION_ID,
  role: 'viewer',
  what: 'cancel a deletion',
  async handle(args, ctx) {
    await say(args, ctx, plain('Cancelled: nothing was deleted.'), true);
  },
};

export const pixKeyEntries: Entry[] = [addOpen, addSubmitted, deleteAsk, deleteConfirm, deleteCancel];
