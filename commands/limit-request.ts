import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { defaultAccountId } from '../src/pix/default-account';
import type { Deps } from '../src/entry/deps';
import type { EntryContext, EntryRow } from '../src/entry/table';
import { messages, type Locale } from '../src/i18n';
import { BLOCK, FormMetaSchema, readLimitForm, type FormMeta, type LimitForm } from '../src/domain/limit-form';
import { splitLimits } from '../src/domain/limit-fields';
import { PixApiError } from '../src/pix/errors';
import { checkProofFiles, uploadCheckedFiles, type CheckedFile } from '../src/slack/proof-check';
import { fileLabel } from '../src/slack/files';
import { modalUpdater } from '../src/slack/modal-updates';
import { postThreadRoot } from '../src/slack/thread-root';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { failureText } from '../views/errors';
import { ACCOUNT_ACTION, formModal, LIMIT_REQUEST_CALLBACK, loadingModal, progressModal } from '../views/limit-request-modal';
import { limitRequestRootMessage } from '../views/limit-request';
import { escapeMrkdwn, plain, section } from '../views/message';
import { messageModal } from '../views/modal';
import { optionalAccountIdArg, PixIdSchema } from './parse';
import type { CommandRow } from '../src/entry/table';
import { errorText } from '../src/runtime/error-text';


export const limitRequestCommand: CommandRow = {
  kind: 'command',
  id: 'limit request',
  argsUsage: '[accountId]',
  summary: 'limitRequest',
  what: 'openLimitRequestForm',
  role: 'operator',
  minArgs: 0,
  maxArgs: 1,
  async handler({ deps, args, triggerId, channelId, locale }) {
    await openForm(deps, locale, { triggerId, channelId, accountId: optionalAccountIdArg(locale, args[0]), attached: [] });
    return null;
  },
};

/**
 * Opens the modal before any Pix API call (the trigger lives three seconds), then fills it in once
 * the accounts and the chosen account's limits are read.
 */
export async function openForm(deps: Deps, locale: Locale, input: { triggerId: string; channelId: string; accountId?: string; attached: FormMeta['attached'] }) {
  const meta: FormMeta = { channelId: input.channelId, accountId: input.accountId, current: {}, attached: input.attached };
  const opened = await deps.slack.views.open({ trigger_id: input.triggerId, view: loadingModal(locale, meta) });
  const viewId = opened.view?.id;
  if (!viewId) throw new Error('Slack opened no view');
  let view: ModalView;
  try {
    view = await buildForm(deps, locale, meta, input.accountId);
  } catch (err) {
    view = messageModal(locale, messages(locale).limitForm.title, plain(failureText(locale, err, 'readAccountLimits', { then: 'none' })));
  }
  await deps.slack.views.update({ view_id: viewId, hash: opened.view?.hash, view });
}

async function buildForm(deps: Deps, locale: Locale, meta: FormMeta, given: string | undefined, keep: { description?: string; reason?: string } = {}) {
  // With the account known, both reads at once; else the list first, to find the default account.
  const [accounts, accountId, limits] = given
    ? await Promise.all([deps.pix.listAccounts(deps.mainAppId), given, deps.pix.getLimits(deps.mainAppId, given)])
    : await deps.pix.listAccounts(deps.mainAppId).then(async (list) => {
        const id = defaultAccountId(list);
        return [list, id, await deps.pix.getLimits(deps.mainAppId, id)] as const;
      });
  const current = Object.fromEntries(splitLimits(limits).requestable.map((l) => [l.field, l.cents]));
  return formModal(locale, {
    meta: { ...meta, accountId, current },
    accounts,
    accountId,
    limits,
    description: keep.description,
    reason: keep.reason,
    sandbox: deps.sandboxMode,
  });
}

function readMeta(raw: string | undefined): FormMeta | undefined {
  try {
    return FormMetaSchema.parse(JSON.parse(raw ?? ''));
  } catch {
    return undefined;
  }
}

/** Choosing another account re-reads its limits and rebuilds the amounts. */
const accountChanged: EntryRow = {
  kind: 'action',
  id: ACCOUNT_ACTION,
  role: 'operator',
  what: 'fileLimitRequest',
  async handler({ body, action, client }, ctx) {
    const { locale } = ctx;
    const view = body.view;
    const meta = readMeta(view?.private_metadata);
    // A static select, or with more accounts than it holds, a search (external select).
    const accountId = action.type === 'static_select' || action.type === 'external_select' ? action.selected_option?.value : undefined;
    if (!view || !meta || !accountId || !PixIdSchema.safeParse(accountId).success) return;
    const state = view.state?.values ?? {};
    const text = (block: string) => state[block]?.text?.value ?? undefined;
    let next: ModalView;
    try {
      next = await buildForm(ctx.deps, locale, meta, accountId, { description: text(BLOCK.description), reason: text(BLOCK.reason) });
    } catch (err) {
      next = messageModal(locale, messages(locale).limitForm.title, plain(failureText(locale, err, 'readAccountLimits', { then: 'none' })));
    }
    // The hash makes Slack refuse this update if the user changed the form again meanwhile.
    await client.views.update({ view_id: view.id, hash: view.hash, view: next }).catch((err: unknown) => {
      ctx.deps.logger.info({ err: errorText(err) }, 'limit form not updated (changed meanwhile?)');
    });
  },
};

const submitted: EntryRow = {
  kind: 'view',
  id: LIMIT_REQUEST_CALLBACK,
  role: 'operator',
  what: 'fileLimitRequest',
  errorBlock: BLOCK.account,
  async handler({ ack, body, view }, ctx) {
    const { locale } = ctx;
    const meta = readMeta(view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [BLOCK.account]: messages(locale).common.formOutOfDate } });
      return;
    }
    const read = readLimitForm(locale, view.state.values, meta);
    if (!read.ok) {
      await ack({ response_action: 'errors', errors: read.errors });
      return;
    }
    const checked = await checkProofFiles(locale, ctx.deps, read.form.files);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [BLOCK.documents]: checked.problem } });
      return;
    }
    const total = checked.files.length;
    await ack({ response_action: 'update', view: progressModal(locale, messages(locale).limitForm.uploading({ index: 1, total }), 0, total) });
    await fileRequest(ctx, { viewId: view.id, userId: body.user.id, meta, form: read.form, proofs: checked.files });
  },
};

/**
 * After the acknowledgement: streams each proof from Slack into the Pix API (upload first, always),
 * files the request in exact cents, posts the thread root and tracks the request. The modal shows
 * progress; a failure shows the API's own words there (or in a DM if the modal was closed).
 */
async function fileRequest(
  ctx: EntryContext,
  job: { viewId: string; userId: string; meta: FormMeta; form: LimitForm; proofs: CheckedFile[] },
): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale);
  const show = modalUpdater(deps.slack, job.viewId);
  const total = job.proofs.length;
  let stage: 'upload' | 'file' = 'upload';
  try {
    const fileIds = await uploadCheckedFiles(deps, job.proofs, 'ACCOUNT_LIMIT_REQUEST', (i, proof) =>
      i > 0 ? show(progressModal(locale, m.limitForm.uploadingNamed({ index: i + 1, total, name: fileLabel(proof.file) }), i, total)) : Promise.resolve(),
    );
    stage = 'file';
    await show(progressModal(locale, m.limitForm.filing, total, total));
    const request = await deps.pix.createLimitRequest(deps.mainAppId, {
      companyBankAccountId: job.form.accountId,
      limits: job.form.limits,
      documents: fileIds.map((fileId) => ({ fileId })),
      description: job.form.description,
      limitRequestReason: job.form.limitRequestReason,
    });

    const tracked: Omit<TrackedRequest, 'closed' | 'reply'> = {
      limitRequestId: request.id,
      accountId: job.form.accountId,
      requesterId: job.userId,
      channel: job.meta.channelId,
      rootTs: '',
      current: Object.fromEntries(Object.keys(job.form.limits).map((f) => [f, job.meta.current[f] ?? 0])),
      requested: job.form.limits,
      documents: job.proofs.map((p) => ({ fileName: fileLabel(p.file), contentType: p.type.mime })),
      source: 'filed',
      createdAt: request.createdAt ?? new Date().toISOString(),
    };
    const root = await postThreadRoot(deps, {
      channel: job.meta.channelId,
      userId: job.userId,
      limitRequestId: request.id,
      // For everyone in the channel, in the language of the requester (the decision reply follows it).
      message: ctx.present(limitRequestRootMessage(locale, { ...tracked, closed: false }, 'IN_REVIEW')),
    });
    if (root) await deps.store.trackedRequests.track({ ...tracked, channel: root.channel, rootTs: root.ts });
    deps.logger.info({ limitRequestId: request.id, user: job.userId, files: total }, 'limit request filed');
    const where = root ? m.limitForm.filedThread(`<#${root.channel}>`) : m.limitForm.filedNowhere;
    await show(messageModal(locale, m.limitForm.title, plain(m.limitForm.filed({ id: `\`${escapeMrkdwn(request.id)}\``, where }))));
  } catch (err) {
    deps.logger.warn({ err: err instanceof PixApiError ? { operation: err.operation, status: err.status } : String(err), user: job.userId }, 'limit request not filed');
    const action = stage === 'upload' ? 'uploadProofFiles' : 'fileTheLimitRequest';
    const text = `${failureText(locale, err, action, { write: true, then: 'none' })}\n${m.limitForm.notPosted}`;
    if (!(await show(messageModal(locale, m.limitForm.title, { text, blocks: [section(text)] })))) {
      await deps.slack.chat.postMessage({ channel: job.userId, ...ctx.present(plain(text)) }).catch(() => undefined);
    }
  }
}

const MessageFilesSchema = z.array(z.looseObject({ id: z.string(), name: z.string().nullish(), title: z.string().nullish() }));

/** The message shortcut "Request limit increase": the same form, with the message's files as proofs. */
const withTheseFiles: EntryRow = {
  kind: 'shortcut',
  id: 'limit_request_with_files',
  role: 'operator',
  what: 'fileLimitRequest',
  async handler({ shortcut, respond }, ctx) {
    const files = MessageFilesSchema.catch([]).parse(shortcut.message.files ?? []);
    if (files.length === 0) {
      await respond({ response_type: 'ephemeral', ...ctx.present(plain(messages(ctx.locale).limitForm.shortcutNoFiles)) });
      return;
    }
    await openForm(ctx.deps, ctx.locale, {
      triggerId: shortcut.trigger_id,
      channelId: shortcut.channel.id,
      attached: files.slice(0, 20).map((f) => ({ id: f.id, name: (f.name ?? f.title ?? f.id).slice(0, 100) })),
    });
  },
};

export const limitRequestRows: EntryRow[] = [limitRequestCommand, accountChanged, submitted, withTheseFiles];
