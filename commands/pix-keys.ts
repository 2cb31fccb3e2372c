import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { ApprovalKind } from '../src/approvals/kinds';
import { approvalsOn, askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayloadOf } from '../src/domain/approvals';
import { checkPixKey, detectPixKey, isPixKeyType } from '../src/domain/pix-key-values';
import type { EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { type Locale, messages } from '../src/i18n';
import type { PixKey } from '../src/pix/schemas';
import { infoModal, progressBlocks } from '../views/accounts';
import { KeyAddMetaSchema, KeyRefSchema, KeysPageSchema, readCarried } from '../views/carried';
import { failureText } from '../views/errors';
import { code, plain, type SlackMessage, section } from '../views/message';
import {
  deleteConfirmMessage,
  KEY_ADD_CALLBACK,
  KEY_ADD_OPEN_ACTION_ID,
  KEY_DELETE_ASK_ACTION_ID,
  KEY_DELETE_CANCEL_ACTION_ID,
  KEY_DELETE_CONFIRM_ACTION_ID,
  KEY_TYPE_BLOCK,
  KEY_VALUE_BLOCK,
  KEYS_NEXT_ACTION_ID,
  KEYS_PREV_ACTION_ID,
  keyAddModal,
  keyAnnouncements,
  pixKeysMessage,
} from '../views/pix-keys';
import { announcementMissedText, claimOnce, exclusive, logFailure, postAnnouncement, resolveAccountAppId } from './account-shared';
import { buttonValue, confirmOnce, say } from './confirm';
import { pageTurner } from './paging';
import { accountIdArg, PixIdSchema } from './parse';
import { withdrawKeyRows } from './withdraw-key';

/**
 * A key to delete, as typed: its canonical form when recognized, else as it is (it exists already),
 * unless it is no key the API could have issued (only dots would read as `.` or `..` in its URL).
 */
function keyArg(locale: Locale, text: string | undefined): string {
  const detected = detectPixKey(locale, text ?? '');
  if (detected.ok) return detected.pixKey;
  if (text && /^[^\s<>]{1,100}$/.test(text) && !/^\.+$/.test(text)) return text;
  throw new UsageError(messages(locale).usage.notPixKey);
}

const keysCommand: CommandRow = {
  kind: 'command',
  id: 'keys',
  argsUsage: '<accountId>',
  summary: 'keys',
  what: 'listPixKeys',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    return keysPage(deps, locale, accountIdArg(locale, args[0]), 1);
  },
};

/** A page of `/pix keys`: the keys are read again each time, with the AppID of the account that owns them. */
async function keysPage(deps: Deps, locale: Locale, accountId: string, page: number): Promise<SlackMessage> {
  const resolved = await resolveAccountAppId(deps, locale, accountId);
  if (!resolved.ok) return plain(resolved.text);
  const listed = await deps.pix.listPixKeys(resolved.appId);
  const bound = listed.account?.accountId;
  if (bound && bound !== accountId) {
    deps.logger.warn({ accountId, bound }, 'the AppID known for an account answers for another one');
    return plain(messages(locale).pixKeys.wrongAppId({ account: code(accountId), bound: code(bound), accountId }));
  }
  const campaign = resolved.source === 'stored' ? resolved.stored?.name : undefined;
  return pixKeysMessage(locale, { accountId, keys: listed.pixKeys, account: listed.account, campaign, page });
}

const turnKeysPage = pageTurner('listPixKeys', async ({ deps, locale }, value) => {
  const target = readCarried(KeysPageSchema, value);
  return target ? keysPage(deps, locale, target.accountId, target.page) : undefined;
});

/** Opens the key form at once (before any Pix call), then makes sure the account's AppID is known. */
async function openKeyForm(deps: Deps, locale: Locale, input: { triggerId: string; channel: string; accountId: string }): Promise<void> {
  const opened = await deps.slack.retried.views.open({
    trigger_id: input.triggerId,
    view: keyAddModal(locale, { meta: { channelId: input.channel, accountId: input.accountId }, sandbox: deps.sandboxMode }),
  });
  const viewId = opened.view?.id;
  let problem: string | undefined;
  try {
    const resolved = await resolveAccountAppId(deps, locale, input.accountId);
    if (!resolved.ok) problem = resolved.text;
  } catch (err) {
    logFailure(deps, err, 'find the account’s AppID');
    problem = failureText(locale, err, 'findAccountAppId');
  }
  if (problem && viewId) {
    const view = infoModal(locale, messages(locale).pixKeys.addTitle, [section(problem)], deps.sandboxMode);
    await deps.slack.retried.views.update({ view_id: viewId, hash: opened.view?.hash, view }).catch(() => undefined);
  }
}

const keyAddCommand: CommandRow = {
  kind: 'command',
  id: 'key add',
  argsUsage: '<accountId>',
  summary: 'keyAdd',
  what: 'openPixKeyForm',
  role: 'operator',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, triggerId, channelId, locale }) {
    const accountId = accountIdArg(locale, args[0]);
    await openKeyForm(deps, locale, { triggerId, channel: channelId, accountId });
    return null;
  },
};

const keyDeleteCommand: CommandRow = {
  kind: 'command',
  id: 'key delete',
  argsUsage: '<accountId> <pixKey>',
  summary: 'keyDelete',
  what: 'prepareKeyDeletion',
  role: 'admin',
  minArgs: 2,
  maxArgs: 2,
  async handler({ deps, args, locale }) {
    const accountId = accountIdArg(locale, args[0]);
    const pixKey = keyArg(locale, args[1]);
    // Nothing to confirm for an account whose keys cannot be reached.
    const resolved = await resolveAccountAppId(deps, locale, accountId);
    if (!resolved.ok) return plain(resolved.text);
    return deleteConfirmMessage(locale, { accountId, pixKey });
  },
};

/** The Add button of `/pix keys`: the same form as `/pix key add`. */
const addOpen: EntryRow = {
  kind: 'action',
  id: KEY_ADD_OPEN_ACTION_ID,
  role: 'operator',
  what: 'addPixKey',
  async handler(args, ctx) {
    const accountId = buttonValue(args.action);
    if (!accountId || !PixIdSchema.safeParse(accountId).success)
      return void (await say(args, ctx, plain(messages(ctx.locale).common.buttonNoAccount)));
    await openKeyForm(ctx.deps, ctx.locale, { triggerId: args.body.trigger_id, channel: args.body.channel?.id ?? ctx.userId, accountId });
  },
};

const addSubmitted: EntryRow = {
  kind: 'view',
  id: KEY_ADD_CALLBACK,
  role: 'operator',
  what: 'addPixKey',
  errorBlock: KEY_VALUE_BLOCK,
  async handler({ ack, view }, ctx) {
    const { deps, userId, locale } = ctx;
    const m = messages(locale);
    const title = m.pixKeys.addTitle;
    const meta = readCarried(KeyAddMetaSchema, view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [KEY_VALUE_BLOCK]: m.common.formOutOfDate } });
      return;
    }
    const values = view.state.values;
    const type = values[KEY_TYPE_BLOCK]?.type?.selected_option?.value ?? '';
    if (!isPixKeyType(type)) {
      await ack({ response_action: 'errors', errors: { [KEY_TYPE_BLOCK]: m.pixKeys.chooseType } });
      return;
    }
    const checked = checkPixKey(locale, type, values[KEY_VALUE_BLOCK]?.value?.value ?? '');
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [KEY_VALUE_BLOCK]: checked.problem } });
      return;
    }
    if (!(await claimOnce(deps, `key-add:${view.id}`))) {
      await ack({ response_action: 'update', view: infoModal(locale, title, [section(m.accounts.alreadySubmitted)], deps.sandboxMode) });
      return;
    }
    await ack({ response_action: 'update', view: infoModal(locale, title, progressBlocks(locale, m.pixKeys.adding), deps.sandboxMode) });
    const show = (blocks: KnownBlock[]) =>
      deps.slack.retried.views
        .update({ view_id: view.id, view: infoModal(locale, title, blocks, deps.sandboxMode) })
        .catch(() => undefined);
    const payload: PayloadOf<'key-add'> = { action: 'key-add', accountId: meta.accountId, pixKey: checked.pixKey, type: checked.type };
    if (approvalsOn(deps, 'key-add')) {
      const told = await askApproval(deps, { maker: { userId, locale }, channel: meta.channelId, payload });
      return void (await show([section(told)]));
    }
    const added = await addPixKey(deps, locale, payload);
    if (!added.ok) return void (await show([section(added.problem)]));
    const posted = await postAnnouncement(
      deps,
      locale,
      meta.channelId,
      keyAnnouncements(locale).added({ userId, accountId: meta.accountId, key: added.key }),
    );
    await show([
      section(
        `${m.pixKeys.added({ key: code(added.key.key), account: code(meta.accountId) })}${posted ? '' : announcementMissedText(locale, meta.channelId)}`,
      ),
    ]);
  },
};

type Written<T> = ({ ok: true } & T) | { ok: false; problem: string };

/**
 * The write path of `key add`, with or without approval: the account's AppID, then `POST
 * /api/v1/pix-keys`. `beforeWrite` runs just before the write (an approval records its intent there).
 */
async function addPixKey(
  deps: Deps,
  locale: Locale,
  p: PayloadOf<'key-add'>,
  beforeWrite?: (appId: string) => Promise<void>,
): Promise<Written<{ key: PixKey }>> {
  let key: PixKey;
  try {
    const resolved = await resolveAccountAppId(deps, locale, p.accountId);
    if (!resolved.ok) return { ok: false, problem: resolved.text };
    await beforeWrite?.(resolved.appId);
    key = await deps.pix.createPixKey(resolved.appId, { pixKey: p.pixKey, type: p.type });
  } catch (err) {
    logFailure(deps, err, 'add a Pix key');
    return { ok: false, problem: failureText(locale, err, 'addThePixKey', { write: true }) };
  }
  deps.logger.info({ accountId: p.accountId, type: key.type }, 'Pix key added');
  return { ok: true, key };
}

/**
 * The write path of `key delete` (its confirmation), with or without approval: the account's AppID,
 * then `DELETE /api/v1/pix-keys/{key}`.
 */
async function deletePixKey(
  deps: Deps,
  locale: Locale,
  p: PayloadOf<'key-delete'>,
  beforeWrite?: () => Promise<void>,
): Promise<Written<object>> {
  try {
    const resolved = await resolveAccountAppId(deps, locale, p.accountId);
    if (!resolved.ok) return { ok: false, problem: resolved.text };
    await beforeWrite?.();
    await deps.pix.deletePixKey(resolved.appId, p.pixKey);
  } catch (err) {
    logFailure(deps, err, 'delete a Pix key');
    return { ok: false, problem: failureText(locale, err, 'deleteThePixKey', { write: true }) };
  }
  deps.logger.info({ accountId: p.accountId }, 'Pix key deleted');
  return { ok: true };
}

/** The account's keys now, read with its AppID (for an approval resumed after a crash); undefined when its AppID is not known. */
async function keysNow(deps: Deps, locale: Locale, accountId: string): Promise<PixKey[] | undefined> {
  const resolved = await resolveAccountAppId(deps, locale, accountId);
  return resolved.ok ? (await deps.pix.listPixKeys(resolved.appId)).pixKeys : undefined;
}

const KeysSnapshotSchema = z.object({ keys: z.array(z.string()) });

export const keyAddApproval: ApprovalKind<'key-add'> = {
  action: 'key-add',
  async execute(run, p) {
    const { deps, locale } = run;
    // A random key is made by the service: only the keys before the write tell it apart afterwards.
    const random = p.type === 'EVP' && p.pixKey === '';
    const added = await addPixKey(deps, locale, p, async (appId) => {
      const before = random ? (await deps.pix.listPixKeys(appId)).pixKeys.map((k) => k.key) : undefined;
      await run.intent('add', before && { keys: before });
    });
    if (!added.ok) return added;
    await run.inThread(keyAnnouncements(locale).added({ userId: run.record.makerId, accountId: p.accountId, key: added.key }));
    return { ok: true };
  },
  async resume(run, p, intent) {
    if (intent?.step === 'add') {
      const keys = await keysNow(run.deps, run.locale, p.accountId);
      const before = KeysSnapshotSchema.safeParse(intent.data);
      const made =
        p.type === 'EVP' && p.pixKey === ''
          ? before.success && keys?.find((k) => k.type === 'EVP' && !before.data.keys.includes(k.key))
          : keys?.find((k) => k.key === p.pixKey);
      if (made) {
        await run.inThread(keyAnnouncements(run.locale).added({ userId: run.record.makerId, accountId: p.accountId, key: made }));
        return { ok: true };
      }
    }
    return keyAddApproval.execute(run, p);
  },
};

export const keyDeleteApproval: ApprovalKind<'key-delete'> = {
  action: 'key-delete',
  async execute(run, p) {
    const deleted = await deletePixKey(run.deps, run.locale, p, () => run.intent('delete'));
    if (!deleted.ok) return deleted;
    await run.inThread(keyAnnouncements(run.locale).deleted({ userId: run.record.makerId, accountId: p.accountId, pixKey: p.pixKey }));
    return { ok: true };
  },
  async resume(run, p, intent) {
    if (intent?.step === 'delete') {
      const keys = await keysNow(run.deps, run.locale, p.accountId);
      if (keys && !keys.some((k) => k.key === p.pixKey)) {
        await run.inThread(keyAnnouncements(run.locale).deleted({ userId: run.record.makerId, accountId: p.accountId, pixKey: p.pixKey }));
        return { ok: true };
      }
    }
    return keyDeleteApproval.execute(run, p);
  },
};

/** The Delete button of `/pix keys`: only asks; the confirmation deletes. */
const deleteAsk: EntryRow = {
  kind: 'action',
  id: KEY_DELETE_ASK_ACTION_ID,
  role: 'admin',
  what: 'deletePixKey',
  async handler(args, ctx) {
    const ref = readCarried(KeyRefSchema, buttonValue(args.action));
    if (!ref) return void (await say(args, ctx, plain(messages(ctx.locale).common.buttonNoPixKey)));
    await say(args, ctx, deleteConfirmMessage(ctx.locale, { accountId: ref.accountId, pixKey: ref.pixKey }));
  },
};

const deleteConfirm: EntryRow = {
  kind: 'action',
  id: KEY_DELETE_CONFIRM_ACTION_ID,
  role: 'admin',
  what: 'deletePixKey',
  async handler(args, ctx) {
    const { deps, userId, locale } = ctx;
    const m = messages(locale);
    const ref = readCarried(KeyRefSchema, buttonValue(args.action));
    if (!ref) return void (await say(args, ctx, plain(m.common.buttonNoPixKey)));
    const payload: PayloadOf<'key-delete'> = { action: 'key-delete', accountId: ref.accountId, pixKey: ref.pixKey };
    const channel = args.body.channel?.id;
    if (approvalsOn(deps, 'key-delete')) {
      // One approval per confirmation: a second click on the same message asks for nothing more.
      if (!(await confirmOnce(args, ctx, `key-delete:${ref.accountId}:${ref.pixKey}`)))
        return void (await say(args, ctx, plain(m.confirmations.alreadyConfirmed)));
      const told = await askApproval(deps, { maker: { userId, locale }, channel: channel ?? userId, payload });
      return void (await say(args, ctx, plain(told), true));
    }
    const run = await exclusive(deps, `key-delete:${ref.accountId}:${ref.pixKey}`, async () => {
      const deleted = await deletePixKey(deps, locale, payload);
      if (!deleted.ok) return void (await say(args, ctx, plain(deleted.problem)));
      const posted = channel
        ? await postAnnouncement(
            deps,
            locale,
            channel,
            keyAnnouncements(locale).deleted({ userId, accountId: ref.accountId, pixKey: ref.pixKey }),
          )
        : undefined;
      const done = `${m.pixKeys.deleted({ key: code(ref.pixKey), account: code(ref.accountId) })}${posted || !channel ? '' : announcementMissedText(locale, channel)}`;
      await say(args, ctx, plain(done), true);
    });
    if (!run.ran) await say(args, ctx, plain(m.pixKeys.beingDeleted));
  },
};

const deleteCancel: EntryRow = {
  kind: 'action',
  id: KEY_DELETE_CANCEL_ACTION_ID,
  role: 'viewer',
  what: 'cancelDeletion',
  async handler(args, ctx) {
    await say(args, ctx, plain(messages(ctx.locale).pixKeys.cancelled), true);
  },
};

export const pixKeyRows: EntryRow[] = [
  keysCommand,
  keyAddCommand,
  keyDeleteCommand,
  ...withdrawKeyRows,
  addOpen,
  addSubmitted,
  deleteAsk,
  deleteConfirm,
  deleteCancel,
  { kind: 'action', id: KEYS_PREV_ACTION_ID, role: 'viewer', what: 'listPixKeys', handler: turnKeysPage },
  { kind: 'action', id: KEYS_NEXT_ACTION_ID, role: 'viewer', what: 'listPixKeys', handler: turnKeysPage },
];
