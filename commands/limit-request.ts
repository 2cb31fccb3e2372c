import { randomUUID } from 'node:crypto';
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
import { exactClient } from '../src/slack/exact-client';
import { noticeMetadata, postOnce } from '../src/slack/post-once';
import type { FilingIntent } from '../src/store/filing-intents';
import { FILING_CLAIM_MS, filingClaimKey, followFiled } from '../src/poller/follow';
import { describeError } from '../src/poller/errors';
import type { LimitRequest } from '../src/pix/schemas';
import { failureText } from '../views/errors';
import { ACCOUNT_ACTION, formModal, LIMIT_REQUEST_CALLBACK, loadingModal, progressModal } from '../views/limit-request-modal';
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
 * records the filing intent, files the request in exact cents, then follows it (poller/follow.ts:
 * tracked first, then its thread root posted once and recorded). The modal shows progress; a failure
 * shows the API's own words there (or in a DM if the modal was closed).
 *
 * Once the request is filed, nothing that fails after it is reported as "not filed": the person is
 * told its id and that it is in review, and whatever is left (tracking it, its root) is finished by the
 * poller from the intent (poller/reconcile.ts), which also settles a filing whose process died.
 */
async function fileRequest(
  ctx: EntryContext,
  job: { viewId: string; userId: string; meta: FormMeta; form: LimitForm; proofs: CheckedFile[] },
): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale);
  const show = modalUpdater(deps.slack, job.viewId);
  const total = job.proofs.length;
  /** In the modal; in a DM when the modal was closed and the news is not all good. */
  const tell = async (text: string, options: { dmIfClosed: boolean }) => {
    if (!(await show(messageModal(locale, m.limitForm.title, { text, blocks: [section(text)] }))) && options.dmIfClosed) {
      await postOnce(exactClient(deps), { channel: job.userId, ...ctx.present(plain(text)) }, noticeMetadata()).catch(() => undefined);
    }
  };
  let stage: 'upload' | 'file' = 'upload';
  let intent: FilingIntent | undefined;
  let fileIds: string[];
  try {
    fileIds = await uploadCheckedFiles(deps, job.proofs, 'ACCOUNT_LIMIT_REQUEST', (i, proof) =>
      i > 0 ? show(progressModal(locale, m.limitForm.uploadingNamed({ index: i + 1, total, name: fileLabel(proof.file) }), i, total)) : Promise.resolve(),
    );
    stage = 'file';
    await show(progressModal(locale, m.limitForm.filing, total, total));
    intent = {
      intentId: randomUUID(),
      requesterId: job.userId,
      channel: job.meta.channelId,
      accountId: job.form.accountId,
      current: Object.fromEntries(Object.keys(job.form.limits).map((f) => [f, job.meta.current[f] ?? 0])),
      requested: job.form.limits,
      documents: job.proofs.map((p) => ({ fileName: fileLabel(p.file), contentType: p.type.mime })),
      createdAt: new Date().toISOString(),
    };
    // Held until the filing is done, so that reconciliation leaves it alone meanwhile.
    await deps.store.claim(filingClaimKey(intent.intentId), FILING_CLAIM_MS);
    await deps.store.filingIntents.record(intent);
  } catch (err) {
    deps.logger.warn({ ...describeError(err), user: job.userId }, 'limit request not filed');
    if (intent) await deps.store.release(filingClaimKey(intent.intentId)).catch(() => undefined);
    const action = stage === 'upload' ? 'uploadProofFiles' : 'fileTheLimitRequest';
    await tell(`${failureText(locale, err, action, { write: true, then: 'none' })}\n${m.limitForm.notPosted}`, { dmIfClosed: true });
    return;
  }

  try {
    let request: LimitRequest;
    try {
      request = await deps.pix.createLimitRequest(deps.mainAppId, {
        companyBankAccountId: job.form.accountId,
        limits: job.form.limits,
        documents: fileIds.map((fileId) => ({ fileId })),
        description: job.form.description,
        limitRequestReason: job.form.limitRequestReason,
      });
    } catch (err) {
      deps.logger.warn({ ...describeError(err), user: job.userId }, 'limit request not filed');
      // Without an answer the request may exist: its intent stays, and the poller finds it (or, when it
      // is not in the company's list, tells the requester it was not filed).
      const inDoubt = !(err instanceof PixApiError) || err.kind !== 'http' || err.status >= 500;
      if (!inDoubt) await deps.store.filingIntents.delete(intent.intentId).catch(() => undefined);
      const text = failureText(locale, err, 'fileTheLimitRequest', { write: true, then: 'none' });
      await tell(`${text}\n${inDoubt ? m.tracking.maybeFiled : m.limitForm.notPosted}`, { dmIfClosed: true });
      return;
    }

    const followed = await followFiled(deps, exactClient(deps), { intent, request, locale, lookFirst: false });
    deps.logger.info({ limitRequestId: request.id, user: job.userId, files: total, ...followed, root: Boolean(followed.root) }, 'limit request filed');
    const where = followed.root ? m.limitForm.filedThread(`<#${followed.root.channel}>`) : m.tracking.filedByDm;
    const filed = m.limitForm.filed({ id: `\`${escapeMrkdwn(request.id)}\``, where });
    const complete = followed.tracked && followed.root !== undefined;
    await tell(followed.tracked ? filed : `${filed}\n${m.tracking.filedNotRecorded}`, { dmIfClosed: !complete });
  } finally {
    await deps.store.release(filingClaimKey(intent.intentId)).catch(() => undefined);
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
